"""Issue 11 §4 through the services, against PostgreSQL: a match's no-show clock starts when it
is called to its table (by the organizer, or by itself once both sides checked in), never when
it is given a table; and only a called match with one side absent is forfeited."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import (
    call,
    check_in,
    check_in_seeds,
    event_types,
    events_of_type,
    fixtures,
    stream_after,
    version_of,
)
from tournaments.errors import InvalidTournament
from tournaments.models import Fixture, Tournament
from tournaments.selectors import fixtures as fixtures_selectors
from tournaments.services import running, scheduling
from tournaments.services import scheduling as tournament_scheduling
from tournaments.tasks import running as running_tasks

pytestmark = pytest.mark.django_db

MINUTES = 5
A_YEAR_LATER = timedelta(days=365)


def at_a_table(
    entrants: int = 2, *, tables: int = 1, now: datetime | None = None, **options: Any
) -> tuple[uuid.UUID, Fixture]:
    """A started single elimination with the no-show rule on (unless `options` say otherwise)
    whose first match was given a table at `now`: the tournament and that match's fixture."""
    settings = {"no_show_minutes": MINUTES} | options
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=entrants, tables=tables, **settings, started=True
    ).id
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER, now=now)
    first = fixtures(tournament_id, table__isnull=False)[0]
    return tournament_id, first


# The organizer's call.


def test_the_organizers_call_starts_the_no_show_clock_at_the_call() -> None:
    scheduled_at = timezone.now()
    tournament_id, final = at_a_table(now=scheduled_at)
    assert (final.scheduled_at, final.called_at, final.deadline) == (scheduled_at, None, None)
    called_at = scheduled_at + timedelta(minutes=7)

    result = scheduling.fixture_call(match_id=final.match_id, actor=ORGANIZER, now=called_at)

    final.refresh_from_db()
    assert final.called_at == called_at
    assert final.deadline == called_at + timedelta(minutes=MINUTES)
    assert final.scheduled_at == scheduled_at
    assert [e.event_type for e in result.events] == ["MatchCalled"]
    assert events_of_type(tournament_id, "MatchCalled") == [
        {
            "fixture": final.key,
            "table": 1,
            "called_at": called_at.isoformat(),
            "deadline": (called_at + timedelta(minutes=MINUTES)).isoformat(),
            "by": "organizer",
        }
    ]


def test_with_the_no_show_rule_off_a_call_records_the_match_called_and_no_deadline() -> None:
    tournament_id, final = at_a_table(no_show_minutes=None)
    called_at = timezone.now()

    call(final.match_id, now=called_at)

    final.refresh_from_db()
    assert (final.called_at, final.deadline) == (called_at, None)
    (called,) = events_of_type(tournament_id, "MatchCalled")
    assert (called["called_at"], called["deadline"]) == (called_at.isoformat(), None)


def test_a_call_with_a_table_moves_the_match_to_that_table_first() -> None:
    tournament_id, final = at_a_table(tables=3)
    before = version_of(tournament_id)
    called_at = timezone.now()

    scheduling.fixture_call(match_id=final.match_id, actor=ORGANIZER, table=3, now=called_at)

    final.refresh_from_db()
    assert (final.table, final.called_at) == (3, called_at)
    recorded = stream_after(tournament_id, before)
    assert [event_type for event_type, _ in recorded] == ["MatchScheduled", "MatchCalled"]
    assert recorded[0][1]["table"] == 3
    assert recorded[1][1]["table"] == 3


def test_a_match_without_a_table_cannot_be_called() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=MINUTES, started=True
    ).id
    (final,) = fixtures(tournament_id)
    before = version_of(tournament_id)

    with pytest.raises(InvalidTournament) as refused:
        call(final.match_id)

    assert refused.value.code == "invalid_tournament"
    assert "a table before calling it" in str(refused.value)
    assert version_of(tournament_id) == before
    final.refresh_from_db()
    assert (final.called_at, final.deadline) == (None, None)


def test_calling_a_called_match_again_records_nothing_and_keeps_its_deadline() -> None:
    tournament_id, final = at_a_table()
    first_call = timezone.now()
    call(final.match_id, now=first_call)
    before = version_of(tournament_id)

    again = scheduling.fixture_call(
        match_id=final.match_id, actor=ORGANIZER, now=first_call + timedelta(minutes=3)
    )

    assert list(again.events) == []
    assert version_of(tournament_id) == before
    final.refresh_from_db()
    assert final.called_at == first_call
    assert final.deadline == first_call + timedelta(minutes=MINUTES)


# Called by itself: both sides checked in.


def test_the_second_side_checking_in_calls_the_match_at_its_table() -> None:
    tournament_id, final = at_a_table()
    check_in(tournament_id, final.home_id)
    assert events_of_type(tournament_id, "MatchCalled") == []  # one side is not enough
    before = version_of(tournament_id)

    check_in(tournament_id, final.away_id)

    recorded = stream_after(tournament_id, before)
    assert [event_type for event_type, _ in recorded] == ["EntrantCheckedIn", "MatchCalled"]
    called = recorded[1][1]
    assert (called["fixture"], called["table"], called["by"]) == (final.key, 1, "check-in")
    final.refresh_from_db()
    assert final.called_at is not None
    assert called["called_at"] == final.called_at.isoformat()
    assert final.deadline == final.called_at + timedelta(minutes=MINUTES)


