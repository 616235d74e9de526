"""The production settings pass Django's deployment checks and refuse to start without a secret
key from the environment."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def manage(*args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        # The test run lifts Django's async guard for the browser tests (tests/conftest.py).
        if key not in {"SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings.prod", **environment)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_production_settings_pass_check_deploy_with_no_warning() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="briscola.example",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_production_settings_refuse_to_start_without_a_secret_key() -> None:
    result = manage("check", ALLOWED_HOSTS="briscola.example")

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
