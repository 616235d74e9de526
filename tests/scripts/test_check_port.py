"""`make run` refuses a busy port before it serves, with a message and a failing exit."""

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK_PORT = ROOT / "scripts" / "check_port.py"


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def check_port(host: str, port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK_PORT), host, str(port)],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_a_port_something_listens_on_fails_the_check_with_what_to_do(busy_port: int) -> None:
    checked = check_port("127.0.0.1", busy_port)

    assert checked.returncode == 1
    assert f"port {busy_port} on 127.0.0.1 is already in use" in checked.stderr
    assert f"make run PORT={busy_port + 1}" in checked.stderr


def test_a_free_port_passes_the_check_silently() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]

    checked = check_port("127.0.0.1", free)

    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "", "")


def test_make_run_on_a_busy_port_fails_with_the_message_before_it_brings_anything_up(
    busy_port: int,
) -> None:
    ran = subprocess.run(
        ["make", "--no-print-directory", "run", "HOST=127.0.0.1", f"PORT={busy_port}"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert ran.returncode != 0
    assert f"port {busy_port} on 127.0.0.1 is already in use" in ran.stderr
    assert "Serving on" not in ran.stdout
    assert "migrate" not in ran.stdout


def test_no_failure_of_the_servers_is_hidden_from_make() -> None:
    assert "|| true" not in (ROOT / "Makefile").read_text()
