"""README.md as a user reads it: every Python example runs, and the install text is true.

Each ```python block runs on its own, in a fresh namespace, as a user pasting it would
run it. The README is read from the checkout, or from beside the tests when they were
copied out to test a wheel (see [tool.cibuildwheel] test-sources).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
README = next(p for p in (HERE.parent / "README.md", HERE / "README.md") if p.exists())
CHANGELOG = README.parent / "CHANGELOG.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks() -> list[tuple[int, str]]:
    """(line number, code) of every ```python block of the README."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m[1]) for m in BLOCK.finditer(text)]


def test_the_readme_has_python_examples() -> None:
    assert len(python_blocks()) >= 3


def test_the_readme_is_short() -> None:
    """The README is a front page (at most 200 lines); the docs site holds the rest."""
    assert README.read_text(encoding="utf-8").count("\n") <= 200


@pytest.mark.parametrize(
    ("line", "code"), [pytest.param(line, code, id=f"line{line}") for line, code in python_blocks()]
)
def test_readme_python_block_runs(
    line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # files a block saves land here
    exec(compile(code, f"README.md, block at line {line}", "exec"), {"__name__": "__readme__"})


def section(title: str) -> str:
    """The text of one `## ` section of the README."""
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_install_instructions_match_the_release_state() -> None:
    """While the version is unreleased, the README may not send users to PyPI."""
    top = CHANGELOG.read_text(encoding="utf-8").split("\n## ", 1)[1].splitlines()[0]
    installing = section("Installing")
    if "unreleased" in top:
        assert "pip install ." in installing
        assert "python -m build --sdist" in installing
        assert "not released yet" in installing
        assert "are published" not in installing
    else:
        assert "not released yet" not in installing
