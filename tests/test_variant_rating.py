"""Rating and hints under variant rules: every step sound, levels on the classic ladder.

Puzzles are seeded: a solution under the rules from the engine (checked by the oracle's
plain checker, tests/variant_oracle.py, written apart from the package), givens drawn
from it and added until the engine counts one solution (and, with python-sat, the
oracle's SAT counter agrees). Each step of the technique solver must agree with that
unique solution: a placement puts the solution digit, an elimination never takes it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
import variant_oracle as oracle
from conftest import Side
from test_variants import _cages, _jigsaw, _thermos

import sudoku_fast as sf
from sudoku_fast import Rules
from sudoku_fast._base.grid import geometry_for
from sudoku_fast._techniques import _logic, _logic_py
from sudoku_fast._techniques.rules_geometry import RulesGeometry, rules_geometry
from sudoku_fast._techniques.steps import candidate_masks, hint_from_record, make_hint

SYMBOLS = "123456789"


def _text(values: list[int]) -> str:
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)


def _values(text: str) -> list[int]:
    return [0 if ch == "." else SYMBOLS.index(ch) + 1 for ch in text]


def _solution(size: int, rules: Rules, rng: random.Random) -> list[int]:
    """A solution under `rules`: the engine's, from a few random clues it can complete."""
    for _ in range(100):
        puzzle = ["."] * (size * size)
        for cell in rng.sample(range(size * size), 2):
            puzzle[cell] = SYMBOLS[rng.randrange(size)]
        found = sf.solve("".join(puzzle), rules=rules)
        if found is not None:
            assert oracle.is_valid_solution(found, rules.to_json())
            return _values(found)
    raise AssertionError(f"no solution found under {rules}")


def _unique(solution: list[int], rules: Rules, rng: random.Random) -> str:
    """Givens of `solution`, as few as keep it unique: from the full grid, every cell in
    random order is emptied unless the count would exceed one."""
    grid = solution[:]
    for cell in rng.sample(range(len(grid)), len(grid)):
        kept, grid[cell] = grid[cell], 0
        try:
            unique = sf.count_solutions(_text(grid), limit=2, rules=rules, max_nodes=20_000) == 1
        except sf.SearchLimitExceeded:  # too costly to tell: keep the cell
            unique = False
        if not unique:
            grid[cell] = kept
    return _text(grid)


PLAIN: dict[str, Callable[[int], Rules]] = {
    "x": lambda size: Rules.named("x"),
    "windoku": lambda size: Rules.named("windoku"),
    "disjoint": lambda size: Rules.named("disjoint"),
    "anti-knight": lambda size: Rules.named("anti-knight"),
    "anti-king": lambda size: Rules.named("anti-king"),
    "non-consecutive": lambda size: Rules.named("non-consecutive"),
    "x+anti-knight": lambda size: Rules.named("x", "anti-knight"),
}


