"""Every module and package at the top of `tournaments/` has its layer in the import contract
"Layers inside tournaments" (pyproject.toml): a new loose module fails here until it is sorted
into a role and named in a layer (issue 28, decision record 0062)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = "Layers inside tournaments"


def layers_contract() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith(CONTRACT)
    ]
    assert isinstance(contract, dict)
    return contract


def layered_names() -> list[str]:
    """The names in the contract's layers, in the order they appear."""
    layers = layers_contract()["layers"]
    assert isinstance(layers, list)
    return [name.strip().strip("()") for layer in layers for name in re.split(r"[|:]", layer)]


def second_level_names(package: Path = ROOT / "tournaments") -> set[str]:
    """The modules (`*.py` but `__init__.py`) and packages (folders with an `__init__.py`)
    directly inside `package`."""
    modules = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    packages = {p.parent.name for p in package.glob("*/__init__.py")}
    return modules | packages


def test_the_contract_is_about_the_tournaments_package() -> None:
    assert layers_contract()["containers"] == ["tournaments"]


def test_every_module_and_package_of_tournaments_is_in_a_layer() -> None:
    unlayered = second_level_names() - set(layered_names())

    assert unlayered == set(), f"not in a layer of {CONTRACT!r}: {sorted(unlayered)}"


def test_every_name_in_the_layers_is_a_module_or_package_of_tournaments() -> None:
    names = layered_names()

    assert len(names) == len(set(names))
    assert set(names) - second_level_names() == set()


def test_a_new_loose_module_would_be_found_unlayered(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "loose.py").write_text("")
    (tmp_path / "roles").mkdir()
    (tmp_path / "roles" / "__init__.py").write_text("")

    assert second_level_names(tmp_path) - set(layered_names()) == {"loose", "roles"}
