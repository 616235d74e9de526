"""The app under gunicorn for the benchmarks (and the fault suite): on a free loopback port, in
a process group of its own, stopped with its workers whatever happens."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench._support import (
    BENCH,
    LOOPBACK,
    ROOT,
    VENV_BIN,
    Backends,
    BenchError,
    django_environment,
    say,
)


@dataclass(frozen=True)
class ServerOptions:
    workers: int
    worker_class: str
    threads: int
    app: str = "config.wsgi:application"
    server: str = "gunicorn"
    """`gunicorn` (the WSGI `app`, `worker_class`) or `uvicorn` (the ASGI `app`, as `make run`)."""

    def describe(self) -> str:
        if self.server == "uvicorn":
            return f"uvicorn {self.app}, {self.workers} workers (as make run and the image)"
        shape = f"{self.workers} workers"
        if self.worker_class == "gthread":
            shape += f" x {self.threads} threads"
        return f"gunicorn {self.app}, {self.worker_class}, {shape}"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Server:
    port: int
    process_group: int
    """The master's pid, which is also the process group of the master and its workers."""


@contextmanager
def gunicorn(
    options: ServerOptions,
    *,
    database: str,
    log_path: Path,
    wake_ups: bool = True,
    backends: Backends = BENCH,
    startup_seconds: float = 60,
) -> Iterator[Server]:
    """Serve the app on a free loopback port. Always stops the server and its workers."""
    port = free_port()
    command = [
        str(VENV_BIN / "gunicorn"),
        options.app,
        f"--bind={LOOPBACK}:{port}",
        f"--workers={options.workers}",
        f"--worker-class={options.worker_class}",
        f"--threads={options.threads}",
        "--timeout=60",
        "--graceful-timeout=10",
        "--keep-alive=30",
        "--log-level=warning",
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        # A session of its own: the server and its workers form one process group, stopped
        # together at the end even if the master died first.
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=django_environment(database, wake_ups=wake_ups, backends=backends),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_healthy(server, port, log_path, startup_seconds)
        yield Server(port, server.pid)
    finally:
        stop_process_group(server)


def serve(
    options: ServerOptions, *, database: str, log_path: Path, wake_ups: bool = True
) -> AbstractContextManager[Server]:
    """The server `options` name, serving on a free loopback port."""
    if options.server == "uvicorn":
        return uvicorn(
            app=options.app,
            workers=options.workers,
            database=database,
            log_path=log_path,
            wake_ups=wake_ups,
        )
    return gunicorn(options, database=database, log_path=log_path, wake_ups=wake_ups)


@contextmanager
def uvicorn(
    *,
    app: str = "config.asgi:application",
    workers: int,
    database: str,
    log_path: Path,
    settings: dict[str, str] | None = None,
    wake_ups: bool = True,
    backends: Backends = BENCH,
    startup_seconds: float = 90,
) -> Iterator[Server]:
    """Serve the ASGI app as `make run` and the image do (config/asgi.py under uvicorn, a
    database pool per process) on a free loopback port; always stopped with its workers."""
    port = free_port()
    command = [
        str(VENV_BIN / "python"),
        "-m",
        "config.serve",
        f"--app={app}",
        f"--host={LOOPBACK}",
        f"--port={port}",
        f"--workers={workers}",
        "--no-access-log",
        "--log-level=warning",
        "--timeout-graceful-shutdown=5",
    ]
    environment = {
        **django_environment(database, wake_ups=wake_ups, backends=backends),
        "DATABASE_POOL_SIZE": "8",
        **(settings or {}),
    }
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_healthy(server, port, log_path, startup_seconds)
        yield Server(port, server.pid)
    finally:
        stop_process_group(server)


def wait_until_healthy(
    server: subprocess.Popen[bytes], port: int, log_path: Path, timeout: float
) -> None:
    """Wait for /healthz to say the database answers (Redis is needed only for wake-ups)."""
    deadline = time.monotonic() + timeout
    last_problem = "no answer yet"
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BenchError(
                f"gunicorn exited with status {server.returncode} before serving; its log "
                f"({log_path}) says:\n{tail(log_path)}"
            )
        try:
            status, body = http_get(port, "/healthz")
        except OSError as error:
            last_problem = str(error)
        else:
            checks = body.get("checks", {}) if isinstance(body, dict) else {}
            if status == 200 or checks.get("database") == "ok":
                if status != 200:
                    say(f"note: /healthz answered {status} ({checks}); the bench needs only the DB")
                return
            last_problem = f"/healthz answered {status}: {body}"
        time.sleep(0.2)
    raise BenchError(
        f"the app did not become healthy within {timeout:.0f} s ({last_problem}); gunicorn log "
        f"({log_path}) says:\n{tail(log_path)}"
    )


def http_get(port: int, path: str) -> tuple[int, object]:
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw[:200].decode(errors="replace")


def stop_process_group(process: subprocess.Popen[bytes], grace_seconds: float = 15) -> None:
    """SIGTERM to the process this run started (a group leader), then SIGKILL to its group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace_seconds)
        except subprocess.TimeoutExpired:
            say(f"process {process.pid} ignored SIGTERM for {grace_seconds:.0f} s: killing it")
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=grace_seconds)


def tail(path: Path, lines: int = 15) -> str:
    """The distinct error lines of a log (the cause is often far above its end), then its end."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as error:
        return f"(cannot read it: {error})"
    errors = [line for line in text if not line[:1].isspace() and "Error" in line.split(":")[0]]
    causes = list(dict.fromkeys(errors))[:5]
    return "\n".join([*causes, "...", *text[-lines:]] if causes else text[-lines:]) or "(empty)"
