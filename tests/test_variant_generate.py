"""Generation under variant rules: `generate(rules=...)`, `generate_many(rules=...)` and
`sudoku-fast generate --variant / --rules`.

Every generated puzzle is checked by the independent method of tests/variant_oracle.py:
the SAT counter finds exactly one solution, and the plain checker accepts it under the
puzzle's rules. Minimality is checked the same way (removing any given leaves two
solutions or more); jigsaw regions and killer cages are checked for connectivity here,
with code of the test's own.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import variant_oracle as oracle
from conftest import use_twins

import sudoku_fast as sf
from sudoku_fast import Rules, VariantPuzzle
from sudoku_fast.generator import iter_generate

SYMBOLS = "123456789AB"


def _oracle_rules(rules: Rules, size: int) -> dict[str, Any]:
    return {"size": size, **rules.to_json()}


def _unique(puzzle: str, rules: Rules) -> str:
    """The puzzle's one solution, checked by the SAT counter and the plain checker."""
    size = int(len(puzzle) ** 0.5)
    document = _oracle_rules(rules, size)
    count, found = oracle.count_solutions(puzzle, document, limit=2)
    assert count == 1, (puzzle, rules.dumps())
    assert oracle.is_valid_solution(found[0], document, puzzle)
    return found[0]


def _connected(cells: list[int], size: int) -> bool:
    inside = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        r, c = divmod(todo.pop(), size)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            nb = rr * size + cc
            if 0 <= rr < size and 0 <= cc < size and nb in inside and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == inside


def _minimal(puzzle: str, rules: Rules, givens: int | None = None) -> None:
    """Removing any given (the first `givens` of them) leaves two solutions or more."""
    size = int(len(puzzle) ** 0.5)
    document = _oracle_rules(rules, size)
    cells = [i for i, ch in enumerate(puzzle) if ch != "."]
    for cell in cells[:givens]:
        fewer = puzzle[:cell] + "." + puzzle[cell + 1 :]
        assert oracle.count_solutions(fewer, document, limit=2)[0] == 2, (puzzle, cell)


KINDS = [
    ("x", 4),
    ("x", 6),
    ("x", 9),
    ("windoku", 4),
    ("windoku", 9),
    ("anti-knight", 6),
    ("anti-knight", 9),
    ("anti-king", 6),
    ("non-consecutive", 6),
    ("disjoint", 6),
    ("jigsaw", 4),
    ("jigsaw", 5),
    ("jigsaw", 6),
    ("jigsaw", 9),
    ("killer", 4),
    ("killer", 6),
    ("killer", 9),
    ("thermo", 4),
    ("thermo", 6),
    ("thermo", 9),
    ("jigsaw,x", 6),
    ("killer,x", 6),
    ("killer,thermo", 6),
]


@pytest.mark.parametrize(("names", "size"), KINDS)
def test_every_generated_puzzle_is_unique_under_its_rules(names: str, size: int) -> None:
    made = sf.generate_many(2 if size == 9 else 3, seed=7, size=size, rules=names, threads=1)
    for item in made:
        assert isinstance(item, VariantPuzzle)
        puzzle, rules = item
        assert len(puzzle) == size * size
        solution = _unique(puzzle, rules)
        fixed = Rules.named(
            *[n for n in names.split(",") if n not in ("jigsaw", "killer", "thermo")]
        )
        for flag in ("diagonals", "windoku", "disjoint", "anti_knight", "anti_king"):
            assert getattr(rules, flag) == getattr(fixed, flag)
        assert rules.non_consecutive == fixed.non_consecutive
        assert (rules.regions is not None) == ("jigsaw" in names)
        assert bool(rules.cages) == ("killer" in names)
        assert bool(rules.thermos) == ("thermo" in names)
        assert Rules.from_json(rules.dumps()) == rules
        if "killer" not in names and size <= 6:
            _minimal(puzzle, rules)
        elif "killer" not in names:
            _minimal(puzzle, rules, givens=4)  # a few: the SAT counts cost ~50 ms each
        assert solution  # the oracle's solution keeps every rule (checked in _unique)


def test_jigsaw_regions_are_connected_and_of_n_cells() -> None:
    for size in (4, 5, 6, 7, 8, 9):
        for puzzle, rules in sf.generate_many(2, seed=size, size=size, rules="jigsaw", threads=1):
            assert rules.regions is not None and len(rules.regions) == size * size
            by_label: dict[str, list[int]] = {}
            for cell, label in enumerate(rules.regions):
                by_label.setdefault(label, []).append(cell)
            assert len(by_label) == size
            for cells in by_label.values():
                assert len(cells) == size
                assert _connected(cells, size), rules.regions
            rows = {tuple(range(r * size, r * size + size)) for r in range(size)}
            assert not {tuple(c) for c in by_label.values()} & rows
            if size <= 6:
                _unique(puzzle, rules)


