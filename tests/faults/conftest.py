"""The fault suite's fixtures: one private PostgreSQL cluster and Redis for the session (with a
migrated template database and two API tokens), and for each test a database of its own made
from the template, the app on it under uvicorn (2 worker processes) and Celery workers on demand
(tests/faults/app.py).

FAULTS_PROFILE=full (`make faults`) runs the experiments at full size; the default is the short
profile of `make test`. Each test appends its figures to bench/out/faults-<profile>.jsonl.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from bench._private_redis import PrivateRedis
from bench._support import OUT_DIR, manage
from tests.faults.app import PROFILE, App, Stack
from tests.faults.stack import (
    Postgres,
    available,
    backends,
    drop_leftover_clusters,
    skip_unless_in_ci,
)

TEMPLATE = "faults_template"


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    reason = available()
    if reason is not None:
        skip_unless_in_ci(reason, os.environ)
    drop_leftover_clusters()
    postgres = Postgres()
    redis_server = PrivateRedis(tmp_path_factory.mktemp("redis") / "redis.log")
    try:
        postgres.create()
        redis_server.start()
        on_stack = backends(postgres, redis_server)
        postgres.create_database(TEMPLATE)
        manage("migrate", "--noinput", database=TEMPLATE, backends=on_stack)
        scorer = manage("issue_token", "scorer", database=TEMPLATE, backends=on_stack)
        organizer = manage(
            "issue_token",
            "organizer",
            "--role",
            "organizer",
            "--club",
            "circolo",
            database=TEMPLATE,
            backends=on_stack,
        )
        yield Stack(postgres, redis_server, on_stack, scorer.strip(), organizer.strip())
    finally:
        redis_server.stop()
        postgres.drop()


@pytest.fixture
def app(stack: Stack, tmp_path: Path) -> Iterator[App]:
    stack.ensure_up()
    database = f"faults_{uuid.uuid4().hex[:12]}"
    stack.postgres.create_database(database, template=TEMPLATE)
    with ExitStack() as exits:
        app = App(stack, database, tmp_path, exits)
        app.serve()
        yield app


@pytest.fixture
def report(request: pytest.FixtureRequest) -> Iterator[dict[str, object]]:
    """Figures of the test, appended as a JSON line to bench/out/faults-<profile>.jsonl."""
    figures: dict[str, object] = {}
    yield figures
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    line = {"test": request.node.name, "profile": PROFILE.name, **figures}
    with (OUT_DIR / f"faults-{PROFILE.name}.jsonl").open("a") as out:
        out.write(json.dumps(line, default=str) + "\n")
