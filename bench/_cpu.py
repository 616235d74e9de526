"""CPU time used while writing. Other processes share the cores, so rates vary between runs; CPU
per append does not."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from bench._support import POSTGRES_PORT, connect
from common.parsing import ascii_int

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds used while writing: by the app server (None without one), by this
    database's PostgreSQL backends, and by this process (the load generator)."""

    app: float | None
    postgres: float
    client: float

    @property
    def total(self) -> float:
        return (self.app or 0.0) + self.postgres + self.client

    def per(self, count: int) -> str:
        """Milliseconds per operation, in total and by part."""
        parts = [] if self.app is None else [f"app server {self.app / count * 1000:.2f}"]
        parts += [
            f"PostgreSQL {self.postgres / count * 1000:.2f}",
            f"load generator {self.client / count * 1000:.2f}",
        ]
        return f"{self.total / count * 1000:.2f} ms ({', '.join(parts)})"


def process_stat(pid: int) -> tuple[int, float] | None:
    """A process's group and the CPU seconds it used (user + system), from /proc (Linux)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # from field 3 (state) on
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_group_cpu(group: int) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        pid = ascii_int(entry.name)
        if pid is not None:
            stat = process_stat(pid)
            if stat is not None and stat[0] == group:
                total += stat[1]
    return total


class CpuMeter:
    """Measures CpuUse between `start` and `stop`. PostgreSQL backends are those connected to
    `database` (a backend that connects meanwhile counts from its start; keep connections open
    until after `stop`); the app server is its server's process group, when there is one."""

    def __init__(
        self, database: str, app_group: int | None = None, *, port: int = POSTGRES_PORT
    ) -> None:
        self.database = database
        self.app_group = app_group
        self.port = port
        self.backends: dict[int, float] = {}
        self.app = 0.0
        self.client = 0.0

    def backend_cpu(self) -> dict[int, float]:
        with connect(self.database, autocommit=True, port=self.port) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'",
                [self.database],
            ).fetchall()
        used = {}
        for (pid,) in rows:
            stat = process_stat(pid)
            if stat is not None:
                used[pid] = stat[1]
        return used

    def start(self) -> None:
        self.backends = self.backend_cpu()
        self.app = 0.0 if self.app_group is None else process_group_cpu(self.app_group)
        self.client = time.process_time()

    def stop(self) -> CpuUse:
        client = time.process_time() - self.client
        app = None if self.app_group is None else process_group_cpu(self.app_group) - self.app
        postgres = sum(
            used - self.backends.get(pid, 0.0) for pid, used in self.backend_cpu().items()
        )
        return CpuUse(app, postgres, client)