def test_killer_cages_cover_the_grid_connected_with_the_solutions_sums() -> None:
    givens = []
    for puzzle, rules in sf.generate_many(6, seed=11, size=6, rules="killer", threads=1):
        solution = _unique(puzzle, rules)
        covered = sorted(c for cage in rules.cages for c in cage.cells)
        assert covered == list(range(36))
        for cage in rules.cages:
            assert 1 <= len(cage.cells) <= 5
            assert _connected(list(cage.cells), 6)
            assert cage.total == sum(SYMBOLS.index(solution[c]) + 1 for c in cage.cells)
        givens.append(sum(ch != "." for ch in puzzle))
        _minimal(puzzle, rules)  # every given added is needed
    assert max(givens) <= 4, givens  # none or few


def test_thermometers_increase_in_the_solution() -> None:
    for puzzle, rules in sf.generate_many(3, seed=5, size=6, rules="thermo", threads=1):
        solution = _unique(puzzle, rules)
        assert rules.thermos
        seen: set[int] = set()
        for thermo in rules.thermos:
            assert len(thermo) >= 3
            assert not seen & set(thermo)
            seen |= set(thermo)
            digits = [SYMBOLS.index(solution[c]) for c in thermo]
            assert digits == sorted(set(digits))
            for a, b in itertools.pairwise(thermo):  # king steps
                assert max(abs(a // 6 - b // 6), abs(a % 6 - b % 6)) == 1


def test_fixed_rules_are_kept_for_every_puzzle() -> None:
    rules = Rules(diagonals=True, extra=((0, 7, 14),))
    made = sf.generate_many(2, seed=3, size=6, rules=rules.to_json(), threads=1)
    for puzzle, got in made:
        assert got == rules
        _unique(puzzle, got)
    puzzle, got = sf.generate(seed=3, size=6, rules=rules)
    assert got == rules and puzzle == made[0].puzzle


def test_seeded_and_independent_of_threads() -> None:
    for names in ("x", "killer", "jigsaw", "thermo"):
        one = sf.generate_many(4, seed=21, size=6, rules=names, threads=1)
        assert one == sf.generate_many(4, seed=21, size=6, rules=names, threads=2)
        assert one != sf.generate_many(4, seed=22, size=6, rules=names, threads=1)
    first = sf.generate_many(3, seed=8, size=6, rules="x", threads=1)
    assert sf.generate(seed=8, size=6, rules="x") == first[0]
    chunks = list(sf.generator.iter_generate(3, seed=8, size=6, rules="x", chunk=2))
    assert [len(c) for c in chunks] == [2, 1] and [p for c in chunks for p in c] == first


def test_symmetric_variant_puzzles() -> None:
    for puzzle, rules in sf.generate_many(2, seed=4, size=6, symmetry="rotational", rules="x"):
        for cell in range(36):
            assert (puzzle[cell] == ".") == (puzzle[35 - cell] == ".")
        _unique(puzzle, rules)


def test_generation_on_the_twin_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counts to 2 are exact on both engines, so puzzles whose steps read only counts
    # (not which of two solutions search met first, as killer givens do) are the same.
    kinds = ("x", "jigsaw", "thermo", "killer")
    compiled = {k: sf.generate_many(2, seed=9, size=4, rules=k, threads=1) for k in kinds}
    use_twins(monkeypatch, "sudoku_fast._variants._variant")
    for names in kinds:
        made = sf.generate_many(2, seed=9, size=4, rules=names, threads=1)
        for puzzle, rules in made:
            _unique(puzzle, rules)
        if names != "killer":
            assert made == compiled[names]


@pytest.mark.parametrize(
    ("names", "seed"), [("x", 0), ("anti-king", 1), ("killer", 1), ("thermo", 1)]
)
def test_twelve_by_twelve_puzzles_on_the_general_engine(names: str, seed: int) -> None:
    # Above 11x11 the general engine counts; a removal its budget cannot decide keeps
    # its givens, so these are checked unique (not minimal) by the SAT counter.
    puzzle, rules = sf.generate(size=12, seed=seed, rules=names)
    assert len(puzzle) == 144
    _unique(puzzle, rules)
    assert sf.generate(size=12, seed=seed, rules=names) == (puzzle, rules)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": 6, "rules": "windoku"}, "windoku: a 6x6 grid has no square boxes"),
        ({"size": 5, "rules": "x"}, "no boxes: only jigsaw"),
        ({"size": 17, "rules": "x"}, "up to 16x16"),
        ({"size": 3, "rules": "x"}, "from 4x4 up"),
        ({"size": 9, "rules": "x", "difficulty": "trivial"}, "unknown difficulty 'trivial'"),
        ({"size": 9, "rules": "x", "difficulty": 6}, "difficulty level must be 1-5"),
        ({"size": 9, "rules": "x", "score": (2.0, 3.0)}, "score"),
        ({"size": 9, "rules": "x,checkers"}, "unknown variant 'checkers'"),
        (
            {"size": 4, "rules": Rules(regions="1122112233443344"), "symmetry": "none"},
            None,
        ),
        ({"size": 4, "rules": {"regions": "1122112233443344", "cages": []}}, None),
        ({"size": 6, "rules": {"cages": [{"cells": [0, 1], "sum": 40}]}}, "cage 0: sum 40"),
        ({"size": 4, "rules": {"extra": [[0, 99]]}}, "extra set 0: cell 99 is outside"),
        ({"size": 4, "rules": {"regions": "1" * 16}}, "region '1' has 16 cells"),
        (
            {"size": 9, "rules": Rules(regions="1" * 9 + "2" * 9 + "3" * 72)},
            "regions:",
        ),
        ({"size": 4, "rules": Rules(anti_king=True, diagonals=True)}, "no 4x4 grid keeps"),
        ({"size": 6, "rules": "x,anti-king"}, "no 6x6 grid keeps"),
        ({"size": 4, "rules": "non-consecutive,killer"}, "no 4x4 grid keeps"),
    ],
)
def test_requests_that_do_not_fit_name_the_reason(
    kwargs: dict[str, Any], message: str | None
) -> None:
    if message is None:  # a fixed jigsaw layout is fine: its puzzles keep it
        puzzle, rules = sf.generate(seed=1, **kwargs)
        assert rules.regions == "1122112233443344"
        _unique(puzzle, rules)
        return
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        sf.generate(seed=1, **kwargs)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_cli_generate_with_variants(tmp_path: Path) -> None:
    done = _cli("generate", "-n", "2", "--size", "4", "--seed", "3", "--variant", "killer",
                "--format", "jsonl")  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 2
    for record in records:
        _unique(record["puzzle"], Rules.from_json(record["rules"]))
    expected = sf.generate_many(2, size=4, seed=3, rules="killer", threads=1)
    assert [(r["puzzle"], Rules.from_json(r["rules"])) for r in records] == expected

    rules_file = tmp_path / "r.json"
    rules_file.write_text('{"disjoint": true}')
    done = _cli("generate", "-n", "2", "--size", "6", "--seed", "3", "--rules", str(rules_file),
                "--variant", "anti-knight")  # fmt: skip
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        puzzle, text = line.split("\t")
        rules = Rules.from_json(text)
        assert rules == Rules.named("disjoint", "anti-knight")
        _unique(puzzle, rules)

    done = _cli("generate", "--size", "6", "--variant", "windoku")
    assert done.returncode == 2 and "windoku: a 6x6 grid has no square boxes" in done.stderr
    done = _cli("generate", "--variant", "killer", "--rules", str(rules_file))
    assert done.returncode == 2 and "cannot be combined" in done.stderr


