"""An import-linter contract of what a pure package MAY import (an allow-list), where the
built-in `forbidden` contract lists what it may not (a deny-list misses whatever nobody thought
to list: a pure package could import redis or weasyprint and keep every deny-list).

    [[tool.importlinter.contracts]]
    type = "allowed"
    source_modules = ["games.rules"]
    allowed_modules = ["common.explained"]

Every module of the source packages may import the standard library, the source packages
themselves and the allowed modules (each with its descendants); any other direct import breaks
the contract. `pyproject.toml` registers the type (`contract_types`); `lint-imports` runs from
the checkout, which puts this module on the path.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import grimp
from importlinter import Contract, ContractCheck, fields, output


def within(module: str, packages: Iterable[str]) -> bool:
    """Whether `module` is one of `packages` or inside one of them."""
    return any(module == package or module.startswith(f"{package}.") for package in packages)


def names(modules: Any) -> list[str]:
    """The names of a contract's list of modules (a field: typed as such on the class)."""
    return [module.name for module in modules or []]


def of_the_standard_library(module: str) -> bool:
    return module.split(".", 1)[0] in sys.stdlib_module_names


class AllowedImportsContract(Contract):
    """The source packages import only the standard library, themselves and the allowed
    modules."""

    type_name = "allowed"

    source_modules = fields.ListField(subfield=fields.ModuleField())
    allowed_modules = fields.ListField(subfield=fields.ModuleField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:  # noqa: ARG002 - the interface's
        sources = names(self.source_modules)
        allowed = [*sources, *names(self.allowed_modules)]
        illegal = []
        for source in sources:
            for importer in sorted({source, *graph.find_descendants(source)}):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    if of_the_standard_library(imported) or within(imported, allowed):
                        continue
                    lines = [
                        detail["line_number"]
                        for detail in graph.get_import_details(importer=importer, imported=imported)
                    ]
                    illegal.append((importer, imported, lines))
        return ContractCheck(kept=not illegal, warnings=[], metadata={"illegal": illegal})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported, lines in check.metadata["illegal"]:
            where = ", ".join(str(line) for line in lines)
            output.print_error(f"- {importer} -> {imported} (l.{where}): not allowed", bold=False)
            output.new_line()
