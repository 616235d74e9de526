"""Rows written with COPY (`common.db.copy_rows`) are the rows `bulk_create` writes: JSON
documents, SQL NULLs, times and the auto-incremented key alike."""

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection

from common.db import copy_rows, copy_values
from games.models import Match, MatchStatus, Round
from tournaments.models import Checkpoint

pytestmark = pytest.mark.django_db

CREATED = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)


def a_match(match_id: uuid.UUID) -> Match:
    return Match(
        id=match_id,
        table_size=2,
        scoring="rounds",
        best_of=3,
        sides=[{"entrant": 1}, {"name": 'Anna "la" Rossi\\n\t'}],
        variant={},
        status="in_progress",
        round_wins=[1, 0],
        total_points=[70, 50],
        regulation_points=None,
        confirmations=[{"side": 0, "result": {"rounds": [{"number": 1, "points": [70, 50]}]}}],
        version=3,
        last_position=42,
        created_at=CREATED,
        updated_at=CREATED,
    )


def a_round(match_id: uuid.UUID) -> Round:
    return Round(
        match_id=match_id,
        number=1,
        status="finished",
        dealer_seat=0,
        leader_seat=1,
        briscola=None,
        plays=[[1, "1D"], [0, "3C"]],
        points=[70, 50],
        ruling=None,
        deck=["1D", "3C"],
    )


def stored(model: Any, **where: Any) -> list[dict[str, Any]]:
    """The rows as the database holds them, the auto-incremented key left out."""
    return [
        {name: value for name, value in row.items() if name != "id" or model is Match}
        for row in model.objects.filter(**where).order_by("pk").values()
    ]


def test_rows_copied_equal_the_rows_bulk_create_writes() -> None:
    copied, created = uuid.uuid4(), uuid.uuid4()

    assert copy_rows(Match, [a_match(copied)]) == 1
    assert copy_rows(Round, [a_round(copied)]) == 1
    Match.objects.bulk_create([a_match(created)])
    Round.objects.bulk_create([a_round(created)])

    match = stored(Match, id=copied)[0]
    assert {**match, "id": created} == stored(Match, id=created)[0]
    assert match["regulation_points"] is None
    assert (
        stored(Round, match_id=copied)[0] | {"match_id": created}
        == stored(Round, match_id=created)[0]
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT ruling IS NULL FROM games_round WHERE match_id = %s", [copied])
        assert cursor.fetchone() == (True,)


def values_of(row: Match | Round) -> dict[str, Any]:
    """A row's values by attribute name, as `match_values` and `round_values` give them."""
    return {
        field.attname: getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if field.name != "id" or isinstance(row, Match)
    }


def test_rows_copied_as_their_values_equal_the_rows_bulk_create_writes() -> None:
    copied, created = uuid.uuid4(), uuid.uuid4()

    assert copy_values(Match, [values_of(a_match(copied))]) == 1
    assert copy_values(Round, [values_of(a_round(copied))]) == 1
    Match.objects.bulk_create([a_match(created)])
    Round.objects.bulk_create([a_round(created)])

    assert {**stored(Match, id=copied)[0], "id": created} == stored(Match, id=created)[0]
    assert (
        stored(Round, match_id=copied)[0] | {"match_id": created}
        == stored(Round, match_id=created)[0]
    )


def test_values_of_another_type_than_the_column_are_prepared_as_bulk_create_prepares_them() -> None:
    copied, created = uuid.uuid4(), uuid.uuid4()
    as_text = a_match(copied)
    as_text.id = str(copied)  # what a caller might hand over
    as_text.best_of = "3"
    as_text.status = MatchStatus.FINISHED
    as_text.disputed_by = []

    copy_rows(Match, [as_text])
    Match.objects.bulk_create([a_match(created)])
    Match.objects.filter(id=created).update(status=MatchStatus.FINISHED)

    assert {**stored(Match, id=copied)[0], "id": created} == stored(Match, id=created)[0]


def test_a_time_set_on_save_is_set_when_copied_too() -> None:
    copy_rows(Checkpoint, [Checkpoint(name="copied", position=7)])

    row = Checkpoint.objects.get(name="copied")
    assert (row.position, row.updated_at is not None) == (7, True)
