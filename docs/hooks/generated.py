"""MkDocs hook: the pages' generated parts, built from the code at build time.

A page holds a marker comment where a generated part goes; this hook replaces it with
Markdown made from the package itself, so the docs cannot drift from the code:

- `<!-- cli-reference -->`: every command of `sudoku-fast`, from the argparse parsers
  (`sudoku_fast.cli.build_parser`): usage, description, every option and the exit
  statuses.
- `<!-- levels-table -->`: the technique ladder of `rate` and `hint` by level.
- `<!-- se-ladder -->`: the Sudoku Explainer techniques with their base difficulties.
- `<!-- score-levels -->`: which SE scores `score_level` maps to which level.
- `<!-- hint-picture -->`: a board with a hint, drawn by `sudoku_fast.render` itself.

A marker that names no known part stops a `--strict` build.
"""

from __future__ import annotations

import argparse
import html
import re
from collections.abc import Callable
from typing import Any

MARKER = re.compile(r"<!-- (cli-reference|levels-table|se-ladder|score-levels|hint-picture) -->")


def _cell(text: str) -> str:
    """Text made safe for one cell of a Markdown table."""
    return html.escape(" ".join(text.split()), quote=False).replace("|", "\\|")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    formatter = parser._get_formatter()
    rows = ["| argument | what it does | default |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)):
            continue  # the commands have sections of their own; every command takes -h
        if action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            metavar = (
                formatter._format_args(action, action.dest.upper()) if action.nargs != 0 else ""
            )
            name = ", ".join(
                f"`{o}{' ' + metavar if metavar else ''}`" for o in action.option_strings
            )
        else:
            name = f"`{formatter._format_args(action, action.dest)}`"
        helptext = formatter._expand_help(action) if action.help else ""
        default = action.default
        shown = (
            ""
            if default in (None, False, argparse.SUPPRESS) or action.nargs == 0
            else f"`{default}`"
        )
        if action.choices and not isinstance(action.choices, dict):
            helptext += " (one of: " + ", ".join(str(c) for c in action.choices) + ")"
        rows.append(f"| {name} | {_cell(helptext)} | {shown} |")
    return rows


def _usage(parser: argparse.ArgumentParser) -> str:
    usage = parser.format_usage().strip()
    return usage.removeprefix("usage: ")


def _epilog(parser: argparse.ArgumentParser) -> list[str]:
    """The exit-status part of a help text, as a table."""
    lines = (parser.epilog or "").splitlines()
    rows = ["| status | meaning |", "|---|---|"]
    tail = []
    for line in lines[1:]:
        match = re.fullmatch(r"  (\d+) +(.*)", line)
        if match:
            rows.append(f"| {match[1]} | {_cell(match[2])} |")
        elif line.strip():
            tail.append(line.strip())
    return [*rows, "", *tail] if len(rows) > 2 else []


def _command(title: str, parser: argparse.ArgumentParser) -> list[str]:
    out = [f"### `{title}`", ""]
    if parser.description:
        out += [_cell(parser.description).replace("\\|", "|"), ""]
    out += ["```text", _usage(parser), "```", ""]
    out += [*_options_table(parser), ""]
    epilog = _epilog(parser)
    if epilog:
        out += ["Exit status:", "", *epilog, ""]
    return out


def cli_reference() -> str:
    """Every command of the command line, from its argparse parser."""
    from sudoku_fast.cli import build_parser

    parser = build_parser()
    parser.prog = "sudoku-fast"
    out = _command("sudoku-fast", parser)
    for name, sub in _subparsers(parser).items():
        out += _command(f"sudoku-fast {name}", sub)
    return "\n".join(out)


def levels_table() -> str:
    """The levels of `rate`, each with the techniques of the ladder at that level."""
    from sudoku_fast._base.levels import LADDER, LEVEL_NAMES

    rows = ["| level | name | techniques at this level (easiest first) |", "|---|---|---|"]
    for level, name in sorted(LEVEL_NAMES.items()):
        names = [technique for technique, at in LADDER if at == level]
        if level == max(LEVEL_NAMES):
            names = ["guessing: not even one step of trial and error helps"]
        rows.append(f"| {level} | {name} | {_cell(', '.join(names))} |")
    return "\n".join(rows)


def se_ladder() -> str:
    """The Sudoku Explainer ladder: each technique with its base difficulty."""
    from sudoku_fast._base.se_scale import BASE, TECHNIQUES

    rows = ["| technique | base difficulty (SE scale) |", "|---|---|"]
    for name, tenths in zip(TECHNIQUES, BASE, strict=True):
        rows.append(f"| {name} | {tenths / 10:.1f} |")
    return "\n".join(rows)


def score_levels() -> str:
    """The bands of the SE scale that `score_level` maps to each level."""
    from sudoku_fast._base.levels import LEVEL_NAMES
    from sudoku_fast._base.se_scale import SCORE_LEVEL_STARTS

    starts = [0, *SCORE_LEVEL_STARTS]
    rows = ["| SE score | level | generate(difficulty=...) aims at |", "|---|---|---|"]
    for k, start in enumerate(starts):
        level = k + 1
        if k == 0:
            band = f"up to {(starts[1] - 1) / 10:.1f}"
        elif k + 1 < len(starts):
            band = f"{start / 10:.1f} to {(starts[k + 1] - 1) / 10:.1f}"
        else:
            band = f"{start / 10:.1f} and up"
        aimed = "the band" if level <= 5 else "not generated by level (too rare)"
        rows.append(f"| {band} | {level} {LEVEL_NAMES[level]} | {aimed} |")
    return "\n".join(rows)


def hint_picture() -> str:
    """A puzzle with its next hint highlighted, as the package draws it (inline SVG)."""
    import sudoku_fast as sf

    p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    board = sf.Board.new(p)
    step = sf.hint(board)
    svg = sf.render(board, hint=step, pencil="auto", caption=f"Next: {step.technique}")
    return f'<div class="sf-picture" style="max-width: 28rem">{svg}</div>'


PARTS: dict[str, Callable[[], str]] = {
    "hint-picture": hint_picture,
    "score-levels": score_levels,
    "cli-reference": cli_reference,
    "levels-table": levels_table,
    "se-ladder": se_ladder,
}


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replace every marker of a page by its generated part."""
    return MARKER.sub(lambda m: PARTS[m[1]](), markdown)
