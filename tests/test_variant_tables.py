"""Files of variant puzzles through the commands made for classic ones: nothing is lost
and nothing is read as the classic puzzle it is not.

`dedup` and `canonical` move a variant puzzle's rules with its givens
(`canonical_variant`): an empty killer grid is many puzzles, one per cage layout up to
the symmetries of the square; `augment` moves each variant row with its rules and its
solution (`random_variant_transform`); `stats` and the lab refuse records with rules;
`render` draws each puzzle under its own rules.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import run_cli

import sudoku_fast as sf

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


run = run_cli


@pytest.fixture(scope="module")
def killers() -> list[sf.VariantPuzzle]:
    made = sf.generate_many(12, size=4, rules="killer", seed=3)
    # 4x4 killers have few givens: as classic grids several are the same up to symmetry,
    # and only their cages tell them apart.
    assert len({sf.canonical(p.puzzle) for p in made}) < len(made)
    assert len({(p.puzzle, p.rules.dumps()) for p in made}) == len(made)
    return made


def _jsonl(items: list[sf.VariantPuzzle]) -> str:
    return "".join(
        json.dumps({"puzzle": p.puzzle, "rules": p.rules.to_json()}) + "\n" for p in items
    )


def _kept_jsonl(text: str) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [(r["puzzle"], sf.Rules.from_json(r["rules"]).dumps()) for r in rows]


def _first_of_each_key(pairs: list[tuple[str, sf.Rules]]) -> list[int]:
    seen: set[str] = set()
    kept = []
    for i, (puzzle, rules) in enumerate(pairs):
        key = sf.canonical_variant(puzzle, rules).key
        if key not in seen:
            seen.add(key)
            kept.append(i)
    return kept


def _moved(items: list[sf.VariantPuzzle], seed: int) -> list[tuple[str, sf.Rules]]:
    """Each puzzle moved with its rules by a symmetry that changes the pair."""
    out = []
    for k, item in enumerate(items):
        for draw in range(seed + 100 * k, seed + 100 * k + 50):
            puzzle, rules = sf.random_variant_transform(item.puzzle, item.rules, seed=draw)
            assert rules is not None
            if (puzzle, rules) != (item.puzzle, item.rules):
                out.append((puzzle, rules))
                break
    assert len(out) == len(items)
    return out


def test_dedup_drops_variant_puzzles_equivalent_to_an_earlier_one(
    tmp_path: Path, killers: list[sf.VariantPuzzle]
) -> None:
    pairs = [(p.puzzle, p.rules) for p in killers]
    pairs += pairs[:5] + _moved(killers[5:8], 1)
    path = tmp_path / "k.jsonl"
    path.write_text(
        "".join(json.dumps({"puzzle": p, "rules": r.to_json()}) + "\n" for p, r in pairs)
    )
    done = run("dedup", str(path))
    assert done.returncode == 0, done.stderr
    kept = _first_of_each_key(pairs)
    assert kept == list(range(len(kept))) and len(kept) <= 12  # the copies all go
    assert _kept_jsonl(done.stdout) == [(p, r.dumps()) for p, r in pairs[: len(kept)]]
    dropped = len(pairs) - len(kept)
    assert f"{len(kept)} kept, {dropped} equivalent to an earlier one" in done.stderr
    assert f"({dropped - 3} of them exact repeats)" in done.stderr


def test_dedup_of_csv_and_parquet_with_a_rules_column(
    tmp_path: Path, killers: list[sf.VariantPuzzle]
) -> None:
    classic = sf.generate(size=4, seed=1)
    variants = [(p.puzzle, p.rules) for p in killers + killers[:4]] + _moved(killers[:2], 7)
    puzzles = [p for p, _ in variants] + [classic]
    rules = [r.dumps() for _, r in variants] + [""]
    parquet = tmp_path / "k.parquet"
    pq.write_table(pa.table({"puzzle": puzzles, "rules": rules}), parquet)
    out = tmp_path / "kept.parquet"
    done = run("dedup", str(parquet), "-o", str(out), "--key")
    assert done.returncode == 0, done.stderr
    kept = pq.read_table(out).to_pylist()
    pairs = list(zip(puzzles, rules, strict=True))
    first = _first_of_each_key(variants)
    assert [(r["puzzle"], r["rules"]) for r in kept] == [*(pairs[i] for i in first), (classic, "")]
    # Each row has its canonical givens; a variant row its canonical rules too.
    for row in kept[:-1]:
        form = sf.canonical_variant(row["puzzle"], row["rules"])
        assert form.rules is not None
        assert (row["canonical"], row["canonical_rules"]) == (form.puzzle, form.rules.dumps())
    assert kept[-1]["canonical"] == sf.canonical(classic)
    assert kept[-1]["canonical_rules"] is None
    # CSV through the streaming path: the same rows kept.
    csv = tmp_path / "k.csv"
    lines = ["puzzle,rules"] + [f'{p},"{r.replace(chr(34), chr(34) * 2)}"' for p, r in pairs]
    csv.write_text("\n".join(lines) + "\n")
    done = run("dedup", str(csv))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [lines[0], *(lines[i + 1] for i in first), lines[-1]]


def test_canonical_and_augment_move_variant_rows_with_their_rules(
    tmp_path: Path, killers: list[sf.VariantPuzzle]
) -> None:
    path = tmp_path / "mixed.csv"
    rules = killers[0].rules.dumps().replace('"', '""')
    bad = '{""cages"": [{""cells"": [0, 99], ""sum"": 3}]}'
    path.write_text(
        f'puzzle,rules\n{CLASSIC},\n{killers[0].puzzle},"{rules}"\n{killers[0].puzzle},"{bad}"\n'
    )
    out = tmp_path / "canonical.csv"
    done = run("canonical", str(path), "-o", str(out))
    assert "row 2: cage 0: cell 99 is outside the 4x4 grid" in done.stderr
    written = list(csv.DictReader(out.open()))
    assert written[0]["canonical"] == sf.canonical(CLASSIC)
    assert written[0]["canonical_rules"] == ""
    form = sf.canonical_variant(killers[0].puzzle, killers[0].rules)
    assert form.rules is not None
    assert (written[1]["canonical"], written[1]["canonical_rules"]) == (
        form.puzzle,
        form.rules.dumps(),
    )
    assert written[1]["rules"] == killers[0].rules.dumps()
    assert written[2]["canonical"] == ""  # rules that do not fit: no form, reported
    out = tmp_path / "copies.csv"
    done = run("augment", str(path), "--copies", "3", "--seed", "1", "-o", str(out))
    assert "row 2: cage 0: cell 99 is outside the 4x4 grid" in done.stderr
    copies = list(csv.DictReader(out.open()))
    assert [row["source_row"] for row in copies] == ["0"] * 3 + ["1"] * 3
    for row in copies[:3]:
        assert sf.canonical(row["puzzle"]) == sf.canonical(CLASSIC)
        assert row["rules"] == ""
    for row in copies[3:]:  # the killer moved with its cages
        assert sf.canonical_variant(row["puzzle"], row["rules"]).key == form.key
    assert len({(row["puzzle"], row["rules"]) for row in copies[3:]}) > 1


def test_augment_moves_variant_solutions_with_their_puzzles(
    tmp_path: Path, killers: list[sf.VariantPuzzle]
) -> None:
    oracle = pytest.importorskip("variant_oracle")
    path = tmp_path / "k.parquet"
    items = killers[:4]
    pq.write_table(
        pa.table(
            {
                "puzzle": [p.puzzle for p in items],
                "solution": [sf.solve(p.puzzle, rules=p.rules) for p in items],
                "rules": [p.rules.dumps() for p in items],
            }
        ),
        path,
    )
    out = tmp_path / "copies.parquet"
    done = run("augment", str(path), "--copies", "2", "--seed", "5", "-o", str(out))
    assert done.returncode == 0, done.stderr
    copies = pq.read_table(out).to_pylist()
    assert len(copies) == 8
    for row in copies:
        item = items[row["source_row"]]
        rules = sf.Rules.from_json(row["rules"])
        assert sf.canonical_variant(row["puzzle"], rules).key == (
            sf.canonical_variant(item.puzzle, item.rules).key
        )
        assert oracle.is_valid_solution(row["solution"], rules.to_json(), row["puzzle"])
        assert sf.solve(row["puzzle"], rules=rules) == row["solution"]


def test_augment_names_the_row_of_a_bad_puzzle_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(f"puzzle\n{CLASSIC}\n{CLASSIC[:80]}\n{CLASSIC}\n")
    done = run("augment", str(path), "--copies", "4", "-o", str(tmp_path / "out.csv"))
    problems = [line for line in done.stderr.splitlines() if ": row " in line]
    assert len(problems) == 1 and ": row 1: " in problems[0], done.stderr


def test_stats_refuses_records_with_rules(tmp_path: Path, killers: list[sf.VariantPuzzle]) -> None:
    path = tmp_path / "k.jsonl"
    path.write_text(_jsonl(killers[:2]))
    done = run("stats", str(path))
    assert done.returncode != 0
    assert f"{path.name}:1: the puzzle carries variant rules" in done.stderr


def test_render_draws_each_puzzle_under_its_own_rules(
    tmp_path: Path, killers: list[sf.VariantPuzzle]
) -> None:
    path = tmp_path / "k.jsonl"
    path.write_text(_jsonl(killers[:2]))
    done = run("render", str(path), "-o", str(tmp_path / "pics") + "/", "--no-answers")
    assert done.returncode == 0, done.stderr
    for i, item in enumerate(killers[:2]):
        expected = tmp_path / f"expected{i}.svg"
        sf.render(item.puzzle, rules=item.rules, caption=f"No. {i + 1}").save(str(expected))
        drawn = (tmp_path / "pics" / f"{i + 1:04d}.svg").read_text()
        assert drawn == expected.read_text()
        plain = tmp_path / f"plain{i}.svg"
        sf.render(item.puzzle, caption=f"No. {i + 1}").save(str(plain))
        assert drawn != plain.read_text()  # the cages are drawn
