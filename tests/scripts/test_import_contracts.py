"""The allow-list contract of the pure packages (scripts/import_contracts.py): whatever is not
the standard library, the package itself or allowed breaks it."""

from __future__ import annotations

from typing import Any

import grimp
import pytest

from scripts.import_contracts import AllowedImportsContract


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("tournaments", "common", include_external_packages=True)


def contract(**options: Any) -> AllowedImportsContract:
    return AllowedImportsContract(name="pure", session_options={}, contract_options=options)


def test_an_import_neither_of_the_standard_library_nor_allowed_breaks_the_contract(
    graph: grimp.ImportGraph,
) -> None:
    check = contract(source_modules=["tournaments.ratings.maths"]).check(graph, False)

    assert check.kept is False
    assert {imported for _, imported, _ in check.metadata["illegal"]} == {"openskill"}


def test_the_allowed_modules_and_the_standard_library_keep_it(graph: grimp.ImportGraph) -> None:
    options = {"source_modules": ["tournaments.ratings.maths"], "allowed_modules": ["openskill"]}

    assert contract(**options).check(graph, False).kept is True
