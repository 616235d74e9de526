"""`make run` keeps its worker alive: scripts/respawn.sh starts a command again when it dies."""

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