def _cases(kind: str, size: int, count: int, seed: int = 1) -> list[tuple[str, Rules, list[int]]]:
    """Seeded unique puzzles of one kind: (puzzle, rules, its solution)."""
    rng = random.Random(f"rate-{kind}-{size}-{seed}")
    out = []
    for _ in range(count):
        if kind == "jigsaw":
            solution = _solution(size, Rules(), rng)
            rules = Rules(regions=_jigsaw(solution, size, rng))
        elif kind in ("killer", "killer-x"):
            base = Rules.named("x") if kind == "killer-x" else Rules()
            solution = _solution(size, base, rng)
            rules = base.merge(Rules(cages=_cages(solution, size, rng, sums=True)))
        elif kind == "thermo":
            solution = _solution(size, Rules(), rng)
            rules = Rules(thermos=_thermos(solution, size, rng))
        elif kind == "extra":
            solution = _solution(size, Rules(), rng)
            group = [c for c in range(size * size) if solution[c] <= size // 2][: size // 2]
            rules = Rules(extra=(tuple(group),))
        else:
            rules = PLAIN[kind](size)
            solution = _solution(size, rules, rng)
        puzzle = _unique(solution, rules, rng)
        out.append((puzzle, rules, solution))
    return out


KINDS = [*PLAIN, "jigsaw", "extra", "killer", "killer-x", "thermo"]


def _check_path(puzzle: str, rules: Rules, solution: list[int]) -> list[_logic_py.Step]:
    """Solve `puzzle` step by step with the technique solver under `rules`, checking
    each step against the unique solution; return the steps."""
    geo = rules_geometry(geometry_for(int(len(puzzle) ** 0.5)), rules)
    steps = _logic_py.logical_solve(_values(puzzle), solution, geo)
    state = _logic_py.LogicSolver(_values(puzzle), geo)
    for step in steps:
        for cell, digit in step.placements:
            assert solution[cell] == digit, (step, puzzle)
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, (step, puzzle)
        state.apply(step)
        for cell, mask in enumerate(state.cand):  # the upkeep never loses the solution
            assert state.values[cell] or mask >> (solution[cell] - 1) & 1, (step, puzzle)
    assert state.values == solution
    return steps


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("size", [4, 6, 9])
def test_every_step_agrees_with_the_unique_solution(kind: str, size: int) -> None:
    if kind == "windoku" and size == 6:
        pytest.skip("windoku needs square boxes")
    none = {4: ("anti-king", "non-consecutive", "x+anti-knight"), 6: ("x+anti-knight",)}
    if kind in none.get(size, ()):
        pytest.skip("no grid of this size has these rules")
    for puzzle, rules, solution in _cases(kind, size, 2 if size == 9 else 6):
        _check_path(puzzle, rules, solution)


def test_the_oracle_agrees_the_puzzles_are_unique() -> None:
    pytest.importorskip("pysat")
    for kind in ("x", "jigsaw", "anti-knight", "non-consecutive"):
        for puzzle, rules, solution in _cases(kind, 9, 2):
            count, found = oracle.count_solutions(puzzle, rules.to_json(), 2)
            assert count == 1 and found[0] == _text(solution)


def test_variant_techniques_are_used() -> None:
    """The rules' own units carry deductions: diagonal, region and window singles and
    locked candidates show up in the explanations."""
    said = set()
    for kind in ("x", "jigsaw", "windoku"):
        for puzzle, rules, solution in _cases(kind, 9, 2):
            for step in _check_path(puzzle, rules, solution):
                hint = sf.Hint(step.technique, step.level, step.cells, step.digits)
                assert hint.level in range(1, 7)
                geo = rules_geometry(geometry_for(9), rules)
                for unit in step.aux[:1] if step.technique.endswith("single") else ():
                    said.add(geo.unit_name(unit).split()[0])
    assert {"diagonal", "region", "window"} <= said


def test_rules_geometry_without_rules_is_the_classic_solver(side: Side) -> None:
    """The twin on a RulesGeometry of no rules takes the very steps the solver (compiled
    or twin) takes on the classic geometry: the generalised units, crossings and order
    keep the classic meaning."""
    puzzles = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
    ]
    geo = geometry_for(9)
    plain = rules_geometry(geo, Rules())
    logic = side.module(_logic)
    for puzzle in puzzles:
        solution = _values(sf.solve(puzzle) or "")
        values = _values(puzzle)
        records = logic.solve_steps(logic.tables_for(geo), bytes(values), bytes(solution))
        classic = [hint_from_record(geo, record) for record in records]
        steps = _logic_py.logical_solve(values, solution, plain)
        general = [hint_from_record(plain, step.record()) for step in steps]
        assert classic == general


def test_rate_with_rules() -> None:
    for kind in ("x", "jigsaw", "anti-knight"):
        cases = _cases(kind, 9, 4 if kind == "x" else 1)
        ratings = sf.rate_many([p for p, _, _ in cases], rules=[r for _, r, _ in cases], threads=1)
        assert all(1 <= rating.level <= 6 for rating in ratings)
        assert sf.rate(cases[0][0], rules=cases[0][1]) == ratings[0]
        if kind == "x":  # most need no guess: logic alone solves them to the end
            assert sum("guess" not in r.counts for r in ratings) >= 2, ratings


