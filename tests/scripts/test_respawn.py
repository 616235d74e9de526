"""`make run` keeps its worker alive: scripts/respawn.sh starts a command again when it dies."""

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

RESPAWN = Path(__file__).resolve().parents[2] / "scripts" / "respawn.sh"


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_command_that_dies_is_started_again_until_respawn_is_stopped(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    process = subprocess.Popen(
        [str(RESPAWN), "sh", "-c", f"echo started >> {starts}; exit 3"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: starts.exists() and len(starts.read_text().splitlines()) >= 2)
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=10)

    assert process.returncode == 0
    assert "exited with status 3; starting it again" in stderr


def test_ctrl_c_stops_respawn_and_its_command_at_once_and_starts_nothing_again(
    tmp_path: Path,
) -> None:
    starts = tmp_path / "starts"
    # A command that stops cleanly when interrupted, as Celery's warm shutdown does.
    command = f'echo started >> {starts}; trap "exit 0" INT TERM; while true; do sleep 0.1; done'
    process = subprocess.Popen(
        [str(RESPAWN), "sh", "-c", command],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_until(starts.exists)
        os.killpg(process.pid, signal.SIGINT)  # the terminal's Ctrl-C: the whole group
        _, stderr = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)

    assert process.returncode == 0
    assert starts.read_text().splitlines() == ["started"]
    assert "starting it again" not in stderr
