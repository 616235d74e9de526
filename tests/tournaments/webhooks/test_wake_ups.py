"""What the webhooks enqueue after a run of the tournament consumer or a redelivery, and when;
the broker is replaced by a list."""

from typing import Any

import pytest
from celery.signals import task_postrun

from accounts.models import User
from games.matches import services as match_services
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import DeliveryStatus
from tournaments.services import running
from tournaments.tasks import publishing
from tournaments.tasks import running as running_tasks
from tournaments.webhooks import fanout
from tournaments.webhooks import tasks as webhook_tasks
from tournaments.webhooks.services import (
    webhook_deactivate,
    webhook_redeliver,
    webhook_register,
)

pytestmark = pytest.mark.django_db

Sent = list[tuple[str, tuple[str, ...], dict[str, Any]]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Sent:
    """Wake-ups on, and every webhook task sent recorded instead of published (the others are
    dropped)."""
    settings.CELERY_WAKE_UPS = True
    monkeypatch.setattr(webhook_tasks.pending_wake_up, "due", float("-inf"))
    calls: Sent = []

    def publish(task: Any, args: tuple[str, ...] = (), **options: Any) -> bool:
        if task.name.startswith("tournaments.webhooks."):
            calls.append((task.name, tuple(args), options))
        return True

    monkeypatch.setattr(publishing, "publish", publish)
    return calls


@pytest.fixture
def organizer() -> User:
    return UserFactory.create(is_superuser=True)


def new_match() -> None:
    match_services.match_create(table_size=2, sides=["A", "B"], actor=ORGANIZER)


def consumer_ran() -> None:
    """What Celery signals after a run of the tournament consumer's task."""
    task_postrun.send(
        sender=running_tasks.consume_log,
        task_id="run",
        task=running_tasks.consume_log,
        args=(),
        kwargs={},
        retval=0,
        state="SUCCESS",
    )


WAKE_UP = (
    "tournaments.webhooks.fan_out",
    (),
    {"countdown": webhook_tasks.WAKE_UP_DELAY, "expires": webhook_tasks.WAKE_UP_EXPIRES},
)


def test_a_commit_sends_nothing_for_the_webhooks_from_the_request(
    sent: Sent, django_capture_on_commit_callbacks: Any, organizer: User
) -> None:
    webhook_register(
        tournament_id=TournamentFactory.create().id, url="https://a.example.org/", user=organizer
    )

    with django_capture_on_commit_callbacks(execute=True):
        new_match()

    assert sent == []


def test_after_a_consumer_run_the_fan_out_is_woken_while_an_endpoint_is_active(
    sent: Sent, organizer: User
) -> None:
    endpoint, _ = webhook_register(
        tournament_id=TournamentFactory.create().id, url="https://a.example.org/", user=organizer
    )

    consumer_ran()
    webhook_tasks.pending_wake_up.due = float("-inf")
    webhook_deactivate(endpoint_id=endpoint.id, user=organizer)
    consumer_ran()

    assert sent == [WAKE_UP]


def test_the_consumer_runs_of_a_burst_share_one_fan_out_wake_up(
    sent: Sent, organizer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(webhook_tasks, "monotonic", lambda: clock[0])
    webhook_register(
        tournament_id=TournamentFactory.create().id, url="https://a.example.org/", user=organizer
    )

    consumer_ran()
    consumer_ran()
    clock[0] += webhook_tasks.WAKE_UP_DELAY
    consumer_ran()
    task_postrun.send(sender=running_tasks.schedule_ready_matches, task_id="other", task=None)

    assert sent == [WAKE_UP, WAKE_UP]


def test_a_redelivery_enqueues_its_deliveries_once_it_commits(
    sent: Sent, django_capture_on_commit_callbacks: Any, organizer: User
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://a.example.org/", user=organizer
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    fanout.fan_out()
    endpoint.deliveries.update(status=DeliveryStatus.FAILED)
    ids = sorted(endpoint.deliveries.values_list("id", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        webhook_redeliver(delivery_ids=ids, user=organizer)
        assert sent == []

    assert sent == [("tournaments.webhooks.deliver", (str(i),), {}) for i in ids]
