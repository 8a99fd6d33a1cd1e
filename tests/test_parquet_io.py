"""Parquet in the command line: solve, count, rate and generate keep rows and columns."""

from __future__ import annotations

import os
import random
import stat
import threading
from pathlib import Path

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

import sudoku_fast as sf
from sudoku_fast._base.columns import RATING_FIELDS
from sudoku_fast._columns import check as column_check
from sudoku_fast._files import parquet_io
from sudoku_fast.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.fixture
def puzzles_file(tmp_path: Path) -> tuple[Path, list[dict[str, str]]]:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")
    bad = "11" + rows[0]["puzzle"][2:]
    table = pa.table(
        {
            "id": list(range(len(rows) + 1)),
            "quizzes": [r["puzzle"] for r in rows] + [bad],
            "solutions": [r["solution"] for r in rows] + [None],
        }
    )
    path = tmp_path / "in.parquet"
    pq.write_table(table, path, row_group_size=128)
    return path, rows


def test_solve_keeps_rows_and_columns(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, rows = puzzles_file
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q"]) == 0
    table = pq.read_table(out)
    assert table.column_names == ["id", "quizzes", "solutions", "solution"]
    assert table["id"].to_pylist() == list(range(len(rows) + 1))
    assert table["solution"].to_pylist() == [r["solution"] for r in rows] + [None]


def test_count_and_column_choice(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, rows = puzzles_file
    out = tmp_path / "count.parquet"
    assert main(["solve", str(path), "--count", "--column", "quizzes", "-o", str(out), "-q"]) == 0
    assert pq.read_table(out)["count"].to_pylist() == [1] * len(rows) + [0]
    assert main(["solve", str(path), "--column", "nope", "-o", str(out), "-q"]) == 2


def test_generate_then_rate(tmp_path: Path) -> None:
    generated = tmp_path / "g.parquet"
    assert (
        main(["generate", "-n", "4", "--seed", "3", "--format", "parquet", "-o", str(generated)])
        == 0
    )
    table = pq.read_table(generated)
    assert table.column_names == ["puzzle", "solution", "clues", "level", "name", "seed"]
    rated = tmp_path / "r.parquet"
    assert main(["rate", str(generated), "-o", str(rated)]) == 0
    out = pq.read_table(rated)
    assert out["level_rated"].to_pylist() == table["level"].to_pylist()
    assert out.num_rows == 4
    # Clues are counted as the parser reads a puzzle: '0' is an empty cell too.
    puzzle = table["puzzle"][0].as_py()
    parquet_io.write_generated(str(generated), [puzzle, puzzle.replace(".", "0")], [3, 4])
    clues = pq.read_table(generated)["clues"].to_pylist()
    assert clues == [81 - puzzle.count(".")] * 2
    # Rated once more: the suffixed names are taken too, so the next ones are free.
    again = tmp_path / "r2.parquet"
    assert main(["rate", str(rated), "-o", str(again)]) == 0
    names = pq.read_table(again).column_names
    assert len(names) == len(set(names)) and "level_rated_2" in names


def test_batches_overlap_and_keep_order(
    tmp_path: Path,
    puzzles_file: tuple[Path, list[dict[str, str]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many small batches through the read / solve / write pipeline stay in input order."""
    monkeypatch.setattr(parquet_io, "BATCH_ROWS", 37)
    path, rows = puzzles_file
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q", "--threads", "2"]) == 0
    table = pq.read_table(out)
    assert table["id"].to_pylist() == list(range(len(rows) + 1))
    assert table["solution"].to_pylist() == [r["solution"] for r in rows] + [None]


def test_an_error_in_a_later_batch_stops_the_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parquet_io, "BATCH_ROWS", 4)
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:10]
    puzzles = [r["puzzle"] for r in rows]
    puzzles[9] = "x" + puzzles[9][1:]
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"puzzle": puzzles}), path)
    with pytest.raises(ValueError, match=r"bad.parquet: row 9: .*'x'"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "out.parquet"))
    assert not (tmp_path / "out.parquet").exists()  # no footer: no file


@pytest.mark.parametrize("codec", ["none", "zstd"])
def test_the_output_takes_the_input_codec_or_the_one_asked_for(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]], codec: str
) -> None:
    path, rows = puzzles_file
    again = tmp_path / f"in-{codec}.parquet"
    pq.write_table(pq.read_table(path), again, compression=codec)
    assert parquet_io.input_codec(str(again), "quizzes") == codec
    out = tmp_path / "out.parquet"
    assert main(["solve", str(again), "-o", str(out), "-q"]) == 0
    chunk = pq.ParquetFile(out).metadata.row_group(0).column(3)
    assert chunk.path_in_schema == "solution"
    assert str(chunk.compression).lower() == ("uncompressed" if codec == "none" else codec)
    assert main(["solve", str(again), "-o", str(out), "-q", "--compression", "snappy"]) == 0
    assert pq.ParquetFile(out).metadata.row_group(0).column(3).compression == "SNAPPY"
    assert pq.read_table(out)["solution"].to_pylist()[:3] == [r["solution"] for r in rows[:3]]


def test_an_unknown_codec_is_refused(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, _ = puzzles_file
    with pytest.raises(ValueError, match="compression must be one of"):
        parquet_io.solve_parquet(str(path), str(tmp_path / "o.parquet"), compression="lzo")


def _varied_file(path: Path, rows: list[dict[str, str]], **options: object) -> None:
    """Puzzles beside columns of many kinds: nulls, lists, structs, a dictionary."""
    n = len(rows)
    table = pa.table(
        {
            "tags": pa.array([[i, -i] if i % 4 else None for i in range(n)]),
            "puzzle": [r["puzzle"] for r in rows],
            "meta": pa.array([{"source": f"s{i % 3}", "weight": i / 7} for i in range(n)]),
            "kind": pa.array([("easy", "hard")[i % 2] for i in range(n)]).dictionary_encode(),
            "solution": [r["solution"] if i % 5 else None for i, r in enumerate(rows)],
        },
        metadata={"made_by": "the test"},
    )
    pq.write_table(table, path, **options)


@pytest.mark.parametrize(
    "options",
    [
        {"row_group_size": 70},
        {"row_group_size": 128, "compression": "zstd", "write_page_index": True},
        {"compression": {"tags": "gzip", "puzzle": "none"}, "data_page_version": "2.0"},
        {"row_group_size": 100, "version": "1.0", "write_statistics": False},
    ],
)
def test_copied_columns_read_back_as_rewritten_ones(
    tmp_path: Path, options: dict[str, object]
) -> None:
    """The spliced file and the file pyarrow writes whole hold the same table.

    Read back by pyarrow and, where it is installed, by polars' own Parquet reader.
    """
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:333]
    path = tmp_path / "in.parquet"
    _varied_file(path, rows, **options)
    assert parquet_io._spliceable(str(path)) is not None
    copied, rewritten = tmp_path / "copied.parquet", tmp_path / "rewritten.parquet"
    parquet_io.solve_parquet(str(path), str(copied), threads=2)
    parquet_io.solve_parquet(str(path), str(rewritten), threads=2, rewrite=True)
    got, want = pq.read_table(copied), pq.read_table(rewritten)
    assert got.schema.names == ["tags", "puzzle", "meta", "kind", "solution", "found_solution"]
    assert got.equals(want)
    assert got.schema.metadata == want.schema.metadata
    assert got["found_solution"].to_pylist() == [r["solution"] for r in rows]
    assert got.select(["tags", "puzzle", "meta", "kind", "solution"]).equals(pq.read_table(path))
    source, out = pq.ParquetFile(path).metadata, pq.ParquetFile(copied).metadata
    assert out.num_row_groups == source.num_row_groups
    for g in range(source.num_row_groups):
        for c in range(source.num_columns):  # the same pages, somewhere else
            before, after = source.row_group(g).column(c), out.row_group(g).column(c)
            assert after.total_compressed_size == before.total_compressed_size
            assert after.compression == before.compression
    pl = pytest.importorskip("polars")
    assert pl.read_parquet(copied).equals(pl.read_parquet(rewritten))


def test_rate_and_count_copy_the_columns_too(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, rows = puzzles_file
    rows = rows[:60]
    small = tmp_path / "small.parquet"
    pq.write_table(pq.read_table(path).slice(0, 60), small, row_group_size=25)
    for copy, rewrite in (("c.parquet", False), ("r.parquet", True)):
        parquet_io.rate_parquet(str(small), str(tmp_path / copy), threads=2, rewrite=rewrite)
    rated = pq.read_table(tmp_path / "c.parquet")
    assert rated.equals(pq.read_table(tmp_path / "r.parquet"))
    assert rated.column_names[:3] == ["id", "quizzes", "solutions"]
    assert rated["clues"].to_pylist() == [sum(ch not in ".0" for ch in r["puzzle"]) for r in rows]
    out = tmp_path / "count.parquet"
    assert main(["solve", str(small), "--count", "-o", str(out), "-q"]) == 0
    assert pq.read_table(out)["count"].to_pylist() == [1] * 60


def test_files_that_cannot_be_copied_are_rewritten(
    tmp_path: Path,
    puzzles_file: tuple[Path, list[dict[str, str]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Row groups over the limit, and --rewrite: every column written again, in one codec."""
    path, rows = puzzles_file
    want = [r["solution"] for r in rows] + [None]
    monkeypatch.setattr(parquet_io, "SPLICE_MAX_ROWS", 100)
    assert parquet_io._spliceable(str(path)) is None
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q", "--compression", "zstd"]) == 0
    chunks = pq.ParquetFile(out).metadata.row_group(0)
    assert {chunks.column(i).compression for i in range(4)} == {"ZSTD"}
    assert pq.read_table(out)["solution"].to_pylist() == want
    monkeypatch.undo()
    assert main(["solve", str(path), "-o", str(out), "-q", "--compression", "zstd"]) == 0
    chunks = pq.ParquetFile(out).metadata.row_group(0)
    assert [chunks.column(i).compression for i in range(4)] == ["SNAPPY"] * 3 + ["ZSTD"]
    args = ["solve", str(path), "-o", str(out), "-q", "--rewrite", "--compression", "gzip"]
    assert main(args) == 0
    chunks = pq.ParquetFile(out).metadata.row_group(0)
    assert {chunks.column(i).compression for i in range(4)} == {"GZIP"}
    assert pq.read_table(out)["solution"].to_pylist() == want


def test_empty_row_groups_and_empty_files(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:5]
    schema = pa.schema([("puzzle", pa.string())])
    path = tmp_path / "gaps.parquet"
    with pq.ParquetWriter(path, schema) as writer:
        writer.write_table(pa.table({"puzzle": [r["puzzle"] for r in rows[:2]]}))
        writer.write_table(pa.table({"puzzle": pa.array([], pa.string())}))
        writer.write_table(pa.table({"puzzle": [r["puzzle"] for r in rows[2:]]}))
    out = tmp_path / "out.parquet"
    parquet_io.solve_parquet(str(path), str(out))
    assert pq.read_table(out)["solution"].to_pylist() == [r["solution"] for r in rows]
    empty = tmp_path / "empty.parquet"
    pq.ParquetWriter(empty, schema).close()
    assert parquet_io.solve_parquet(str(empty), str(out)).rows == 0
    assert pq.read_table(out).column_names == ["puzzle", "solution"]


def test_the_output_cannot_be_the_input(
    tmp_path: Path, puzzles_file: tuple[Path, list[dict[str, str]]]
) -> None:
    path, _ = puzzles_file
    before = path.read_bytes()
    with pytest.raises(ValueError, match="the output file is the input file"):
        parquet_io.solve_parquet(str(path), str(path))
    assert path.read_bytes() == before


def test_a_file_another_writer_wrote_is_copied_too(tmp_path: Path) -> None:
    """polars' own Parquet writer (not pyarrow's): copied and rewritten outputs agree."""
    pl = pytest.importorskip("polars")
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:250]
    frame = pl.DataFrame(
        {
            "n": list(range(len(rows))),
            "puzzle": [r["puzzle"] for r in rows],
            "pair": [[i, -i] for i in range(len(rows))],
        }
    )
    path = tmp_path / "polars.parquet"
    frame.write_parquet(path, row_group_size=100, compression="lz4")
    assert parquet_io._spliceable(str(path)) is not None
    copied, rewritten = tmp_path / "c.parquet", tmp_path / "r.parquet"
    parquet_io.solve_parquet(str(path), str(copied))
    parquet_io.solve_parquet(str(path), str(rewritten), rewrite=True)
    assert pq.read_table(copied).equals(pq.read_table(rewritten))
    back = pl.read_parquet(copied)
    assert back.drop("solution").equals(frame)
    assert back["solution"].to_list() == [r["solution"] for r in rows]


def _stages(
    fail: tuple[str, int] | None = None,
) -> tuple[dict[str, object], list[tuple[str, int]]]:
    """read / answer / encode / commit steps that log what they did, with random delays,
    and raise RuntimeError at one (step, item) when `fail` says so."""
    import random
    import threading
    import time

    log: list[tuple[str, int]] = []
    lock = threading.Lock()
    rng = random.Random(5)
    delays = [rng.random() * 0.002 for _ in range(1000)]

    def step(name: str, i: int) -> None:
        time.sleep(delays[(i * 7 + len(name)) % 1000])
        if fail == (name, i):
            raise RuntimeError(f"{name} failed at {i}")
        with lock:
            log.append((name, i))

    def read(i: int) -> int:
        step("read", i)
        return i

    def answer(i: int) -> int:
        step("answer", i)
        return i * 10

    def encode(i: int, answers: int) -> tuple[int, int]:
        step("encode", i)
        return i, answers

    def commit(i: int, encoded: tuple[int, int]) -> None:
        assert encoded == (i, i * 10)
        step("commit", i)

    return {"read": read, "answer": answer, "encode": encode, "commit": commit}, log


@pytest.mark.parametrize(("workers", "window"), [(1, 2), (2, 3), (4, 3), (8, 9)])
def test_the_ordered_pipeline_keeps_order_and_its_window(workers: int, window: int) -> None:
    steps, log = _stages()
    items = [i for i in range(60) if i % 7 != 3]  # not every index: row groups skipped
    parquet_io.ordered_pipeline(items, *steps.values(), workers=workers, window=window)
    for name in ("answer", "commit"):
        assert [i for step, i in log if step == name] == items
    assert sorted(i for step, i in log if step == "read") == items
    in_flight = peak = 0
    for step, _ in log:  # read but not yet written; the item being answered included
        in_flight += {"read": 1, "commit": -1}.get(step, 0)
        peak = max(peak, in_flight)
    assert peak <= 2 * window + 1  # read ahead, answering, waiting to be written


@pytest.mark.parametrize("where", ["read", "answer", "encode", "commit"])
def test_the_ordered_pipeline_stops_at_an_error(where: str) -> None:
    steps, log = _stages(fail=(where, 17))
    with pytest.raises(RuntimeError, match=f"{where} failed at 17"):
        parquet_io.ordered_pipeline(range(200), *steps.values(), workers=3, window=4)
    committed = [i for step, i in log if step == "commit"]
    assert committed == list(range(len(committed))) and len(committed) <= 17
    assert max(i for _, i in log) < 17 + 8  # stopped soon, nothing left running


def _marks_of(puzzle: str, ruled_out: dict[int, str] | None = None) -> str:
    """Pencil marks of a 9x9 puzzle: a clue's digit alone, every digit in an empty cell."""
    cells = []
    for i, c in enumerate(puzzle):
        digits = c if c in "123456789" else "123456789"
        for digit in (ruled_out or {}).get(i, ""):
            digits = digits.replace(digit, "")
        cells.append("".join(d if d in digits else "." for d in "123456789"))
    return "".join(cells)


def test_parquet_input_reads_pencil_marks_with_marks(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:6]
    blank = next(i for i, c in enumerate(rows[1]["puzzle"]) if c in ".0")
    marks = [
        _marks_of(rows[0]["puzzle"]),
        # The answer's digit ruled out of one empty cell: no solution is left.
        _marks_of(rows[1]["puzzle"], {blank: rows[1]["solution"][blank]}),
        "123456789" * 81,  # every digit everywhere: several solutions
    ]
    path = tmp_path / "marks.parquet"
    pq.write_table(pa.table({"puzzle": marks}), path)
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "--marks", "--verify", "-o", str(out), "-q"]) == 0
    solutions = pq.read_table(out)["solution"].to_pylist()
    assert solutions[0] == rows[0]["solution"]
    assert solutions[1] is None
    assert sf.is_solution(solutions[2], "." * 81)
    assert main(["solve", str(path), "--marks", "--count", "-o", str(out), "-q"]) == 0
    assert pq.read_table(out)["count"].to_pylist() == [1, 0, 2]
    # Without --marks, 729 characters read as the clues of a 27x27 grid.
    assert main(["solve", str(path), "-o", str(out), "-q"]) == 0
    assert pq.read_table(out)["solution"].to_pylist()[0] != rows[0]["solution"]


def test_malformed_and_null_rows_follow_on_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parquet_io, "BATCH_ROWS", 4)
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:9]
    puzzles: list[str | None] = [r["puzzle"] for r in rows]
    puzzles[1] = None
    puzzles[5] = "x" + rows[5]["puzzle"][1:]
    puzzles[6] = "1234" * 4  # a 4x4 grid among 9x9 ones
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"puzzle": puzzles}), path, row_group_size=3)
    out = tmp_path / "out.parquet"
    expected = [None if i in (1, 5, 6) else r["solution"] for i, r in enumerate(rows)]
    for rewrite in ([], ["--rewrite"]):
        assert main(["solve", str(path), "-o", str(out), *rewrite]) == 3  # --on-error mark
        assert pq.read_table(out)["solution"].to_pylist() == expected
        err = capsys.readouterr().err
        assert "bad.parquet: row 1: malformed: missing (null)" in err
        assert "row 5: malformed: unexpected character 'x'" in err
        assert "row 6: malformed:" in err
        assert "3 malformed" in err
    assert main(["solve", str(path), "-o", str(out), "--on-error", "skip", "-q"]) == 0
    assert pq.read_table(out)["solution"].to_pylist() == expected
    out.unlink()
    assert main(["solve", str(path), "-o", str(out), "--on-error", "fail", "-q"]) == 4
    assert "row 1: missing (null)" in capsys.readouterr().err
    assert not out.exists()
    report = parquet_io.solve_parquet(str(path), str(out), on_error="mark", count=True)
    assert (report.rows, report.malformed, report.solved, report.no_solution) == (9, 3, 6, 0)
    assert pq.read_table(out)["count"].to_pylist() == [None if s is None else 1 for s in expected]
    with pytest.raises(ValueError, match="on_error must be one of"):
        parquet_io.solve_parquet(str(path), str(out), on_error="ignore")


