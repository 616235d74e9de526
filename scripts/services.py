"""Bring up PostgreSQL and Redis for `make run` and `make test`.

Order of attempts, for each service:
1. use it at the configured URL when it answers;
2. else start an installed-but-stopped server;
3. else, when running as root with apt-get, install `postgresql redis-server` and start them;
4. else stop with a message that says exactly what to install.
Then create the application's database when it is missing. Idempotent, and silent when all is up.

Tools the project runs besides the services are installed the same way when missing: gettext
(`msgfmt`, to compile the Italian catalogue), Debian's `chromium` (the browser tests drive it
by its path; nothing downloads a browser), and curl (the README's requests, which the suite
runs).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis
from psycopg import sql

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/briscola"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
APT_PACKAGES = ["postgresql", "redis-server"]
TOOLS = {"msgfmt": "gettext", "chromium": "chromium", "curl": "curl"}
"""The command each tool package provides, by package."""
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", ""}


class BringUpError(Exception):
    """A service could not be brought up; the message says what to do."""


def say(message: str) -> None:
    print(f"[services] {message}", file=sys.stderr, flush=True)


def read_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.exists():
        return values
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip().strip("'\"")
    return values


def setting(name: str, default: str) -> str:
    dotenv = read_dotenv(Path(__file__).resolve().parent.parent / ".env")
    return os.environ.get(name) or dotenv.get(name) or default


def maintenance_conninfo(database_url: str) -> tuple[str, str]:
    """The URL of the server's `postgres` database, and the application's database name."""
    parts = urlsplit(database_url)
    database = parts.path.lstrip("/") or "postgres"
    return parts._replace(scheme="postgresql", path="/postgres").geturl(), database


def postgres_answers(conninfo: str) -> str | None:
    try:
        with psycopg.connect(conninfo, connect_timeout=3):
            return None
    except psycopg.OperationalError as exc:
        return str(exc).strip()


def redis_answers(url: str) -> str | None:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return str(exc).strip()
    return None


def wait_until(answers: Callable[[], str | None], seconds: float = 30) -> str | None:
    deadline = time.monotonic() + seconds
    problem = answers()
    while problem is not None and time.monotonic() < deadline:
        time.sleep(0.5)
        problem = answers()
    return problem


def run(command: list[str]) -> None:
    say("$ " + " ".join(command))
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(packages: list[str] = APT_PACKAGES) -> None:
    if not (is_root() and shutil.which("apt-get")):
        raise BringUpError(
            f"{', '.join(packages)} are needed. Install them with:\n"
            f"    sudo apt-get install -y {' '.join(packages)}\n"
            "or point DATABASE_URL and REDIS_URL at running servers."
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    say("installing " + " ".join(packages) + " (apt-get)")
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", *packages],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )


def bring_up_tools() -> None:
    missing = [package for command, package in TOOLS.items() if not shutil.which(command)]
    if missing:
        apt_install(missing)


def postgres_clusters() -> list[str]:
    return sorted(Path(p).parent.name for p in glob.glob("/etc/postgresql/*/main"))


def trust_local_connections(version: str) -> None:
    """A fresh Debian install asks for a password over TCP; the local dev user has none."""
    hba = Path(f"/etc/postgresql/{version}/main/pg_hba.conf")
    rule = "host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n"
    text = hba.read_text()
    if rule not in text:
        say(f"allowing local TCP connections without a password in {hba}")
        hba.write_text("# added by briscola-tournaments scripts/services.py\n" + rule + text)


def start_postgres(*, installed_now: bool) -> None:
    clusters = postgres_clusters()
    if not clusters or not shutil.which("pg_ctlcluster"):
        raise BringUpError("PostgreSQL is installed but no cluster was found in /etc/postgresql.")
    version = clusters[-1]
    if installed_now:
        trust_local_connections(version)
    say(f"starting PostgreSQL {version}")
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    if installed_now:
        subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "reload"],
            check=False,
            stdout=subprocess.DEVNULL,
        )


def start_redis(url: str) -> None:
    port = str(urlsplit(url).port or 6379)
    say(f"starting Redis on port {port}")
    run(
        [
            "redis-server",
            "--daemonize", "yes",
            "--bind", "127.0.0.1",
            "--port", port,
            "--save", "",
            "--appendonly", "no",
        ]
    )  # fmt: skip


def is_local(url: str) -> bool:
    return (urlsplit(url).hostname or "") in LOCAL_HOSTS


def bring_up_postgres(conninfo: str, *, installed_now: bool) -> bool:
    """Make PostgreSQL answer; return True when this call installed packages."""
    if postgres_answers(conninfo) is None:
        return installed_now
    if not is_local(conninfo):
        raise BringUpError(
            f"PostgreSQL at {conninfo} does not answer: {postgres_answers(conninfo)}"
        )
    if not postgres_clusters() and not installed_now:
        apt_install()
        installed_now = True
    start_postgres(installed_now=installed_now)
    problem = wait_until(lambda: postgres_answers(conninfo))
    if problem is not None:
        raise BringUpError(f"PostgreSQL did not come up at {conninfo}: {problem}")
    return installed_now


def bring_up_redis(url: str, *, installed_now: bool) -> bool:
    if redis_answers(url) is None:
        return installed_now
    if not is_local(url):
        raise BringUpError(f"Redis at {url} does not answer: {redis_answers(url)}")
    if not shutil.which("redis-server") and not installed_now:
        apt_install()
        installed_now = True
    start_redis(url)
    problem = wait_until(lambda: redis_answers(url))
    if problem is not None:
        raise BringUpError(f"Redis did not come up at {url}: {problem}")
    return installed_now


def ensure_database(conninfo: str, database: str) -> None:
    with psycopg.connect(conninfo, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [database]
        ).fetchone()
        if not exists:
            say(f"creating database {database}")
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def main(argv: list[str] | None = None) -> int:
    if "--tools-only" in (sys.argv[1:] if argv is None else argv):
        try:
            bring_up_tools()
        except (BringUpError, subprocess.CalledProcessError) as exc:
            say(f"cannot install the tools: {exc}")
            return 1
        return 0
    database_url = setting("DATABASE_URL", DEFAULT_DATABASE_URL)
    redis_url = setting("REDIS_URL", DEFAULT_REDIS_URL)
    conninfo, database = maintenance_conninfo(database_url)
    try:
        bring_up_tools()
        installed = bring_up_postgres(conninfo, installed_now=False)
        bring_up_redis(redis_url, installed_now=installed)
        ensure_database(conninfo, database)
    except (BringUpError, subprocess.CalledProcessError, psycopg.Error) as exc:
        say(f"cannot bring up the services: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
