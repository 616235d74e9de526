"""A `redis-server` of a run's own, to stop and freeze: the shared Redis is never touched.

Tests and benchmarks that break Redis (issue 10 §2) start one of these on a free loopback port,
point the code under test at its URL, and always stop it (`PrivateRedis.stop` thaws it first).
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import time
from pathlib import Path

import redis

from bench._server import free_port

STARTUP_TIMEOUT = 10.0
STOP_TIMEOUT = 15.0
PR_SET_PDEATHSIG = 1


def die_with_the_tests() -> None:
    """In the server's process, before exec: be killed when the test process dies (Linux)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class PrivateRedis:
    """A `redis-server` of this test's own on a free loopback port, without persistence, to
    stop, freeze (SIGSTOP) and bring back; the shared Redis is never touched."""

    def __init__(self, log_path: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.frozen = False

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=die_with_the_tests,
            )
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the private Redis did not start:\n{self.log()}")
            time.sleep(0.02)

    def answers(self) -> bool:
        client = redis.Redis.from_url(self.url, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """Stop the server (SIGKILL: nothing is saved); connections to it are refused."""
        if self.process is not None:
            self.thaw()
            self.process.kill()
            self.process.wait(timeout=STOP_TIMEOUT)
            self.process = None

    def freeze(self) -> None:
        """SIGSTOP: the kernel still accepts connections, nothing answers on them."""
        if self.process is None:
            raise RuntimeError("the private Redis is not running")
        self.process.send_signal(signal.SIGSTOP)
        self.frozen = True

    def fail(self, fault: str) -> None:
        """Break it the way the tests and the benchmark name it: "stopped" or "frozen"."""
        if fault == "stopped":
            self.stop()
        elif fault == "frozen":
            self.freeze()
        else:
            raise ValueError(f"a Redis fault is 'stopped' or 'frozen', not {fault!r}")

    def recover(self) -> None:
        """Undo `fail`: start a stopped server (empty: nothing persists), thaw a frozen one."""
        if self.process is None:
            self.start()
        else:
            self.thaw()

    def thaw(self) -> None:
        if self.process is not None and self.frozen:
            self.process.send_signal(signal.SIGCONT)
        self.frozen = False
