"""Issue 11 §1: a tournament row corrupted by hand (SQL) is named by `verify_projections`, row
and field, and `rebuild_projections` gives it its right value again.

The verify output is one line per difference, naming the tournament, the row and the field:
`tournament <uuid>: entrant <id> checked_in ...`, `tournament <uuid>: fixture <key> table ...`,
`tournament <uuid>: status ...`, `tournament <uuid>: fixture <key> is missing`,
`tournament <uuid>: table <n> is missing`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest
from django.db import connection

from common.actors import Actor
from games.eventstore.api import read_stream
from games.matches import services as match_services
from tests.tournaments.projections.snapshots import rebuild, verify
from tournaments.models import Entrant, Fixture, Table, Tournament
from tournaments.projections import consumer
from tournaments.services import registration, running, scheduling

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(device="verify-test")


@dataclass(frozen=True)
class StartedTournament:
    """A round robin of four (a fifth entrant withdrew before the start) at two tables, with the
    no-show rule on: entrants 1 and 2 checked in, one match finished, one waiting at a table,
    called there (its no-show clock running)."""

    id: UUID
    checked_in: int
    withdrawn: int
    seeded: int
    seed: int
    finished: Fixture
    scheduled: Fixture

    def version(self) -> int:
        return read_stream(stream_id=self.id)[-1].stream_version


def started_tournament() -> StartedTournament:
    tournament = registration.tournament_create(
        name="Verified",
        format="round_robin",
        table_size=2,
        best_of=1,
        tables=2,
        no_show_minutes=10,
        actor=ORGANIZER,
    )
    entrants = [
        registration.registered_entrant_id(
            registration.entrant_register(
                tournament_id=tournament.id,
                name=f"Entrant {number}",
                players=[f"Player {number}"],
                seed=number,
                actor=ORGANIZER,
            )
        )
        for number in range(1, 6)
    ]
    for entrant_id in entrants[:2]:
        registration.entrant_check_in(
            tournament_id=tournament.id, entrant_id=entrant_id, actor=ORGANIZER
        )
    registration.entrant_withdraw(
        tournament_id=tournament.id, entrant_id=entrants[4], reason="ill", actor=ORGANIZER
    )
    registration.tournament_seed(tournament_id=tournament.id, method="given", actor=ORGANIZER)
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    first, second = scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    match_services.round_start(match_id=first.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=first.match_id, round_number=1, points=[50, 70], actor=ORGANIZER
    )
    scheduling.fixture_call(match_id=second.match_id, actor=ORGANIZER)
    consumer.consume()
    finished = Fixture.objects.get(match_id=first.match_id)
    scheduled = Fixture.objects.get(match_id=second.match_id)
    assert (finished.status, finished.winner_id) == ("finished", finished.away_id)
    assert (scheduled.status, scheduled.table) == ("ready", 2)
    assert scheduled.called_at is not None
    assert scheduled.deadline is not None
    return StartedTournament(
        id=tournament.id,
        checked_in=entrants[0],
        withdrawn=entrants[4],
        seeded=entrants[3],
        seed=Entrant.objects.get(id=entrants[3]).seed or 0,
        finished=finished,
        scheduled=scheduled,
    )


def execute(sql: str, *params: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.rowcount == 1, "the corruption touched no row, or more than one"


def live_fixture(started: StartedTournament, key: str) -> Fixture:
    return Fixture.objects.exclude(status="reset").get(tournament_id=started.id, key=key)


@dataclass(frozen=True)
class Corruption:
    """One field (or row) spoilt by hand: the SQL that spoils it, what the verify line must
    name, and the field's value read back with the value it must have again after a rebuild."""

    spoil: Callable[[StartedTournament], None]
    named: Callable[[StartedTournament], tuple[str, ...]]
    read: Callable[[StartedTournament], object]
    right: Callable[[StartedTournament], object]


def fixture_line(started: StartedTournament, fixture: Fixture, field: str) -> tuple[str, ...]:
    return (f"tournament {started.id}:", f"fixture {fixture.key}", field)


def entrant_line(started: StartedTournament, entrant_id: int, field: str) -> tuple[str, ...]:
    return (f"tournament {started.id}:", f"entrant {entrant_id}", field)


def scheduled_field(field: str) -> Callable[[StartedTournament], object]:
    return lambda started: getattr(live_fixture(started, started.scheduled.key), field)


def finished_field(field: str) -> Callable[[StartedTournament], object]:
    return lambda started: getattr(live_fixture(started, started.finished.key), field)


def entrant_field(field: str, which: str) -> Callable[[StartedTournament], object]:
    return lambda started: getattr(Entrant.objects.get(id=getattr(started, which)), field)