def test_verify_checks_solutions_against_the_solution_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:5]
    given = [r["solution"] for r in rows]
    wrong = given[3]
    given[3] = wrong[1] + wrong[0] + wrong[2:]  # two cells swapped: breaks the rules
    path = tmp_path / "given.parquet"
    pq.write_table(pa.table({"puzzle": [r["puzzle"] for r in rows], "solution": given}), path)
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out), "-q"]) == 0  # not checked
    assert main(["solve", str(path), "-o", str(out), "--verify"]) == 1
    err = capsys.readouterr().err
    assert "given.parquet: row 3: mismatch: the given solution is not a solution" in err
    assert "5 checked, 1 failed the check" in err
    found = pq.read_table(out)["found_solution"].to_pylist()
    assert found == [r["solution"] for r in rows]
    pq.write_table(pa.table({"puzzle": [r["puzzle"] for r in rows], "solution": found}), path)
    assert main(["solve", str(path), "-o", str(out), "--verify", "-q"]) == 0
    assert main(["solve", str(path), "-o", str(out), "--verify", "--count", "-q"]) == 0
    # Kaggle's names, in another case: read as the CSV reader reads them.
    table = pa.table({"Quizzes": [r["puzzle"] for r in rows], "Solutions": given})
    pq.write_table(table, path)
    assert main(["solve", str(path), "-o", str(out), "--verify"]) == 1
    assert "given.parquet: row 3: mismatch" in capsys.readouterr().err
    assert pq.read_table(out).column_names == ["Quizzes", "Solutions", "solution"]


