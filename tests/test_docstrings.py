"""The public API's docstrings, as `help()` and the docs site's API reference show them.

Every name in `sudoku_fast.__all__`, and the public functions of the documented
submodules, has a numpydoc docstring: a Parameters section naming every parameter of
its signature, Returns (functions), and Examples; the examples run here as doctests,
so they cannot go stale.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from typing import Any

import pytest

import sudoku_fast as sf

# Public names beyond `sudoku_fast.__all__`, documented on the API pages.
SUBMODULE_NAMES = [
    "sudoku_fast.datasets.load_embedded",
    "sudoku_fast.generator.iter_generate",
    "sudoku_fast.stats.StatsBuilder",
    "sudoku_fast.dask.solve",
    "sudoku_fast.dask.count",
    "sudoku_fast.dask.rate",
    "sudoku_fast.dask.generate",
    "sudoku_fast.lab.solve",
    "sudoku_fast.lab.count",
    "sudoku_fast.lab.run_many",
    "sudoku_fast.lab.verify",
    "sudoku_fast.lab.random_puzzles",
    "sudoku_fast.lab.LabResult",
    "sudoku_fast.lab.Verdict",
]

# Names whose docstring has no Parameters / Returns section, and why.
WITHOUT_SECTIONS = {
    "__version__": "a str constant: it has no docstring of its own, no parameters, no result",
}
# A class documents its constructor's parameters; what it "returns" is itself. These
# have no Parameters section, for the reason given: their Attributes and Examples say
# what a user holds.
NO_CONSTRUCTOR_ARGUMENTS = {
    "StatsBuilder": "takes no arguments",
    "Svg": "made by render from its internal drawing, never by a user",
    "Pages": "made by render_book / render_path from their internal drawings",
    "SolveStep": "made by solve_path; its fields are documented as Attributes",
    "SolvePath": "made by solve_path; its fields are documented as Attributes",
}

# Examples that need an optional world, by the module they import.
NEEDS = {"sudoku_fast.dask": "dask"}


def resolve(dotted: str) -> Any:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


PUBLIC = [(f"sudoku_fast.{name}", name) for name in sf.__all__] + [
    (dotted, dotted.rpartition(".")[2]) for dotted in SUBMODULE_NAMES
]


def section(doc: str, title: str) -> str | None:
    """The body of a numpydoc section of `doc`, or None when it has none."""
    match = re.search(
        rf"^{title}\n-{{{len(title)}}}\n(.*?)(?=^\S[^\n]*\n-{{3,}}\n|\Z)", doc, re.S | re.M
    )
    return match[1] if match else None


def documented_parameters(body: str) -> set[str]:
    """The names of a Parameters section: `name : type` lines and `a, b, c` groups."""
    names: set[str] = set()
    for line in body.splitlines():
        if not line or line.startswith(" "):
            continue
        head = line.split(" : ", 1)[0]
        names.update(part.strip() for part in head.split(","))
    return names


def signature_parameters(obj: Any) -> list[str]:
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return []
    return [
        name
        for name, p in parameters.items()
        if name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


@pytest.mark.parametrize(("dotted", "name"), PUBLIC, ids=[d for d, _ in PUBLIC])
def test_public_name_has_a_numpydoc_docstring(dotted: str, name: str) -> None:
    if name in WITHOUT_SECTIONS:
        assert WITHOUT_SECTIONS[name]
        return
    obj = resolve(dotted) if dotted.count(".") > 1 else getattr(sf, name)
    doc = inspect.getdoc(obj)
    assert doc, f"{dotted} has no docstring"
    parameters = signature_parameters(obj)
    if name in NO_CONSTRUCTOR_ARGUMENTS:
        assert NO_CONSTRUCTOR_ARGUMENTS[name]
    elif parameters:
        body = section(doc, "Parameters")
        assert body is not None, f"{dotted}: no Parameters section"
        missing = set(parameters) - documented_parameters(body)
        assert not missing, f"{dotted}: parameters not documented: {sorted(missing)}"
    if not inspect.isclass(obj):
        assert section(doc, "Returns") is not None, f"{dotted}: no Returns section"
    assert section(doc, "Examples") is not None, f"{dotted}: no Examples section"


def doctests_of(dotted: str, obj: Any) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=inspect.isclass(obj), exclude_empty=True)
    module = inspect.getmodule(obj)
    return finder.find(obj, dotted, module=module)


DOCTESTS = [
    (dotted, test)
    for dotted, name in PUBLIC
    if name not in WITHOUT_SECTIONS
    for test in doctests_of(dotted, resolve(dotted))
] + [
    (module, test)
    for module in ("sudoku_fast", "sudoku_fast.grid", "sudoku_fast.solving", "sudoku_fast.rating")
    for test in doctest.DocTestFinder(recurse=False).find(importlib.import_module(module))
    if test.examples
]


def test_every_public_function_has_examples_that_run_here() -> None:
    with_examples = {dotted for dotted, _ in DOCTESTS}
    for dotted, name in PUBLIC:
        if name not in WITHOUT_SECTIONS and name not in ("canonical_transform", "load_board"):
            # Those two point to the examples of apply_transformation and save_board.
            assert dotted in with_examples, dotted


@pytest.mark.parametrize(("dotted", "test"), DOCTESTS, ids=[t.name for _, t in DOCTESTS])
def test_docstring_examples_run(dotted: str, test: doctest.DocTest) -> None:
    for module, package in NEEDS.items():
        if dotted.startswith(module):
            pytest.importorskip(package)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    failures: list[str] = []

    def report(out: str) -> None:
        failures.append(out)

    runner.run(test, out=report)
    assert runner.failures == 0, "".join(failures)
