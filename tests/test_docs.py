"""The documentation site (docs/, mkdocs.yml) as a reader meets it: every Python example
runs, the generated parts cover what they claim, and the facts the pages state hold.

Each ```python block of every page runs on its own, in a fresh namespace and a fresh
working directory, as a reader pasting it would run it (```py blocks are shown, not run:
the one Ray recipe, run by tests/test_dask.py where ray installs). The site itself is
built with warnings as errors by .ci/run (`mkdocs build --strict`). An installed wheel
is tested without docs/, and these tests skip then.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)

pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason="no docs/ beside the tests")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else []


def python_blocks() -> list[tuple[str, int, str]]:
    """(page, line number, code) of every ```python block of the docs."""
    blocks = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(DOCS).as_posix()
        blocks += [(name, text.count("\n", 0, m.start()) + 1, m[1]) for m in BLOCK.finditer(text)]
    return blocks


def test_the_guides_have_examples() -> None:
    with_examples = {page for page, _, _ in python_blocks()}
    for page in ("getting-started.md", "solving.md", "batches.md", "sizes.md", "frames.md"):
        assert page in with_examples, page


@pytest.mark.parametrize(
    ("page", "line", "code"),
    [pytest.param(*block, id=f"{block[0]}:{block[1]}") for block in python_blocks()],
)
def test_docs_python_block_runs(
    page: str, line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # files a block saves land here
    exec(compile(code, f"docs/{page}, block at line {line}", "exec"), {"__name__": "__docs__"})


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in pages():
        name = page.relative_to(DOCS).as_posix()
        if not name.startswith("hooks/"):
            assert f": {name}\n" in nav, f"{name} is not in mkdocs.yml's nav"


def test_the_api_reference_covers_every_public_name() -> None:
    """Each name of `sudoku_fast.__all__` is in the API index's table and in the members
    (or the `:::` line) of some API page, so a reader finds every one of them there."""
    import sudoku_fast

    api = DOCS / "api"
    index = (api / "index.md").read_text(encoding="utf-8")
    listed = " ".join(
        p.read_text(encoding="utf-8") for p in api.glob("*.md") if p.name != "index.md"
    )
    for name in sudoku_fast.__all__:
        assert re.search(rf"`(sudoku_fast\.[a-z_.]+\.)?{name}`", index), (
            f"{name} not in docs/api/index.md"
        )
        assert re.search(
            rf"(^ *- {name}$|^::: sudoku_fast(\.[a-z_]+)*\.{name}$|`sudoku_fast\.{name}`)",
            listed,
            re.M,
        ), f"{name} is on no page of docs/api"


def test_the_readme_links_to_pages_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link


def test_install_text_matches_the_release_state() -> None:
    """Getting started, like the README, sends nobody to PyPI before a release."""
    top = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").split("\n## ", 1)[1]
    installing = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    installing = installing.split("\n## Installing\n", 1)[1].split("\n## ", 1)[0]
    assert ("not released yet" in installing) == ("unreleased" in top.splitlines()[0])


def test_the_node_budget_is_documented_per_size() -> None:
    """Sizes, Budget: the measured cost of the default budget at every size up to 64x64."""
    sizes = (DOCS / "sizes.md").read_text(encoding="utf-8")
    budget = sizes.split("* **Budget.**", 1)[1].split("\n* **", 1)[0]
    for size in (16, 25, 36, 49, 64):
        row = next(line for line in budget.splitlines() if line.strip().startswith(f"| {size}x"))
        assert re.search(r"\d+(\.\d+)? s", row), row


def _hooks() -> ModuleType:
    """docs/hooks/generated.py, the MkDocs hook that writes the generated parts."""
    path = DOCS / "hooks" / "generated.py"
    spec = importlib.util.spec_from_file_location("docs_generated_parts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_names_every_command_and_option() -> None:
    from sudoku_fast.cli import COMMANDS, build_parser

    reference = _hooks().on_page_markdown("<!-- cli-reference -->")
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    assert len(subparsers.choices) == len(COMMANDS)
    for name, sub in [("sudoku-fast", parser), *subparsers.choices.items()]:
        title = name if name == "sudoku-fast" else f"sudoku-fast {name}"
        assert f"### `{title}`" in reference
        section = reference.split(f"### `{title}`", 1)[1].split("\n### ", 1)[0]
        for action in sub._actions:
            if action.option_strings == ["-h", "--help"]:
                continue  # said once for all: every command takes -h
            for option in action.option_strings:
                assert f"`{option}" in section, (name, option)
        assert "Exit status:" in section or name == "show"


def test_the_cli_page_carries_the_reference_marker() -> None:
    assert "<!-- cli-reference -->" in (DOCS / "cli.md").read_text(encoding="utf-8")


def test_the_rating_tables_come_from_the_ladders() -> None:
    from sudoku_fast._base.levels import LADDER, LEVEL_NAMES
    from sudoku_fast._base.se_scale import BASE, TECHNIQUES
    from sudoku_fast.rating import score_level

    hooks = _hooks()
    page = (DOCS / "generating.md").read_text(encoding="utf-8")
    for marker in ("levels-table", "se-ladder", "score-levels"):
        assert f"<!-- {marker} -->" in page
    levels = hooks.levels_table()
    for technique, level in LADDER:
        row = next(line for line in levels.splitlines() if line.startswith(f"| {level} |"))
        assert technique in row and LEVEL_NAMES[level] in row
    ladder = hooks.se_ladder()
    for technique, tenths in zip(TECHNIQUES, BASE, strict=True):
        assert f"| {technique} | {tenths / 10:.1f} |" in ladder
    # Each band of the score table maps to its level, at both ends.
    for line in hooks.score_levels().splitlines()[2:]:
        band, level, *_ = line.strip("| ").split(" | ")
        numbers = [float(x) for x in re.findall(r"\d+\.\d", band)]
        for score in numbers:
            assert score_level(score) == int(level.split()[0]), line


def test_the_render_page_shows_a_picture_the_package_draws() -> None:
    assert "<!-- hint-picture -->" in (DOCS / "render.md").read_text(encoding="utf-8")
    picture = _hooks().hint_picture()
    assert "<svg" in picture and "Next: hidden single" in picture
    assert "\n\n" not in picture  # a blank line would end Markdown's raw HTML block