def test_verify_with_an_alphabet_and_undecided_rows(tmp_path: Path) -> None:
    """--verify checks 16x16 rows read with an alphabet alone (no --box), and leaves rows
    the node budget left undecided as unknown, not as wrong answers."""
    rows = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")[:6]
    hex_digits = str.maketrans("123456789ABCDEFG", "0123456789ABCDEF")
    puzzles = [r["puzzle"].translate(hex_digits) for r in rows]
    given = [r["solution"].translate(hex_digits) for r in rows]
    given[2] = given[2][1] + given[2][0] + given[2][2:]  # two cells swapped
    path = tmp_path / "hex.parquet"
    pq.write_table(pa.table({"puzzle": puzzles, "solution": given}), path)
    out = tmp_path / "out.parquet"
    alphabet = "0123456789ABCDEF"
    report = parquet_io.solve_parquet(str(path), str(out), alphabet=alphabet, verify=True)
    assert (report.checked, report.mismatches) == (6, 1)
    assert [p.split(":")[0] for p in report.problems] == ["row 2"]
    # An empty 16x16 grid on a budget of 1 node is undecided, not wrong, though the
    # solution given beside it (another puzzle's) is one of its solutions.
    pq.write_table(pa.table({"puzzle": [puzzles[0], "." * 256], "solution": given[:2]}), path)
    for count in (False, True):
        report = parquet_io.solve_parquet(
            str(path), str(out), alphabet=alphabet, verify=True, max_nodes=1, count=count
        )
        assert (report.undecided, report.mismatches, report.checked) == (1, 0, 1)
        assert report.problems == ["row 1: unknown: no answer within 1 search nodes"]


