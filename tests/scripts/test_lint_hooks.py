"""The pre-commit hooks run what `make lint` runs: the same commands, in the same order, all
local (the project's .venv tools, nothing downloaded)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def lint_recipe() -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = lines.index("lint: install") + 1
    recipe = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip().replace("$(BIN)/", ".venv/bin/"))
    return recipe


def test_the_pre_commit_hooks_run_the_lint_targets_commands() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    (repo,) = config["repos"]
    hooks = repo["hooks"]

    assert repo["repo"] == "local"
    assert [hook["entry"] for hook in hooks] == lint_recipe()
    assert {hook["language"] for hook in hooks} == {"system"}
    assert not any(hook.get("pass_filenames", True) for hook in hooks)


def test_the_lint_target_checks_for_missing_migrations() -> None:
    assert ".venv/bin/python manage.py makemigrations --check --dry-run" in lint_recipe()
