"""`sudoku-fast completion bash|zsh`: a shell completion script, made from the parser itself.

The script knows every command, its options and the choices of the options that have
them (`--format`, `--on-error`, ...), so it never drifts from the command line; files
are completed where an option takes none. Install with, for bash,
`sudoku-fast completion bash > ~/.local/share/bash-completion/completions/sudoku-fast`
(zsh: `eval "$(sudoku-fast completion zsh)"` in ~/.zshrc).
"""

from __future__ import annotations

import argparse
from typing import Any

from . import exits
from .exits import command

__all__ = ["add_parser", "script"]

_SHELLS = ("bash", "zsh")


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "completion",
        [exits.EXIT_OK, exits.EXIT_USAGE],
        {exits.EXIT_OK: "success: the script is printed"},
        help="print a shell completion script (bash, zsh)",
        description=(
            "Print a completion script for SHELL: commands, options and their choices. "
            "bash: sudoku-fast completion bash > "
            "~/.local/share/bash-completion/completions/sudoku-fast; "
            'zsh: eval "$(sudoku-fast completion zsh)" in ~/.zshrc.'
        ),
    )
    parser.add_argument("shell", choices=_SHELLS, help="the shell")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from . import build_parser  # the whole command line, as the user gets it

    print(script(build_parser(), args.shell), end="")
    return exits.EXIT_OK


def _words(parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, list[str]]]:
    """The option strings of a parser, and the choices of those that have some."""
    options: list[str] = []
    choices: dict[str, list[str]] = {}
    for action in parser._actions:  # argparse keeps no public list of them
        for flag in action.option_strings:
            options.append(flag)
            if action.choices is not None:
                choices[flag] = [str(c) for c in action.choices]
    return options, choices


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of `parser` for `shell` ("bash"; "zsh" runs it through
    bashcompinit)."""
    commands: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands.update(action.choices)
    top, _ = _words(parser)
    cases = []
    for name, sub in commands.items():
        options, choices = _words(sub)
        per_option = "".join(
            f'            {flag}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); '
            "return;;\n"
            for flag, values in choices.items()
        )
        cases.append(
            f"        {name})\n"
            f'            case "$prev" in\n{per_option}            esac\n'
            f'            if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '
            f'"{" ".join(options)}" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi\n'
            "            ;;\n"
        )
    body = (
        "# sudoku-fast completion (made by `sudoku-fast completion`)\n"
        "_sudoku_fast() {\n"
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"\n'
        '    local cmd="" i\n'
        "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        '        case "${COMP_WORDS[i]}" in -*) ;; *) cmd="${COMP_WORDS[i]}"; break;; esac\n'
        "    done\n"
        '    case "$cmd" in\n'
        '        "") COMPREPLY=($(compgen -W '
        f'"{" ".join([*commands, *top])}" -- "$cur"));;\n' + "".join(cases) + "    esac\n"
        "}\n"
        "complete -o filenames -F _sudoku_fast sudoku-fast\n"
    )
    if shell == "zsh":
        body = "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body