def test_rating_a_file_without_rows_writes_the_typed_columns(tmp_path: Path) -> None:
    empty = tmp_path / "empty.parquet"
    pq.write_table(pa.table({"puzzle": pa.array([], pa.string())}), empty)
    out = tmp_path / "out.parquet"
    assert main(["rate", str(empty), "-o", str(out)]) == 0
    schema = pq.read_schema(out)
    assert schema.names == ["puzzle", *RATING_FIELDS]
    assert schema.field("level").type == pa.int64()
    assert schema.field("hardest").type == pa.string()
    assert sf.rate_many([], output="arrow").type == sf.rate_many([PUZZLE], output="arrow").type


def test_rate_score_adds_the_score_columns(tmp_path: Path) -> None:
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE], "score": [0.5]}), path)
    out = tmp_path / "out.parquet"
    assert main(["rate", str(path), "--score", "-o", str(out)]) == 0
    row = pq.read_table(out).to_pylist()[0]
    expected = sf.rate(PUZZLE, score=True)
    assert row["score"] == 0.5  # the input's column, kept
    assert row["score_rated"] == expected.score
    assert row["score_technique"] == expected.score_technique
    assert row["score_complete"] is True


@pytest.mark.parametrize(
    "name",
    [
        "kaggle_bryanpark_sample500_with_solutions.csv",
        "sudoku16_goomii_sample100_with_solutions.csv",
    ],
)
def test_the_column_check_agrees_with_its_row_by_row_twin(name: str) -> None:
    """`check_columns` (numpy, whole columns) against `check_rows` (one row at a time)."""
    rng = random.Random(5)
    rows = read_csv(VENDORED / name)[:100]
    puzzles: list[str | None] = [r["puzzle"] for r in rows]
    size = int(len(rows[0]["puzzle"]) ** 0.5)
    box = (int(size**0.5), int(size**0.5))
    found: list[str | None] = [r["solution"] for r in rows]
    given: list[str | None] = list(found)
    for i in rng.sample(range(100), 40):
        s = found[i]
        assert s is not None
        j = rng.randrange(len(s) - 1)
        swapped = s[:j] + s[j + 1] + s[j] + s[j + 2 :]
        which = rng.randrange(4)
        if which == 0:
            found[i] = swapped  # breaks the rules (or differs, if the two cells agree)
        elif which == 1:
            given[i] = swapped
        elif which == 2:
            found[i] = None
        else:
            given[i] = None
    bad = {3: "malformed: x", 7: "malformed: y"}
    puzzles[3] = None
    for count in (False, True):
        answers = [(1 if a else 0) for a in found] if count else found
        kind = pa.int32() if count else pa.string()
        for given_column in (pa.array(given, pa.string()), None):
            fast = column_check.check_columns(
                pa.array(puzzles, pa.string()),
                pa.array(answers, kind),
                given_column,
                bad,
                count,
                box,
                None,
            )
            slow = column_check.check_rows(
                puzzles,
                answers,
                None if given_column is None else given,
                bad,
                count,
                False,
                box,
                None,
            )
            assert fast == slow
            if given_column is not None and not count:
                assert len(slow) >= 30  # the tampered rows were seen


