"""The no-show rule (issue 11 §4): a side forfeits for not showing up only when the tournament's
rule is on, the match was called to its table and the other side checked in; the decision is the
folded tournament's."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.builders import call, check_in, event_types, events_of_type, fixtures
from tournaments.services import scheduling
from tournaments.state import EntrantRecord, Fixture, TournamentSettings, TournamentState
from tournaments.stream.tables import no_show_forfeiter
from tournaments.tasks import running

pytestmark = pytest.mark.django_db

A_DAY_LATER = timedelta(days=1)


def test_with_the_rule_off_by_default_no_deadline_is_set_and_nothing_is_forfeited() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, started=True
    ).id
    start = timezone.now()
    running.catch_up_all(now=start)
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.home_id)

    done = running.catch_up_all(now=start + A_DAY_LATER)

    assert (final.table, final.deadline) == (1, None)
    assert events_of_type(tournament_id, "MatchScheduled")[0]["deadline"] is None
    assert done.forfeited == []
    assert (
        scheduling.fixture_forfeit_no_show(
            match_id=final.match_id, actor=running.SCHEDULER, now=start + A_DAY_LATER
        )
        is False
    )
    assert Match.objects.get(id=final.match_id).status == "not_started"


def test_with_the_rule_on_the_home_side_absent_forfeits_to_the_away_side_present() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=5, started=True
    ).id
    start = timezone.now()
    running.catch_up_all(now=start)
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.away_id)
    call(final.match_id, now=start)

    early = running.catch_up_all(now=start + timedelta(minutes=4))
    late = running.catch_up_all(now=start + timedelta(minutes=5))

    assert early.forfeited == []
    assert late.forfeited == [final.match_id]
    assert events_of_type(final.match_id, "MatchForfeited") == [{"side": 0, "reason": "no-show"}]
    final.refresh_from_db()
    assert final.winner_id == final.away_id


@pytest.mark.parametrize("present", ["neither", "both"])
def test_with_the_rule_on_and_both_sides_alike_nothing_is_forfeited(present: str) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=5, started=True
    ).id
    start = timezone.now()
    running.catch_up_all(now=start)
    (final,) = fixtures(tournament_id)
    call(final.match_id, now=start)
    if present == "both":
        check_in(tournament_id, final.home_id, final.away_id)

    done = running.catch_up_all(now=start + A_DAY_LATER)

    assert done.forfeited == []
    assert done.failures == 0
    assert "MatchForfeited" not in event_types(final.match_id)
    final.refresh_from_db()
    assert final.status == "ready"


def test_the_forfeiter_is_decided_from_the_folded_state_alone() -> None:
    fixture = Fixture(
        id="F",
        match_id="m",
        home=1,
        away=2,
        stage="main",
        round=1,
        called_at="2026-01-01T09:50",
        deadline="2026-01-01T10:00",
    )
    uncalled = replace(fixture, called_at=None, deadline=None)

    def state(minutes: int | None, *present: int) -> TournamentState:
        return TournamentState(
            name="Circolo",
            settings=TournamentSettings(
                format="single_elimination", table_size=2, no_show_minutes=minutes
            ),
            entrants={e: EntrantRecord(checked_in=e in present) for e in (1, 2)},
        )

    assert no_show_forfeiter(state(None, 1), fixture) is None
    assert no_show_forfeiter(state(10, 1), fixture) == 1
    assert no_show_forfeiter(state(10, 2), fixture) == 0
    assert no_show_forfeiter(state(10), fixture) is None
    assert no_show_forfeiter(state(10, 1, 2), fixture) is None
    assert no_show_forfeiter(state(10, 1), uncalled) is None
    assert no_show_forfeiter(state(10, 2), uncalled) is None