CORRUPTIONS = {
    "the tournament's status": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_tournament SET status = 'finished' WHERE id = %s", s.id
        ),
        named=lambda s: (f"tournament {s.id}: status",),
        read=lambda s: Tournament.objects.get(id=s.id).status,
        right=lambda _s: "in_progress",
    ),
    "the tournament's version": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_tournament SET version = version + 5 WHERE id = %s", s.id
        ),
        named=lambda s: (f"tournament {s.id}: version",),
        read=lambda s: Tournament.objects.get(id=s.id).version,
        right=lambda s: s.version(),
    ),
    "an entrant's check-in": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_entrant SET checked_in = false WHERE id = %s", s.checked_in
        ),
        named=lambda s: entrant_line(s, s.checked_in, "checked_in"),
        read=entrant_field("checked_in", "checked_in"),
        right=lambda _s: True,
    ),
    "an entrant's withdrawal": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_entrant SET withdrawn = false WHERE id = %s", s.withdrawn
        ),
        named=lambda s: entrant_line(s, s.withdrawn, "withdrawn"),
        read=entrant_field("withdrawn", "withdrawn"),
        right=lambda _s: True,
    ),
    "an entrant's seed": Corruption(
        spoil=lambda s: execute("UPDATE tournaments_entrant SET seed = 99 WHERE id = %s", s.seeded),
        named=lambda s: entrant_line(s, s.seeded, "seed"),
        read=entrant_field("seed", "seeded"),
        right=lambda s: s.seed,
    ),
    "a fixture's status": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET status = 'ready' WHERE id = %s", s.finished.pk
        ),
        named=lambda s: fixture_line(s, s.finished, "status"),
        read=finished_field("status"),
        right=lambda _s: "finished",
    ),
    "a fixture's table": Corruption(
        spoil=lambda s: execute(
            'UPDATE tournaments_fixture SET "table" = 1 WHERE id = %s', s.scheduled.pk
        ),
        named=lambda s: fixture_line(s, s.scheduled, "table"),
        read=scheduled_field("table"),
        right=lambda s: s.scheduled.table,
    ),
    "a fixture's start time": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET scheduled_at = scheduled_at - interval '1 hour' "
            "WHERE id = %s",
            s.scheduled.pk,
        ),
        named=lambda s: fixture_line(s, s.scheduled, "scheduled_at"),
        read=scheduled_field("scheduled_at"),
        right=lambda s: s.scheduled.scheduled_at,
    ),
    "a fixture's call": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET called_at = NULL WHERE id = %s", s.scheduled.pk
        ),
        named=lambda s: fixture_line(s, s.scheduled, "called_at"),
        read=scheduled_field("called_at"),
        right=lambda s: s.scheduled.called_at,
    ),
    "a fixture's call time": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET called_at = called_at - interval '1 hour' "
            "WHERE id = %s",
            s.scheduled.pk,
        ),
        named=lambda s: fixture_line(s, s.scheduled, "called_at"),
        read=scheduled_field("called_at"),
        right=lambda s: s.scheduled.called_at,
    ),
    "a fixture's no-show deadline": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET deadline = NULL WHERE id = %s", s.scheduled.pk
        ),
        named=lambda s: fixture_line(s, s.scheduled, "deadline"),
        read=scheduled_field("deadline"),
        right=lambda s: s.scheduled.deadline,
    ),
    "a fixture's winner": Corruption(
        spoil=lambda s: execute(
            "UPDATE tournaments_fixture SET winner_id = home_id WHERE id = %s", s.finished.pk
        ),
        named=lambda s: fixture_line(s, s.finished, "winner"),
        read=finished_field("winner_id"),
        right=lambda s: s.finished.away_id,
    ),
    "a fixture deleted": Corruption(
        spoil=lambda s: execute("DELETE FROM tournaments_fixture WHERE id = %s", s.scheduled.pk),
        named=lambda s: (f"tournament {s.id}: fixture {s.scheduled.key} is missing",),
        read=lambda s: fixture_facts(live_fixture(s, s.scheduled.key)),
        right=lambda s: fixture_facts(s.scheduled),
    ),
    "a table deleted": Corruption(
        spoil=lambda s: execute(
            "DELETE FROM tournaments_table WHERE tournament_id = %s AND number = 2", s.id
        ),
        named=lambda s: (f"tournament {s.id}: table 2 is missing",),
        read=lambda s: list(
            Table.objects.filter(tournament_id=s.id).order_by("number").values_list("number")
        ),
        right=lambda _s: [(1,), (2,)],
    ),
}


def fixture_facts(fixture: Fixture) -> dict[str, object]:
    """Everything a fixture row says, but its primary key (a rebuilt row has a new one)."""
    return {
        field.attname: getattr(fixture, field.attname)
        for field in Fixture._meta.concrete_fields
        if not field.primary_key
    }


def assert_verify_passes() -> None:
    status, report = verify()
    assert status == 0, report


@pytest.mark.parametrize("corrupted", list(CORRUPTIONS))
def test_verify_names_the_corrupted_row_and_field_and_a_rebuild_mends_it(corrupted: str) -> None:
    corruption = CORRUPTIONS[corrupted]
    started = started_tournament()
    assert_verify_passes()
    right = corruption.right(started)
    assert corruption.read(started) == right, "the field has its right value before"

    corruption.spoil(started)
    status, report = verify()

    assert status == 1, report
    named = corruption.named(started)
    assert any(all(part in line for part in named) for line in report.splitlines()), (
        f"no line names {named}:\n{report}"
    )

    rebuild()

    assert_verify_passes()
    assert corruption.read(started) == right


def test_a_winner_decided_by_the_higher_seed_is_in_the_row_verified_and_rebuilt() -> None:
    tournament = registration.tournament_create(
        name="Level final",
        format="single_elimination",
        table_size=2,
        scoring="points",
        rounds=1,
        level_knockout="higher_seed",
        actor=ORGANIZER,
    )
    for number in (1, 2):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"Entrant {number}",
            players=[f"Player {number}"],
            seed=number,
            actor=ORGANIZER,
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    [final] = Fixture.objects.filter(tournament_id=tournament.id)
    match_services.round_start(match_id=final.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=final.match_id, round_number=1, points=(60, 60), actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=final.match_id, actor=ORGANIZER)
    consumer.consume()
    final.refresh_from_db()
    assert final.decided_by == "higher_seed"
    assert_verify_passes()

    execute("UPDATE tournaments_fixture SET decided_by = NULL WHERE id = %s", final.pk)
    status, report = verify()

    assert status == 1
    assert f"fixture {final.key} decided_by" in report
    rebuild()
    assert_verify_passes()
    assert Fixture.objects.get(match_id=final.match_id).decided_by == "higher_seed"
