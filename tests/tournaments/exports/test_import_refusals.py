"""`manage.py import_tournament` refuses, with a clear message and nothing written, an archive
that is damaged or whose tournament, streams, entrant or player ids exist on this instance
already."""

from __future__ import annotations

import io
import json
from pathlib import Path
from uuid import uuid4

import pytest
from django.core.management import CommandError, call_command

from games.eventstore.api import last_position
from tests.tournaments.exports.evening import club_evening
from tournaments.models import Entrant, Player, Tournament

pytestmark = pytest.mark.django_db


def exported(tournament_id: object) -> list[str]:
    out = io.StringIO()
    call_command("export_tournament", str(tournament_id), "--quiet", stdout=out)
    return out.getvalue().splitlines(keepends=True)


def import_refusal(path: Path, lines: list[str]) -> str:
    path.write_text("".join(lines), encoding="utf-8")
    before = (last_position(), Tournament.objects.count(), Player.objects.count())
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), "--quiet", stdout=io.StringIO())
    after = (last_position(), Tournament.objects.count(), Player.objects.count())
    assert after == before, "a refused import wrote something"
    return str(refused.value)


def test_a_tournament_that_exists_here_is_not_imported_again(tmp_path: Path) -> None:
    tournament_id = club_evening()

    message = import_refusal(tmp_path / "a.jsonl", exported(tournament_id))

    assert message == (
        f"Not imported: tournament {tournament_id} exists here already: nothing imported."
    )


def test_entrant_ids_used_here_by_another_tournament_refuse_the_import(tmp_path: Path) -> None:
    tournament_id = club_evening()
    other = str(uuid4())
    lines = [line.replace(str(tournament_id), other) for line in exported(tournament_id)]
    ids = sorted(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", flat=True))

    message = import_refusal(tmp_path / "a.jsonl", lines)

    assert message == (
        f"Not imported: entrant ids {', '.join(map(str, ids))} are used here by another "
        "tournament (the events refer to entrants by id): nothing imported."
    )


def test_streams_in_the_log_here_refuse_the_import(tmp_path: Path) -> None:
    tournament_id = club_evening()
    other = str(uuid4())
    lines = exported(tournament_id)
    documents = [json.loads(line) for line in lines]
    for document in documents:
        if document["kind"] in ("archive", "tournament"):
            document["tournament" if document["kind"] == "archive" else "id"] = other
        if document["kind"] in ("entrant", "player"):
            document["id"] += 10_000
        if document["kind"] == "entrant":
            for seat in document["players"]:
                seat["player"] += 10_000

    message = import_refusal(tmp_path / "a.jsonl", [json.dumps(d) + "\n" for d in documents])

    assert message.startswith("Not imported: streams ")
    assert str(tournament_id) in message
    assert message.endswith("exist here already: nothing imported.")


def test_player_ids_used_here_refuse_the_import(tmp_path: Path) -> None:
    tournament_id = club_evening()
    documents = [json.loads(line) for line in exported(tournament_id)]
    other = str(uuid4())
    for document in documents:
        if document["kind"] in ("archive", "tournament"):
            document["tournament" if document["kind"] == "archive" else "id"] = other
        if document["kind"] == "entrant":
            document["id"] += 10_000
    players = sorted(d["id"] for d in documents if d["kind"] == "player")

    message = import_refusal(tmp_path / "a.jsonl", [json.dumps(d) + "\n" for d in documents])

    assert message == (
        f"Not imported: player ids {', '.join(map(str, players))} are used here already (the "
        "events refer to players by id): nothing imported."
    )


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda lines: ["not json\n", *lines], "line 1 is not an archive line"),
        (lambda lines: lines[1:], "this is not a tournament archive (no `archive` line)"),
        (lambda lines: lines[:-3], "the archive is incomplete: its header announces"),
        (
            lambda lines: [lines[0].replace('"version": 1', '"version": 9'), *lines[1:]],
            "archive version 9 is not known here (only 1)",
        ),
    ],
    ids=["not json", "no header", "cut short", "a later version"],
)
def test_a_damaged_archive_is_refused_saying_what_is_wrong(
    tmp_path: Path, damage: object, says: str
) -> None:
    tournament_id = club_evening()
    lines = exported(tournament_id)
    # Cutting lines off the end cuts events only if the keys do not come last: drop keys.
    lines = [line for line in lines if '"kind": "idempotency_key"' not in line]

    message = import_refusal(tmp_path / "a.jsonl", damage(lines))  # type: ignore[operator]

    assert says in message


def test_an_archive_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Cannot read the archive"):
        call_command("import_tournament", str(tmp_path / "missing.jsonl"), "--quiet")
