"""The catch-up and the task bodies, called directly: no worker, nothing enqueued."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.matches import services as match_services
from games.models import Match
from games.rules.errors import RuleViolation
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import call, check_in, event_types, events_of_type, fixtures, play
from tests.tournaments.tasks.builders import other_session
from tournaments.models import Fixture, Tournament, TournamentView
from tournaments.services import scheduling
from tournaments.services import scheduling as tournament_scheduling
from tournaments.tasks import running

pytestmark = pytest.mark.django_db


def test_catch_up_gives_ready_matches_the_free_tables_and_a_start_time_but_no_deadline() -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, tables=2, no_show_minutes=15, started=True
    ).id
    now = timezone.now()

    done = running.catch_up_all(now=now)

    scheduled = fixtures(tournament_id, table__isnull=False)
    assert {f.table for f in scheduled} == {1, 2}
    assert {f.match_id for f in scheduled} == set(done.scheduled)
    assert all(f.scheduled_at == now for f in scheduled)
    assert all((f.called_at, f.deadline) == (None, None) for f in scheduled)
    assert len(fixtures(tournament_id, table__isnull=True)) == 4
    recorded = events_of_type(tournament_id, "MatchScheduled")
    assert sorted(e["table"] for e in recorded) == [1, 2]
    assert all(e["deadline"] is None for e in recorded)


def test_a_match_scheduled_by_the_catch_up_gets_its_deadline_when_it_is_called() -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, tables=2, no_show_minutes=15, started=True
    ).id
    now = timezone.now()
    running.catch_up_all(now=now)
    first, second = fixtures(tournament_id, table__isnull=False)

    call(first.match_id, now=now + timedelta(minutes=3))

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.called_at == now + timedelta(minutes=3)
    assert first.deadline == now + timedelta(minutes=18)
    assert (second.called_at, second.deadline) == (None, None)


def test_catch_up_forfeits_an_overdue_unstarted_match_and_records_the_forfeit() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=10, started=True
    ).id
    start = timezone.now()
    running.catch_up_all(now=start)
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.home_id)
    call(final.match_id, now=start)

    done = running.catch_up_all(now=start + timedelta(minutes=10))

    assert done.forfeited == [final.match_id]
    assert events_of_type(final.match_id, "MatchForfeited") == [{"side": 1, "reason": "no-show"}]
    final.refresh_from_db()
    assert final.status == "finished"
    assert final.winner_id == final.home_id
    assert Tournament.objects.get(id=tournament_id).status == "finished"
    assert TournamentView.objects.get(tournament_id=tournament_id).bracket["status"] == "finished"


def test_catch_up_leaves_started_matches_and_deadlines_still_to_come_alone() -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=3, tables=2, no_show_minutes=10, started=True
    ).id
    start = timezone.now()
    running.catch_up_all(now=start)
    started, waiting = fixtures(tournament_id, table__isnull=False)
    check_in(tournament_id, waiting.home_id)
    call(started.match_id, now=start)
    call(waiting.match_id, now=start)
    match_services.round_start(match_id=started.match_id, briscola=None, actor=ORGANIZER)

    early = running.catch_up_all(now=start + timedelta(minutes=9))
    late = running.catch_up_all(now=start + timedelta(minutes=11))

    assert early.forfeited == []
    assert late.forfeited == [waiting.match_id]
    assert Match.objects.get(id=started.match_id).status == "in_progress"
    assert "MatchForfeited" not in event_types(started.match_id)


def test_catch_up_consumes_results_advances_the_bracket_and_schedules_the_next_round() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True
    ).id
    running.catch_up_all()
    for semi in fixtures(tournament_id, round=1):
        play(semi.match_id, winner=0)

    done = running.catch_up_all()

    assert done.consumed > 0
    (final,) = fixtures(tournament_id, round=2)
    assert final.table is not None
    assert done.scheduled == [final.match_id]
    assert all(f.status == "finished" for f in fixtures(tournament_id, round=1))


def test_the_next_automatic_swiss_round_is_paired_and_scheduled_by_the_catch_up() -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4, swiss_rounds=2, tables=2, started=True
    ).id
    running.catch_up_all()
    for fixture in fixtures(tournament_id, round=1):
        play(fixture.match_id, winner=1)

    running.catch_up_all()

    second = fixtures(tournament_id, round=2)
    assert len(second) == 2
    assert {f.table for f in second} == {1, 2}


def test_a_tournament_that_fails_to_schedule_does_not_hold_the_others_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = TournamentFactory.create(format="round_robin", entrants=2, started=True).id
    healthy = TournamentFactory.create(format="round_robin", entrants=2, started=True).id
    schedule = tournament_scheduling.fixture_schedule

    def fixture_schedule(*, tournament_id: Any, **kwargs: Any) -> list[Fixture]:
        if tournament_id == broken:
            raise RuntimeError("boom")
        return schedule(tournament_id=tournament_id, **kwargs)

    monkeypatch.setattr(scheduling, "fixture_schedule", fixture_schedule)

    done = running.catch_up_all()

    assert done.failures == 1
    assert fixtures(broken, table__isnull=False) == []
    assert len(fixtures(healthy, table__isnull=False)) == 1


def test_catching_up_twice_changes_nothing_the_first_run_did_not() -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, tables=2, started=True
    ).id
    running.catch_up_all()
    before = event_types(tournament_id)

    done = running.catch_up_all()

    assert (done.forfeited, done.scheduled, done.failures) == ([], [], 0)
    assert event_types(tournament_id) == before


def test_a_consumer_run_is_skipped_while_another_run_holds_the_lock() -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=2, started=True).id

    with other_session() as session:
        session.execute("SELECT pg_advisory_lock(%s)", [running.CONSUMER_LOCK])
        assert running.consume_exclusively() is None
        assert not TournamentView.objects.filter(tournament_id=tournament_id).exists()
        session.execute("SELECT pg_advisory_unlock(%s)", [running.CONSUMER_LOCK])

    assert running.consume_exclusively()
    assert TournamentView.objects.filter(tournament_id=tournament_id).exists()


def test_the_no_show_task_forfeits_once_and_then_does_nothing() -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=0, started=True
    ).id
    running.schedule_ready_matches(str(tournament_id))
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.home_id)
    call(final.match_id)

    assert running.forfeit_queued_no_show(str(final.match_id)) is True
    assert running.forfeit_queued_no_show(str(final.match_id)) is False
    assert event_types(final.match_id).count("MatchForfeited") == 1


def test_the_tasks_keep_the_names_queued_messages_carry() -> None:
    assert running.consume_log.name == "tournaments.tasks.consume_log"
    assert running.schedule_ready_matches.name == "tournaments.tasks.schedule_ready_matches"
    assert running.forfeit_queued_no_show.name == "tournaments.tasks.forfeit_no_show"


def test_a_forfeit_that_lost_a_race_with_another_is_a_no_op(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=0, started=True
    ).id
    running.schedule_ready_matches(str(tournament_id))
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.home_id)
    call(final.match_id)
    forfeit = scheduling.fixture_forfeit_no_show

    def forfeited_meanwhile(**kwargs: Any) -> bool:
        forfeit(**kwargs)
        raise RuleViolation("the match is over")

    monkeypatch.setattr(scheduling, "fixture_forfeit_no_show", forfeited_meanwhile)

    assert running.forfeit_queued_no_show(str(final.match_id)) is False