def test_rate_many_one_rule_set_and_outputs() -> None:
    cases = _cases("x", 9, 3)
    puzzles = [p for p, _, _ in cases]
    ratings = sf.rate_many(puzzles, rules="x", threads=2)
    assert ratings == [sf.rate(p, rules="x") for p in puzzles]
    table = sf.rate_many(puzzles, rules="x", output="arrow")
    assert table.field("level").to_pylist() == [r.level for r in ratings]


def test_score_with_rules_is_refused() -> None:
    puzzle, rules, _ = _cases("x", 9, 1)[0]
    with pytest.raises(ValueError, match="calibrated on classic puzzles"):
        sf.rate(puzzle, rules=rules, score=True)
    with pytest.raises(ValueError, match="calibrated on classic puzzles"):
        sf.rate_many([puzzle], rules=rules, score=True)
    with pytest.raises(ValueError, match="calibrated on classic puzzles"):
        sf.hint(puzzle, rules=rules, scale="se")


def test_rate_with_rules_refuses_puzzles_that_are_not_unique() -> None:
    with pytest.raises(ValueError, match="several solutions"):
        sf.rate("." * 81, rules="x")
    puzzle = _cases("x", 9, 1)[0][0]
    with pytest.raises(ValueError, match="puzzle 1: has no solution"):
        sf.rate_many([puzzle, "11" + "." * 79], rules="x", threads=1)


def test_rate_many_forgiving_with_rules() -> None:
    puzzle, rules, _ = _cases("x", 9, 1)[0]
    out = sf.rate_many([puzzle, "." * 81, puzzle], rules=rules, on_error="none", threads=1)
    assert out[0] == out[2] == sf.rate(puzzle, rules=rules) and out[1] is None