def test_rows_that_cannot_be_rated_get_null_ratings_and_an_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.parquet"
    several = "." * 81
    pq.write_table(pa.table({"puzzle": [PUZZLE, "11" + "." * 79, several, PUZZLE]}), path)
    out = tmp_path / "out.parquet"
    assert main(["rate", str(path), "-o", str(out)]) == 1  # not unique: as text input
    levels = pq.read_table(out)["level"].to_pylist()
    assert levels[1] is None and levels[2] is None
    assert levels[0] == levels[3] == sf.rate(PUZZLE).level
    err = capsys.readouterr().err
    assert "r.parquet: row 1: no solution" in err and "row 2: several solutions" in err
    pq.write_table(pa.table({"puzzle": [PUZZLE, "hello", None]}), path)
    assert main(["rate", str(path), "-o", str(out)]) == 3
    assert pq.read_table(out)["level"].to_pylist()[1:] == [None, None]
    with pytest.raises(ValueError, match="puzzle 1"):
        parquet_io.rate_parquet(str(path), str(tmp_path / "o2.parquet"))  # on_error="fail"


def test_undecided_rows_get_null_answers(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "sudoku16_misc.csv")[:12]
    path = tmp_path / "p16.parquet"
    pq.write_table(pa.table({"puzzle": [r["puzzle"] for r in rows]}), path)
    out = tmp_path / "out.parquet"
    report = parquet_io.solve_parquet(str(path), str(out), max_nodes=1, on_error="mark")
    solutions = pq.read_table(out)["solution"].to_pylist()
    assert report.undecided > 0 and report.undecided + report.solved == len(rows)
    for row, solution in zip(rows, solutions, strict=True):
        if solution is not None:
            check_solution(solution, row["puzzle"])
    assert solutions.count(None) == report.undecided
    assert main(["solve", str(path), "--max-nodes", "1", "-o", str(out), "-q"]) == 5
    assert main(["solve", str(path), "--max-nodes", "1", "--count", "-o", str(out), "-q"]) == 5
    counts = pq.read_table(out)["count"].to_pylist()
    assert all(c is None or c == 1 for c in counts) and None in counts