def test_a_match_whose_sides_both_checked_in_is_called_when_it_is_given_a_table() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=MINUTES
    ).id
    check_in_seeds(tournament_id, 1, 2)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (final,) = fixtures(tournament_id)
    assert (final.table, final.called_at) == (None, None)  # no table yet: nothing to call
    before = version_of(tournament_id)
    now = timezone.now()

    scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER, now=now)

    assert stream_after(tournament_id, before) == [
        (
            "MatchScheduled",
            {"fixture": final.key, "table": 1, "scheduled_at": now.isoformat(), "deadline": None},
        ),
        (
            "MatchCalled",
            {
                "fixture": final.key,
                "table": 1,
                "called_at": now.isoformat(),
                "deadline": (now + timedelta(minutes=MINUTES)).isoformat(),
                "by": "check-in",
            },
        ),
    ]
    final.refresh_from_db()
    assert (final.table, final.called_at) == (1, now)


def test_a_match_whose_sides_both_checked_in_is_called_when_a_table_is_assigned_to_it() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, tables=2, no_show_minutes=MINUTES
    ).id
    check_in_seeds(tournament_id, 1, 2)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (final,) = fixtures(tournament_id)
    before = version_of(tournament_id)

    scheduling.fixture_table_assign(match_id=final.match_id, table=2, actor=ORGANIZER)

    recorded = stream_after(tournament_id, before)
    assert [event_type for event_type, _ in recorded] == ["MatchScheduled", "MatchCalled"]
    assert (recorded[1][1]["table"], recorded[1][1]["by"]) == (2, "check-in")
    final.refresh_from_db()
    assert final.table == 2
    assert final.called_at is not None
    assert final.deadline == final.called_at + timedelta(minutes=MINUTES)


def test_scheduling_returns_each_fixture_it_gave_a_table_once_when_it_also_called_it() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=MINUTES
    ).id
    check_in_seeds(tournament_id, 1, 2)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    done = running_tasks.catch_up_all()

    (final,) = fixtures(tournament_id)
    assert events_of_type(tournament_id, "MatchCalled")[0]["by"] == "check-in"
    assert done.scheduled == [final.match_id]


def test_assigning_a_table_returns_each_moved_fixture_once_when_it_also_called_it() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, tables=2, no_show_minutes=MINUTES
    ).id
    check_in_seeds(tournament_id, 1, 2)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (final,) = fixtures(tournament_id)

    moved = scheduling.fixture_table_assign(match_id=final.match_id, table=2, actor=ORGANIZER)

    assert events_of_type(tournament_id, "MatchCalled")[0]["by"] == "check-in"
    assert [fixture.key for fixture in moved] == [final.key]


# Forfeits: only a called match, only one side absent.


def test_a_match_never_called_is_never_forfeited_however_late_it_is() -> None:
    start = timezone.now()
    tournament_id, final = at_a_table(now=start)
    check_in(tournament_id, final.home_id)
    far = start + A_YEAR_LATER

    done = running_tasks.catch_up_all(now=far)

    assert done.forfeited == []
    assert scheduling.fixture_forfeit_no_show(
        match_id=final.match_id, actor=ORGANIZER, now=far
    ) is (False)
    assert fixtures_selectors.overdue_fixtures(tournament_id=tournament_id, now=far) == []
    assert "MatchForfeited" not in event_types(final.match_id)
    assert Match.objects.get(id=final.match_id).status == "not_started"


def test_a_called_match_with_one_side_absent_is_forfeited_by_the_catch_up_at_its_deadline() -> None:
    start = timezone.now()
    tournament_id, final = at_a_table(now=start)
    check_in(tournament_id, final.away_id)
    call(final.match_id, now=start + timedelta(minutes=2))
    deadline = start + timedelta(minutes=2 + MINUTES)

    early = running_tasks.catch_up_all(now=deadline - timedelta(seconds=1))
    due = running_tasks.catch_up_all(now=deadline)

    assert early.forfeited == []
    assert due.forfeited == [final.match_id]
    assert events_of_type(final.match_id, "MatchForfeited") == [{"side": 0, "reason": "no-show"}]
    final.refresh_from_db()
    assert (final.status, final.winner_id) == ("finished", final.away_id)
    assert Tournament.objects.get(id=tournament_id).status == "finished"


def test_a_called_match_with_both_sides_absent_is_not_forfeited_but_overdue() -> None:
    start = timezone.now()
    tournament_id, final = at_a_table(now=start)
    call(final.match_id, now=start)
    deadline = start + timedelta(minutes=MINUTES)
    early = deadline - timedelta(seconds=1)
    assert fixtures_selectors.overdue_fixtures(tournament_id=tournament_id, now=early) == []

    done = running_tasks.catch_up_all(now=deadline + timedelta(minutes=1))

    assert done.forfeited == []
    assert done.failures == 0
    assert "MatchForfeited" not in event_types(final.match_id)
    overdue = fixtures_selectors.overdue_fixtures(tournament_id=tournament_id, now=deadline)
    assert [fixture.key for fixture in overdue] == [final.key]
