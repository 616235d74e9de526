"""The package metadata that `make install` builds from."""

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_licence_is_an_spdx_expression_so_setuptools_does_not_warn_about_a_table() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]

    assert project["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))