def test_binary_and_dictionary_puzzle_columns_are_read_as_text(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:5]
    texts = [r["puzzle"] for r in rows]
    out = tmp_path / "out.parquet"
    for column in (
        pa.array([t.encode() for t in texts], pa.binary()),
        pa.array(texts, pa.large_string()),
        pa.array(texts).dictionary_encode(),
    ):
        path = tmp_path / "in.parquet"
        pq.write_table(pa.table({"puzzle": column}), path)
        assert main(["solve", str(path), "-o", str(out), "-q"]) == 0
        assert pq.read_table(out)["solution"].to_pylist() == [r["solution"] for r in rows]


def test_a_failed_run_leaves_an_existing_output_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE, "hello"]}), path)
    out = tmp_path / "out.parquet"
    out.write_bytes(b"earlier work")
    assert main(["solve", str(path), "--on-error", "fail", "-o", str(out), "-q"]) == 4
    with pytest.raises(ValueError):
        parquet_io.rate_parquet(str(path), str(out))
    assert out.read_bytes() == b"earlier work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.parquet", "out.parquet"]
    assert main(["solve", str(path), "--format", "lines", "-o", str(out), "-q"]) == 2


@pytest.mark.parametrize("rewrite", [False, True])
def test_errors_name_the_file_the_user_gave(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rewrite: bool
) -> None:
    """pyarrow's errors name no file: a damaged or truncated input, or an output folder
    that is not there (written under a temporary name), are reported with the user's."""
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE] * 1000}), path, compression="zstd")
    data = bytearray(path.read_bytes())
    for i in range(60, 200):  # inside the first data page, past the magic bytes
        data[i] ^= 0x5A
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(bytes(data))
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(b"PAR1" + bytes(data[4:100]))
    out = tmp_path / "out.parquet"
    extra = ["--rewrite"] if rewrite else []
    for source, where in ((damaged, f"{damaged}: row group 0: "), (truncated, f"{truncated}: ")):
        assert main(["solve", str(source), "-o", str(out), "-q", *extra]) == 2
        assert f"error: {where}" in capsys.readouterr().err
    missing = tmp_path / "no such folder" / "out.parquet"
    assert main(["solve", str(path), "-o", str(missing), "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert f"'{missing}'" in err and "No such file or directory" in err
    assert ".partial" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "damaged.parquet",
        "in.parquet",
        "truncated.parquet",
    ]


def test_a_puzzle_column_of_numbers_is_refused_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": [1, 2], "puzzle": [PUZZLE, PUZZLE]}), path)
    out = tmp_path / "out.parquet"
    for command in ("solve", "rate"):
        assert main([command, str(path), "--column", "id", "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"{path}: column 'id' holds int64, not text" in err and "row" not in err
    assert not out.exists()


def test_the_puzzle_column_among_names_of_any_type() -> None:
    # Data frames may name columns with ints; they are no puzzle column, and no error.
    assert parquet_io.puzzle_column([0, "Puzzle", 1.5], None) == "Puzzle"
    with pytest.raises(ValueError, match="no puzzle column"):
        parquet_io.puzzle_column([0, 1], None)


def test_parquet_messages_name_rows_and_speak_in_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sixteen = sf.solve("." * 256)
    assert sixteen is not None
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE, sixteen, "." * 49]}), path)
    out = tmp_path / "out.parquet"
    assert main(["solve", str(path), "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert "row 1: malformed: a 16x16 puzzle in a file of 9x9 puzzles" in err
    assert "row 2: " in err and "box=" not in err and "alphabet=" not in err
    assert main(["solve", str(path), "-o", str(out), "--on-error", "fail"]) == 4
    assert "mixed.parquet: row 1: a 16x16 puzzle in a file of 9x9" in capsys.readouterr().err
    assert main(["solve", str(path), "-o", str(out), "--box", "3", "3"]) == 3
    assert "row 1: malformed: a 16x16 puzzle in a file of 9x9" in capsys.readouterr().err


def test_the_output_goes_through_a_link_and_into_a_pipe(tmp_path: Path) -> None:
    # A link's file is replaced, not the link; a pipe (or a device) is written into,
    # since renaming a finished file over it would replace the pipe itself.
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE] * 3}), path)
    target, link = tmp_path / "target.parquet", tmp_path / "link.parquet"
    try:
        link.symlink_to(target)
    except (OSError, NotImplementedError):
        pytest.skip("no symbolic links here")
    assert main(["solve", str(path), "-o", str(link), "-q"]) == 0
    assert link.is_symlink() and pq.read_table(target).column_names == ["puzzle", "solution"]
    if not hasattr(os, "mkfifo"):
        return
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()), daemon=True)
    reader.start()
    assert main(["solve", str(path), "-o", str(pipe), "-q"]) == 0
    reader.join(timeout=60)
    assert received, "nothing was written into the pipe"
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    answers = pq.read_table(pa.BufferReader(received[0]))["solution"].to_pylist()
    assert len(answers) == 3
    for answer in answers:
        check_solution(answer, PUZZLE)


@pytest.mark.parametrize("count", [False, True])
def test_the_answer_column_never_takes_a_name_in_use(tmp_path: Path, count: bool) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:5]
    answer = "count" if count else "solution"
    taken = {
        "puzzle": [r["puzzle"] for r in rows],
        answer: ["x"] * 5,
        f"found_{answer}": ["y"] * 5,
    }
    path, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table(taken), path)
    parquet_io.solve_parquet(str(path), str(out), count=count, threads=1)
    got = pq.read_table(out)  # two columns of one name would make this raise
    assert got.schema.names == [*taken, f"found_{answer}_2"]
    expected = [1] * 5 if count else [r["solution"] for r in rows]
    assert got[f"found_{answer}_2"].to_pylist() == expected


def test_csv_and_parquet_name_the_answer_column_alike() -> None:
    from sudoku_fast._files.stream import answer_column

    assert answer_column(["puzzle"], False) == "solution"
    assert answer_column(["puzzle"], True) == "count"
    assert answer_column(["puzzle", "solution"], False) == "found_solution"
    assert answer_column(["solution", "found_solution", "found_solution_2"], False) == (
        "found_solution_3"
    )
