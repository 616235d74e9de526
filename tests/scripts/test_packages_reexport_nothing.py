"""Package `__init__` files hold a docstring and nothing else (decision 0034, issue 28).

Callers import the module that defines a name, so a package never re-exports one. A module that
does its work by being imported (admin pages, the Celery app) is named in an AppConfig.ready().
Django's models package and the migrations packages are the exceptions: Django looks for the
models there, and the migrations are generated.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments", "accounts", "common", "config")
EXCEPTIONS = {Path("tournaments/models/__init__.py")}


def package_inits() -> list[Path]:
    return sorted(
        init.relative_to(ROOT)
        for app in APPS
        for init in (ROOT / app).rglob("__init__.py")
        if "migrations" not in init.relative_to(ROOT).parts
        and init.relative_to(ROOT) not in EXCEPTIONS
    )


def is_allowed(statement: ast.stmt, index: int) -> bool:
    if index == 0 and isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)
    return (
        isinstance(statement, ast.ImportFrom)
        and statement.module == "__future__"
        and [alias.name for alias in statement.names] == ["annotations"]
    )


def test_the_packages_are_found() -> None:
    inits = package_inits()

    assert Path("games/rules/__init__.py") in inits
    assert Path("tournaments/formats/__init__.py") in inits
    assert Path("config/__init__.py") in inits
    assert not [init for init in inits if "migrations" in init.parts]


@pytest.mark.parametrize("init", package_inits(), ids=str)
def test_a_package_init_holds_its_docstring_only(init: Path) -> None:
    tree = ast.parse((ROOT / init).read_text(encoding="utf-8"))

    extra = [
        ast.unparse(statement).splitlines()[0]
        for index, statement in enumerate(tree.body)
        if not is_allowed(statement, index)
    ]

    assert extra == [], f"{init} should import and define nothing; import the defining module"