def test_classic_puzzle_under_a_rule_that_changes_nothing() -> None:
    """A classic puzzle rated with rules whose only set is a row again: the same rating."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    again = Rules(extra=(tuple(range(9)),))
    assert sf.rate(puzzle, rules=again).counts.keys() <= sf.rate(puzzle).counts.keys() | {
        "hidden single",
        "naked single",
        "full house",
    }
    assert sf.rate(puzzle, rules=again).level == sf.rate(puzzle).level


def test_hints_with_rules_walk_to_the_solution() -> None:
    for kind in ("x", "non-consecutive", "anti-king"):
        puzzle, rules, solution = _cases(kind, 6, 1)[0]
        board = sf.Board.new(puzzle)
        for _ in range(5000):
            step = sf.hint(board, rules=rules)
            if step is None:
                break
            for cell, digit in step.placements:
                assert solution[cell] == digit
            for cell, digit in step.eliminations:
                assert solution[cell] != digit
            board = board.apply(step)
        assert board.grid_values() == solution
    puzzle, rules, solution = _cases("killer", 6, 1)[0]
    step = sf.hint(puzzle, rules=rules)
    assert step is not None and step.level in range(1, 7)


def test_hint_with_rules_names_a_wrong_value_by_its_variant_peer() -> None:
    puzzle, rules, solution = _cases("x", 9, 1)[0]
    board = sf.Board.new(puzzle)
    # a wrong value on the main diagonal that only a diagonal given clashes with
    geo = geometry_for(9)
    empty, given = next(
        (e, g)
        for e in range(0, 81, 10)
        for g in range(0, 81, 10)
        if puzzle[e] == "." and puzzle[g] != "."
        and all(puzzle[p] != puzzle[g] for p in geo.peers[e])
    )  # fmt: skip
    wrong = board.set_value(empty, solution[given])
    step = sf.hint(wrong, rules=rules)
    assert step is not None and step.technique == "wrong value"
    assert f"r{given // 9 + 1}c{given % 9 + 1}" in step.explanation


def test_candidates_with_rules() -> None:
    rules = Rules.named("anti-knight", "non-consecutive")
    marks = sf.candidates("5" + "." * 80, rules=rules)
    assert marks[1] == {1, 2, 3, 7, 8, 9}  # r1c2: not 5 (row), not 4 or 6 (neighbour)
    assert 5 not in marks[11] and 4 in marks[11]  # r2c3: a knight's move away
    geo = rules_geometry(geometry_for(9), rules)
    assert isinstance(geo, RulesGeometry)
    assert candidate_masks(_values("5" + "." * 80), geo)[9] == 0b111000111  # r2c1


def test_unit_names_follow_the_rules() -> None:
    geo = rules_geometry(geometry_for(9), Rules.named("x", "windoku", "disjoint"))
    names = geo.unit_names
    assert names[:2] == ("row 1", "row 2") and names[18] == "box 1"
    assert names[27:29] == ("diagonal 1", "diagonal 2")
    assert names[29:33] == tuple(f"window {i}" for i in range(1, 5))
    assert names[33:] == tuple(f"disjoint group {i}" for i in range(1, 10))
    assert len(names) == len(geo.units)


def test_killer_and_thermometer_techniques() -> None:
    """Cage combinations and thermometer bounds carry deductions, each sound (checked
    step by step), and killer puzzles are solved by logic to the end."""
    used: set[str] = set()
    logic_only = 0
    for kind in ("killer", "thermo"):
        for puzzle, rules, solution in _cases(kind, 9, 4):
            steps = _check_path(puzzle, rules, solution)
            used |= {step.technique for step in steps}
            logic_only += kind == "killer" and all(step.technique != "guess" for step in steps)
    assert {"cage combination", "thermometer"} <= used
    assert logic_only >= 1


def test_45_rule() -> None:
    """Four cages wholly inside row 1 leave r1c9: the 45 rule gives its value; with two
    cells left, the digits that cannot make their sum go."""
    solution = _values(sf.solve("." * 81) or "")
    row = solution[:9]
    cages = tuple(sf.Cage((c, c + 1), row[c] + row[c + 1]) for c in (0, 2, 4, 6))
    geo = rules_geometry(geometry_for(9), Rules(cages=cages))
    step = _logic_py.find_45_rule(_logic_py.LogicSolver([0] * 81, geo))
    assert step is not None and step.placements == ((8, row[8]),)
    hint = make_hint(geo, step.technique, step.cells, step.digits, step.placements, (), step.aux)
    assert hint.explanation == (
        f"row 1 adds up to 45; without its cages wholly inside, r1c9 add up to {row[8]}, "
        f"so r1c9 is {row[8]}"
    )
    assert hint.level == 3
    geo = rules_geometry(geometry_for(9), Rules(cages=cages[:3]))
    solver = _logic_py.LogicSolver([0] * 81, geo)
    step = _logic_py.find_45_rule(solver)
    total = row[6] + row[7] + row[8]
    assert step is not None and step.cells == (6, 7, 8) and step.aux[1] == total
    for _, digit in step.eliminations:  # no two other digits make the sum with it
        assert not any(
            a != b != digit != a and a + b + digit == total
            for a in range(1, 10)
            for b in range(1, 10)
        )
    for cell in (6, 7, 8):
        assert solution[cell] not in {d for c, d in step.eliminations if c == cell}


def test_rate_and_hint_killer() -> None:
    puzzle, rules, solution = _cases("killer", 9, 1, seed=2)[0]
    rating = sf.rate(puzzle, rules=rules)
    assert "cage combination" in rating.counts and 1 <= rating.level <= 6
    assert rating.score is None
    step = sf.hint(puzzle, rules=rules)
    assert step is not None and step.level in range(1, 7)
    for cell, digit in step.placements:
        assert solution[cell] == digit
    for cell, digit in step.eliminations:
        assert solution[cell] != digit
    assert step.explanation


def test_cage_sums_by_hand() -> None:
    """A 2-cell cage of 3 holds 1 and 2; of 17, 8 and 9: a hand-checked case."""
    rules = Rules(cages=(sf.Cage((0, 1), 3), sf.Cage((9, 10), 17)))
    geo = rules_geometry(geometry_for(9), rules)
    solver = _logic_py.LogicSolver([0] * 81, geo)
    step = _logic_py.find_cage_combination(solver)
    assert step is not None and step.cells == (0, 1) and step.digits == (1, 2)
    assert {d for _, d in step.eliminations} == set(range(3, 10))
    hint = make_hint(geo, step.technique, step.cells, step.digits, (), step.eliminations, step.aux)
    assert hint.explanation.startswith("the cage r1c1, r1c2 adds up to 3: only 1/2 fit")
    assert hint.level == 2


@pytest.mark.parametrize(("names", "seed"), [("x", 1), ("jigsaw", 2), ("killer", 3)])
def test_generated_9x9_variant_puzzles_step_by_step(names: str, seed: int) -> None:
    """9x9 puzzles made by `generate(rules=...)`: the SAT oracle says they are unique and
    gives the solution; every step of the technique solver agrees with it, and `rate`
    gives a level of the classic ladder. (Published puzzles are rated by
    bench/variant_rating.py, which reads them from a folder outside the repository.)"""
    pytest.importorskip("pysat")
    puzzle, rules = sf.generate(size=9, seed=seed, rules=names)
    count, found = oracle.count_solutions(puzzle, rules.to_json(), 2)
    assert count == 1
    _check_path(puzzle, rules, _values(found[0]))
    rating = sf.rate(puzzle, rules=rules)
    assert 1 <= rating.level <= 5


def _fits_by_brute_force(options: list[int], total: int) -> tuple[list[int], list[int]]:
    """Every filling of the cells with different digits of their candidates adding up to
    `total`: each cell's digits in some filling, and the fillings' digit sets."""
    choices = [[d for d in range(1, 17) if option >> (d - 1) & 1] for option in options]
    allowed = [0] * len(options)
    combos = set()
    for filling in itertools.product(*choices):
        if len(set(filling)) == len(filling) and sum(filling) == total:
            combos.add(sum(1 << (d - 1) for d in filling))
            for i, d in enumerate(filling):
                allowed[i] |= 1 << (d - 1)
    return allowed, sorted(combos)


@pytest.mark.parametrize("top", [6, 9, 16])
def test_cage_sums_against_brute_force(top: int) -> None:
    """The cage-combination table (and, past its size limit, the layered walk) give
    exactly what trying every filling gives, for random candidates and sums."""
    rng = random.Random(f"cage-sums-{top}")
    for _ in range(300):
        count = rng.randint(1, 5 if top <= 9 else 4)
        options = [rng.getrandbits(top) | (1 << rng.randrange(top)) for _ in range(count)]
        total = rng.randint(count, top * count)
        if rng.random() < 0.5:  # a sum some filling makes
            total = sum(rng.sample(range(1, top + 1), count))
        want = _fits_by_brute_force(options, total)
        allowed, combos = _logic_py._sum_fits(range(count), options, total)
        assert (list(allowed), list(combos)) == want, (options, total)
        assert _logic_py._sum_fits_by_layers(options, total) == want, (options, total)


@pytest.mark.parametrize(("kind", "size"), [("killer", 9), ("non-consecutive", 6), ("x", 9)])
def test_positions_kept_up_to_date_match_a_rebuild(kind: str, size: int) -> None:
    """The places of each digit in each unit, updated as candidates go, equal the places
    read afresh from the candidates after every step (placements, eliminations, the
    non-consecutive neighbours' digits)."""
    for puzzle, rules, solution in _cases(kind, size, 2):
        geo = rules_geometry(geometry_for(size), rules)
        solver = _logic_py.LogicSolver(_values(puzzle), geo)
        solver.positions()
        while not solver.solved:
            step = solver.next_step() or _logic_py.reveal(solver, solution)
            solver.apply(step)
            fresh = [
                [
                    sum(1 << i for i, c in enumerate(unit) if solver.cand[c] >> d & 1)
                    for d in range(size)
                ]
                for unit in geo.units
            ]
            assert solver.positions() == fresh
