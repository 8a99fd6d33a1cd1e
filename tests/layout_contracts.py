"""An import-linter contract type the built-in ones lack: private names stay in their room.

`lint-imports` (configured in pyproject.toml) loads it as `private_names`. A room is a
module or subpackage directly below the root package (`sudoku_fast._engine`,
`sudoku_fast.cli`, `sudoku_fast.rating`, ...). A name with a leading underscore (not a
dunder) may be imported only by modules of its own room: `from ..rating import _x` in
`generator.py` breaks the contract, `from .options import _limit` inside `cli/` keeps
it. The built-in `private_modules` contract covers whole modules (`_engine._core`);
this one covers the names inside modules. The names are read from each import
statement's own source (an import may span several lines).
"""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

import grimp
from importlinter import Contract, ContractCheck, fields, output


@cache
def _imports_at(path: str) -> dict[int, list[str]]:
    """The names of each `from ... import` statement of a file, by its first line."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    return {
        node.lineno: [alias.name for alias in node.names]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }


def _source_of(module: str, root_folder: Path) -> Path | None:
    """The .py file of a module of the root package, found without importing anything."""
    parts = module.split(".")[1:]
    for candidate in (
        root_folder.joinpath(*parts).with_suffix(".py"),
        root_folder.joinpath(*parts, "__init__.py"),
    ):
        if candidate.is_file():
            return candidate
    return None


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


class PrivateNamesContract(Contract):
    """No import of a private name from another room of `root`."""

    type_name = "private_names"
    root = fields.StringField()

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        root = str(self.root)
        depth = root.count(".") + 1
        spec = importlib.util.find_spec(root)  # a top-level package: found, not run
        assert spec is not None and spec.origin is not None, root
        root_folder = Path(spec.origin).parent
        broken: list[str] = []
        for importer in sorted(graph.modules):
            if not importer.startswith(root + "."):
                continue
            source = _source_of(importer, root_folder)
            if source is None:
                continue
            room = importer.split(".")[depth]
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if not imported.startswith(root + ".") or imported.split(".")[depth] == room:
                    continue
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    names = _imports_at(str(source)).get(detail["line_number"], [])
                    private = [name for name in names if _private(name)]
                    if private:
                        broken.append(
                            f"{importer} -> {imported} (l.{detail['line_number']}): "
                            + ", ".join(private)
                        )
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(f"- {line}", bold=False)
            output.new_line()
