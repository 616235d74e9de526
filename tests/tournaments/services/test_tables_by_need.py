"""The venue's tables left empty at creation and changed later (decision record 0049), through
the services against PostgreSQL: the rows follow, the scheduler seats the waiting matches, and
`rebuild_projections` refills the same rows."""

from __future__ import annotations

from uuid import UUID

import pytest
from django.db import connection

from games.eventstore.api import read_stream
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import fixtures, last_event
from tests.tournaments.projections.snapshots import rebuild, verify
from tournaments.errors import TablesInUse
from tournaments.models import Table, Tournament
from tournaments.projections import consumer
from tournaments.services import registration, running, scheduling

pytestmark = pytest.mark.django_db


def table_rows(tournament_id: UUID) -> list[int]:
    return list(
        Table.objects.filter(tournament_id=tournament_id)
        .order_by("number")
        .values_list("number", flat=True)
    )


def test_a_tournament_created_without_tables_has_the_tables_its_entrants_need() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=5, tables=None)

    assert tournament.settings["tables"] is None
    assert table_rows(tournament.id) == [1, 2, 3]
    registration.entrant_withdraw(
        tournament_id=tournament.id,
        entrant_id=last_entrant(tournament),
        reason="ill",
        actor=ORGANIZER,
    )
    assert table_rows(tournament.id) == [1, 2]


def last_entrant(tournament: Tournament) -> int:
    return tournament.entrants.order_by("-id").values_list("id", flat=True)[0]


def test_the_start_counts_the_first_round_s_tables_and_every_first_match_gets_one() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=8, tables=None)

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)

    counted = [e for e in read_stream(stream_id=tournament.id) if e.event_type == "TablesChanged"]
    assert [e.payload for e in counted] == [{"tables": 4, "by": "first_round"}]
    tournament.refresh_from_db()
    assert tournament.settings["tables"] == 4
    assert table_rows(tournament.id) == [1, 2, 3, 4]
    consumer.consume()
    assert sorted(f.table or 0 for f in fixtures(tournament.id, round=1)) == [1, 2, 3, 4]


def test_a_tournament_with_its_tables_set_starts_as_before() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=8, tables=2)

    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)

    assert "TablesChanged" not in [e.event_type for e in read_stream(stream_id=tournament.id)]
    assert table_rows(tournament.id) == [1, 2]


def test_the_organizer_s_change_is_an_event_with_its_actor_and_the_rows_follow() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=4, tables=2)

    result = scheduling.tournament_tables_change(
        tournament_id=tournament.id, tables=5, actor=ORGANIZER
    )

    recorded = last_event(tournament.id)
    assert (recorded.event_type, recorded.payload) == (
        "TablesChanged",
        {"tables": 5, "by": "organizer"},
    )
    assert recorded.metadata.device == ORGANIZER.device
    assert result.state.tables == 5
    assert table_rows(tournament.id) == [1, 2, 3, 4, 5]
    tournament.refresh_from_db()
    assert tournament.settings["tables"] == 5


def test_a_change_sent_again_with_its_key_records_nothing_more() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=4, tables=2)

    first = scheduling.tournament_tables_change(
        tournament_id=tournament.id, tables=3, actor=ORGANIZER, idempotency_key="tables-1"
    )
    again = scheduling.tournament_tables_change(
        tournament_id=tournament.id, tables=3, actor=ORGANIZER, idempotency_key="tables-1"
    )

    assert again.duplicate
    assert again.version == first.version
    assert len(read_stream(stream_id=tournament.id)) == first.version


def test_fewer_tables_than_a_waiting_match_holds_are_refused_and_nothing_changes() -> None:
    tournament = TournamentFactory.create(
        format="round_robin", entrants=4, tables=2, started=True, projected=True
    )
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    version = len(read_stream(stream_id=tournament.id))

    with pytest.raises(TablesInUse):
        scheduling.tournament_tables_change(tournament_id=tournament.id, tables=1, actor=ORGANIZER)

    assert len(read_stream(stream_id=tournament.id)) == version
    assert table_rows(tournament.id) == [1, 2]


def test_more_tables_seat_the_matches_waiting_for_one() -> None:
    tournament = TournamentFactory.create(
        format="round_robin", entrants=6, tables=1, started=True, projected=True
    )
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)

    scheduling.tournament_tables_change(tournament_id=tournament.id, tables=3, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)

    consumer.consume()
    assert sorted(f.table or 0 for f in fixtures(tournament.id, round=1)) == [1, 2, 3]


def test_rebuilding_the_projections_refills_the_tables_by_need_and_as_changed() -> None:
    by_need = TournamentFactory.create(format="round_robin", entrants=6, tables=None)
    counted = TournamentFactory.create(format="round_robin", entrants=4, tables=None, started=True)
    changed = TournamentFactory.create(format="round_robin", entrants=4, tables=2)
    scheduling.tournament_tables_change(tournament_id=changed.id, tables=7, actor=ORGANIZER)
    before = {t.id: (table_rows(t.id), settings_of(t)) for t in (by_need, counted, changed)}
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Table._meta.db_table}")  # noqa: S608 - a constant name
        cursor.execute(
            f"UPDATE {Tournament._meta.db_table} SET settings = settings || '{{\"tables\": 1}}'"  # noqa: S608
        )

    rebuild()

    after = {t.id: (table_rows(t.id), settings_of(t)) for t in (by_need, counted, changed)}
    assert after == before
    assert before[by_need.id][0] == [1, 2, 3]
    assert before[counted.id][0] == [1, 2]
    assert before[changed.id][0] == [1, 2, 3, 4, 5, 6, 7]
    assert verify()[0] == 0


def settings_of(tournament: Tournament) -> object:
    return Tournament.objects.get(id=tournament.id).settings["tables"]
