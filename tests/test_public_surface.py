"""The public surface, recorded: what a user can name must not change unnoticed.

`tests/data/public_surface.json` records every name in `sudoku_fast.__all__` with its
signature (and, for a class, the signatures of its own public members), the public
names of the documented submodules (`sudoku_fast.dask`, `.lab`, `.datasets`,
`.stats`, `.generator`), every command of the `sudoku-fast` CLI with its options,
help texts and exit statuses, and the environment variables the package reads. The
record is taken from the installed package by `surface()`; a change to the public
surface shows up here as a diff, to be made on purpose:

    python tests/test_public_surface.py --write   # rewrite the record after a deliberate change
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import sudoku_fast

RECORD = Path(__file__).resolve().parent / "data" / "public_surface.json"
DOCUMENTED_SUBMODULES = ("dask", "lab", "datasets", "stats", "generator")
CONSTANT_TYPES = (int, float, str, bytes, tuple, frozenset, dict)


def _signature(obj: Any) -> str | None:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):  # a builtin without one
        return None


def _own_members(cls: type) -> dict[str, str]:
    """The public members a class of the package defines itself (or inherits from one)."""
    members: dict[str, str] = {}
    fields = (
        {field.name: field.type for field in dataclasses.fields(cls)}
        if dataclasses.is_dataclass(cls)
        else {}
    )
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith("sudoku_fast"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_"):
                continue
            if name in fields:
                members[name] = f"field: {fields[name]}"
            elif isinstance(value, property):
                members[name] = "property"
            elif isinstance(value, (staticmethod, classmethod)):
                members[name] = f"{type(value).__name__}{_signature(value.__func__)}"
            elif callable(value):
                members[name] = f"method{_signature(value)}"
            else:
                members[name] = f"attribute: {type(value).__name__}"
    for name, annotation in fields.items():
        members.setdefault(name, f"field: {annotation}")
    return dict(sorted(members.items()))


def _describe(obj: Any) -> Any:
    """What a public name is: a class with its members, a function's signature, a constant."""
    if isinstance(obj, type):
        kind = "enum" if issubclass(obj, enum.Enum) else "class"
        return {"kind": kind, "signature": _signature(obj), "members": _own_members(obj)}
    if callable(obj):
        return {"kind": "function", "signature": _signature(obj)}
    return {"kind": "constant", "type": type(obj).__name__}


def _public_names(module: ModuleType) -> list[str]:
    """A module's public names: its `__all__`, or else every name it defines or states.

    Without `__all__`, a public name is one without a leading underscore that is not a
    module, and either is defined in the module (or a module below it) or is a constant
    (a number, string, tuple, frozenset or dict). Names merely imported for its own use
    (`Any`, `dataclass`) are not its surface.
    """
    names = getattr(module, "__all__", None)
    if names is not None:
        return sorted(names)
    public = []
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, ModuleType) or name == "annotations":
            continue
        defined_in = getattr(value, "__module__", None)
        if isinstance(value, CONSTANT_TYPES) or (
            isinstance(defined_in, str)
            and (defined_in == module.__name__ or defined_in.startswith(module.__name__ + "."))
        ):
            public.append(name)
    return sorted(public)


def _parser_record(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """A parser's options, positionals, help texts and exit table; its subcommands too."""
    record: dict[str, Any] = {
        "description": parser.description,
        "epilog": parser.epilog,
        "arguments": [],
    }
    commands: dict[str, Any] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                commands[name] = {"help": helps.get(name), **_parser_record(sub)}
            continue
        record["arguments"].append(
            {
                "options": list(action.option_strings) or [action.dest],
                "dest": action.dest,
                "action": type(action).__name__,
                "nargs": action.nargs,
                "default": repr(action.default),
                "choices": None if action.choices is None else [str(c) for c in action.choices],
                "required": _required(action),
                "metavar": action.metavar,
                "type": getattr(action.type, "__name__", repr(action.type)),
                "help": action.help,
            }
        )
    if commands:
        record["commands"] = commands
    return record


def _required(action: argparse.Action) -> bool:
    """Whether the argument must be given. A positional taking `*` never must: Python
    3.13's argparse says so (earlier versions set `required` anyway)."""
    if not action.option_strings and action.nargs == "*":
        return False
    return action.required


def _environment_variables() -> list[str]:
    """Every SUDOKU_FAST_* name the package's Python source mentions."""
    root = Path(sudoku_fast.__file__).resolve().parent
    names: set[str] = set()
    for path in root.rglob("*.py"):
        names.update(re.findall(r"\bSUDOKU_FAST_[A-Z0-9_]+\b", path.read_text(encoding="utf-8")))
    return sorted(names)


def surface() -> dict[str, Any]:
    """The public surface of the installed package, as plain data."""
    from sudoku_fast import cli

    top = {name: _describe(getattr(sudoku_fast, name)) for name in sorted(sudoku_fast.__all__)}
    top["__version__"] = {"kind": "constant", "type": "str"}  # its value changes by design
    submodules = {}
    for short in DOCUMENTED_SUBMODULES:
        module = importlib.import_module(f"sudoku_fast.{short}")
        submodules[f"sudoku_fast.{short}"] = {
            name: _describe(getattr(module, name)) for name in _public_names(module)
        }
    return {
        "sudoku_fast.__all__": top,
        "submodules": submodules,
        "cli": _parser_record(cli.build_parser()),
        "environment": _environment_variables(),
    }


def _diff(recorded: Any, current: Any, where: str = "") -> list[str]:
    """Readable differences between two records (paths of what was added, removed, changed)."""
    if isinstance(recorded, dict) and isinstance(current, dict):
        out = []
        for key in sorted(set(recorded) | set(current), key=str):
            path = f"{where}/{key}"
            if key not in current:
                out.append(f"removed: {path}")
            elif key not in recorded:
                out.append(f"added: {path}")
            else:
                out += _diff(recorded[key], current[key], path)
        return out
    if recorded != current:
        return [f"changed: {where}: {recorded!r} -> {current!r}"]
    return []


def test_public_surface_is_as_recorded() -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    current = json.loads(json.dumps(surface()))  # tuples as lists, as in the record
    differences = _diff(recorded, current)
    assert not differences, "the public surface changed:\n" + "\n".join(differences[:50])


def test_documented_names_resolve() -> None:
    """Every recorded name of a documented submodule is there to import."""
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    for module_name, names in recorded["submodules"].items():
        module = importlib.import_module(module_name)
        for name in names:
            assert hasattr(module, name), f"{module_name}.{name}"


def test_the_entry_points_are_the_cli() -> None:
    """`sudoku-fast` runs `sudoku_fast.cli:main`, and `python -m sudoku_fast` the same CLI."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="sudoku-fast")
    assert script.value == "sudoku_fast.cli:main"
    from sudoku_fast import cli

    assert script.load() is cli.main
    ran = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip() == f"sudoku-fast {sudoku_fast.__version__}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    RECORD.write_text(json.dumps(surface(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