@pytest.mark.parametrize(
    ("names", "size", "level"),
    [
        ("x", 6, 4),
        ("x", 9, 5),
        ("jigsaw", 6, 2),
        ("killer", 6, 2),
        ("killer", 9, 3),
        ("anti-knight", 6, 1),
        ("thermo", 6, 2),
    ],
)
def test_generate_at_a_level_under_rules(names: str, size: int, level: int) -> None:
    """`difficulty=` with rules: every puzzle unique by the SAT counter, rated at the
    asked level under its rules; the same puzzles on 1 and 2 threads, and `generate`
    gives the first of `generate_many`."""
    made = sf.generate_many(2, difficulty=level, seed=5, size=size, rules=names, threads=2)
    assert made == sf.generate_many(2, difficulty=level, seed=5, size=size, rules=names, threads=1)
    for puzzle, rules in made:
        _unique(puzzle, rules)
        assert sf.rate(puzzle, rules=rules).level == level
    assert sf.generate(difficulty=level, seed=5, size=size, rules=names) == made[0]
    chunks = list(
        iter_generate(2, difficulty=level, seed=5, size=size, rules=names, threads=1, chunk=1)
    )
    assert [p for chunk in chunks for p in chunk] == made


def test_generate_at_a_level_under_rules_gives_up_with_a_reason() -> None:
    """4x4 Sudoku X puzzles are easy: asking for an extreme one runs out of candidates."""
    with pytest.raises(RuntimeError, match=r"puzzle 0: no 4x4 fixed-rule puzzle rated extreme"):
        sf.generate(difficulty="extreme", seed=1, size=4, rules="x")


def test_cli_generate_with_variants_at_a_level() -> None:
    done = _cli("generate", "-n", "2", "--size", "6", "--seed", "4", "--variant", "x",
                "--difficulty", "medium", "--format", "jsonl")  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    made = [(r["puzzle"], Rules.from_json(r["rules"])) for r in records]
    assert made == sf.generate_many(2, "medium", seed=4, size=6, rules="x", threads=1)
    for puzzle, rules in made:
        _unique(puzzle, rules)
        assert sf.rate(puzzle, rules=rules).name == "medium"
