"""`sudoku-fast completion`: a bash script that completes commands, options and choices."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def complete(script: str, *words: str) -> list[str]:
    """What the script offers for the last of `words` (the word being typed)."""
    line = " ".join(f"'{w}'" for w in ("sudoku-fast", *words))
    code = (
        f"source /dev/stdin <<'EOF'\n{script}\nEOF\n"
        f"COMP_WORDS=({line}); COMP_CWORD={len(words)}; _sudoku_fast; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    out = subprocess.run(["bash", "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


@needs_bash
def test_bash_completion_from_the_parser() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "completion", "bash"],
        capture_output=True,
        text=True,
        check=True,
    )
    script = proc.stdout
    assert "complete -o filenames -F _sudoku_fast sudoku-fast" in script
    assert complete(script, "de") == ["dedup"]
    assert set(complete(script, "")) >= {"solve", "rate", "augment", "canonical", "completion"}
    assert complete(script, "solve", "--on-error", "") == ["mark", "skip", "fail"]
    assert complete(script, "rate", "--format", "j") == ["jsonl"]
    assert "--copies" in complete(script, "augment", "--")
    zsh = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "completion", "zsh"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert zsh.startswith("autoload -U +X bashcompinit")
