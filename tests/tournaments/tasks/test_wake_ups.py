"""What is enqueued, when and with which arguments; the broker is replaced by a list."""

import logging
from typing import Any

import pytest
from django.db import transaction
from django_celery_beat.models import PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from config.celery import app
from games.matches import services as match_services
from games.models import Match
from games.signals import match_events_appended
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import call, check_in, fixtures
from tournaments.services import running
from tournaments.tasks import publishing
from tournaments.tasks import running as running_tasks

pytestmark = pytest.mark.django_db

Sent = list[tuple[str, tuple[Any, ...], dict[str, Any]]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Sent:
    """Wake-ups on, and every task sent recorded instead of published."""
    settings.CELERY_WAKE_UPS = True
    monkeypatch.setattr(running_tasks.pending_wake_up, "due", float("-inf"))
    calls: Sent = []
    for task in (
        running_tasks.consume_log,
        running_tasks.schedule_ready_matches,
        running_tasks.forfeit_queued_no_show,
    ):

        def apply_async(
            args: tuple[Any, ...] = (),
            *,
            name: str = task.name,
            producer: Any = None,
            retry: bool = True,
            **options: Any,
        ) -> None:
            assert producer is not None
            assert retry is False
            calls.append((name, tuple(args), options))

        monkeypatch.setattr(task, "apply_async", apply_async)
    return calls


def names(sent: Sent) -> list[str]:
    return [name.rsplit(".", 1)[1] for name, _, _ in sent]


def test_appending_match_events_wakes_the_consumer_once_the_transaction_commits(
    sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_create(table_size=2, sides=["A", "B"], actor=ORGANIZER)
        assert sent == []

    assert sent == [
        (
            "tournaments.tasks.consume_log",
            (),
            {"countdown": running_tasks.WAKE_UP_DELAY, "expires": running_tasks.WAKE_UP_EXPIRES},
        )
    ]


def test_the_appends_of_a_burst_share_one_wake_up_until_it_is_due(
    sent: Sent, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(running_tasks, "monotonic", lambda: clock[0])

    with django_capture_on_commit_callbacks(execute=True):
        match_id = match_services.match_create(
            table_size=2, sides=["A", "B"], actor=ORGANIZER
        ).match_id
    clock[0] += running_tasks.WAKE_UP_DELAY / 2
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    assert names(sent) == ["consume_log"]

    clock[0] += running_tasks.WAKE_UP_DELAY / 2
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_forfeit(match_id=match_id, side=0, reason="left", actor=ORGANIZER)
    assert names(sent) == ["consume_log", "consume_log"]


def test_an_append_that_rolls_back_wakes_nobody(
    sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    def create_then_give_up() -> None:
        with transaction.atomic():
            match_services.match_create(table_size=2, sides=["A", "B"], actor=ORGANIZER)
            raise RuntimeError("the caller gives up")

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        create_then_give_up()

    assert callbacks == []
    assert sent == []


def test_starting_a_tournament_enqueues_its_scheduling_and_the_consumer(
    sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    assert ("tournaments.tasks.schedule_ready_matches", (str(tournament_id),), {}) in sent
    assert set(names(sent)) == {"consume_log", "schedule_ready_matches"}


def test_calling_the_scheduled_matches_records_the_deadlines_and_sends_no_message_that_waits(
    sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, no_show_minutes=10, started=True
    ).id
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        running_tasks.schedule_ready_matches(str(tournament_id))
        for fixture in fixtures(tournament_id):
            call(fixture.match_id)

    scheduled = fixtures(tournament_id)
    assert all(fixture.deadline is not None for fixture in scheduled)
    assert names(sent) == ["consume_log"]
    assert all("eta" not in options for _, _, options in sent)
    assert all(options.get("countdown", 0) <= running_tasks.WAKE_UP_DELAY for _, _, options in sent)


def test_a_no_show_task_queued_by_an_earlier_version_before_the_deadline_does_nothing(
    sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=10, started=True
    ).id
    running_tasks.catch_up_all()
    (final,) = fixtures(tournament_id)
    check_in(tournament_id, final.home_id)
    call(final.match_id)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert running_tasks.forfeit_queued_no_show(str(final.match_id)) is False

    assert sent == []
    assert Match.objects.get(id=final.match_id).status == "not_started"


def test_without_wake_ups_nothing_is_enqueued(
    sent: Sent, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.CELERY_WAKE_UPS = False

    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(
            format="single_elimination", entrants=2, no_show_minutes=0, started=True
        ).id
        running_tasks.schedule_ready_matches(str(tournament_id))
        (final,) = fixtures(tournament_id)
        check_in(tournament_id, final.home_id)
        call(final.match_id)
        assert running_tasks.forfeit_queued_no_show(str(final.match_id)) is True
        running_tasks.catch_up_all()

    assert sent == []


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_after_the_commit_is_logged_and_skipped_for_a_while_not_raised(
    monkeypatch: pytest.MonkeyPatch, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CELERY_WAKE_UPS = True
    monkeypatch.setattr(running_tasks.pending_wake_up, "due", float("-inf"))
    tried: list[str] = []

    def broker_down(*args: Any, **kwargs: Any) -> None:
        tried.append("consume_log")
        raise ConnectionRefusedError("no broker")

    monkeypatch.setattr(running_tasks.consume_log, "apply_async", broker_down)

    with caplog.at_level(logging.WARNING, logger="tournaments.tasks.publishing"):
        first = match_services.match_create(table_size=2, sides=["A", "B"], actor=ORGANIZER)
        second = match_services.match_create(table_size=2, sides=["A", "B"], actor=ORGANIZER)

    assert (first.version, second.version) == (1, 1)
    assert "no broker" in caplog.text
    assert tried == ["consume_log"]
    assert publishing.breaker.skipped == 1


def test_the_tournaments_app_listens_for_appended_match_events() -> None:
    receivers = [receiver[1]() for receiver in match_events_appended.receivers]

    assert running_tasks.consume_log_after_match_events in receivers


def test_the_catch_up_is_a_periodic_task_of_the_database_scheduler_every_30_seconds() -> None:
    name = "tournaments-catch-up"
    fields = app.conf.beat_schedule[name]

    entry = DatabaseScheduler.Entry.from_entry(name, app=app, **fields)

    periodic = PeriodicTask.objects.get(name=name)
    assert set(app.conf.beat_schedule) == {name, "tournaments-webhooks-catch-up"}
    assert periodic.task == "tournaments.tasks.catch_up"
    assert periodic.task in app.tasks
    assert (periodic.interval.every, periodic.interval.period) == (30, "seconds")
    assert entry.options["expires"] == 25
