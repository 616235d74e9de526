"""Issue 12 §3: a tournament exported here and imported on another instance (a second
PostgreSQL database, migrated from scratch, served by other processes) reads the same through
every GET of the API; its log comes back the same, in the same order."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from psycopg import sql

from accounts.models import Club
from tests.tournaments.exports.answers import answers
from tests.tournaments.exports.evening import club_evening, threes_evening
from tests.tournaments.projections.snapshots import changes

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


class Instance:
    """Another instance: its own database, reached by `manage.py` in processes of its own."""

    def __init__(self, database: str) -> None:
        settings = connection.settings_dict
        self.database = database
        password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
        self.server = (
            f"postgres://{settings['USER'] or 'postgres'}{password}@"
            f"{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}"
        )
        self.url = f"{self.server}/{database}"

    def admin(self, statement: sql.Composed) -> None:
        with psycopg.connect(f"{self.server}/postgres", autocommit=True) as conn:
            conn.execute(statement)

    def create(self) -> None:
        name = sql.Identifier(self.database)
        self.admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        self.admin(sql.SQL("CREATE DATABASE {}").format(name))
        self.run("manage.py", "migrate", "--noinput")

    def drop(self) -> None:
        name = sql.Identifier(self.database)
        self.admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = os.environ | {
            "DATABASE_URL": self.url,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            # The test client's host, which pytest-django allows in the test's own process.
            "ALLOWED_HOSTS": "testserver",
        }
        done = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
        return done


@pytest.fixture
def other_instance() -> Iterator[Instance]:
    instance = Instance(f"{connection.settings_dict['NAME']}_import")
    instance.create()
    try:
        yield instance
    finally:
        instance.drop()


def export(tournament_id: UUID) -> str:
    out = io.StringIO()
    call_command("export_tournament", str(tournament_id), "--quiet", stdout=out)
    return out.getvalue()


def positions_as_ranks(archive: str) -> list[dict[str, Any]]:
    """The archive's lines with each event's global position replaced by its rank: positions
    are each instance's own, their order is what must be kept."""
    lines = [json.loads(line) for line in archive.splitlines()]
    events = sorted(
        (line for line in lines if line["kind"] == "event"), key=lambda e: e["global_position"]
    )
    ranks = {id(event): rank for rank, event in enumerate(events)}
    return [
        line | {"global_position": ranks[id(line)]} if line["kind"] == "event" else line
        for line in lines
    ]


def imported_there(
    instance: Instance, tmp_path: Path, tournament_id: UUID, club_slug: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Import `tmp_path/tournament.jsonl` on the other instance, which has the club (its name
    and slug as here): the tournament joins it. The import's run and the file of every GET."""
    club = Club.objects.get(slug=club_slug)
    instance.run(
        "manage.py",
        "shell",
        "-c",
        f"from accounts.services import club_create; club_create(name={club.name!r}, "
        f"slug={club.slug!r})",
    )
    imported = instance.run("manage.py", "import_tournament", str(tmp_path / "tournament.jsonl"))
    out = tmp_path / "answers.json"
    instance.run("-m", "tests.tournaments.exports.answers", str(tournament_id), str(out))
    return imported, out


def test_an_imported_tournament_answers_every_get_as_on_the_instance_it_came_from(
    other_instance: Instance, tmp_path: Path
) -> None:
    tournament_id = club_evening()
    here = answers(tournament_id)
    archive = tmp_path / "tournament.jsonl"
    archive.write_text(export(tournament_id), encoding="utf-8")

    imported, out = imported_there(other_instance, tmp_path, tournament_id, "circolo-export")
    again = tmp_path / "again.jsonl"
    exported = other_instance.run("manage.py", "export_tournament", str(tournament_id), "--quiet")
    again.write_text(exported.stdout, encoding="utf-8")

    assert f"Imported tournament {tournament_id}" in imported.stdout
    assert "club circolo-export" in imported.stdout
    assert "Rebuilt the tournament projections" in imported.stdout
    assert "import" in imported.stderr  # the progress bars
    assert "rebuild" in imported.stderr
    there = json.loads(out.read_text(encoding="utf-8"))
    # Both sides were read by the same code and serialised the same way.
    here = json.loads(json.dumps(here, sort_keys=True, default=str))
    base = f"/api/v1/tournaments/{tournament_id}"
    assert [status for status, _ in here.values()].count(200) > 60
    assert len(here[f"staff {base}/standings/"][1]) == 5
    assert "Carla B." in here[f"anonymous {base}/standings/?format=csv"][1]
    assert "BEGIN:VEVENT" in here[f"anonymous {base}/schedule/"][1]
    assert here.keys() == there.keys()
    assert [f"{key}{change}" for key in here for change in changes(here[key], there[key], "")] == []
    assert positions_as_ranks(again.read_text(encoding="utf-8")) == positions_as_ranks(
        archive.read_text(encoding="utf-8")
    )


def test_a_tournament_at_tables_of_three_comes_back_the_same_on_another_instance(
    other_instance: Instance, tmp_path: Path
) -> None:
    tournament_id = threes_evening()
    here = answers(tournament_id)
    archive = tmp_path / "tournament.jsonl"
    archive.write_text(export(tournament_id), encoding="utf-8")

    _, out = imported_there(other_instance, tmp_path, tournament_id, "circolo-tre")

    there = json.loads(out.read_text(encoding="utf-8"))
    here = json.loads(json.dumps(here, sort_keys=True, default=str))
    base = f"/api/v1/tournaments/{tournament_id}"
    standings = here[f"staff {base}/standings/"][1]
    assert len(standings) == 7
    assert {len(row["placings"]) for row in standings} == {3}
    assert here.keys() == there.keys()
    assert [f"{key}{change}" for key in here for change in changes(here[key], there[key], "")] == []
