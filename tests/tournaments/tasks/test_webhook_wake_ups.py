"""What the webhooks enqueue after a commit, and when; the broker is replaced by a list."""

from typing import Any

import pytest

from accounts.models import User
from games.matches import services as match_services
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments import publishing, webhook_fanout, webhook_tasks
from tournaments.models import DeliveryStatus
from tournaments.services import running
from tournaments.services.webhooks import webhook_redeliver, webhook_register

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


def test_with_no_active_endpoint_a_commit_wakes_no_fan_out(
    sent: Sent, django_capture_on_commit_callbacks: Any, organizer: User
) -> None:
    endpoint, _ = webhook_register(
        tournament_id=TournamentFactory.create().id, url="https://a.example.org/", user=organizer
    )
    endpoint.active = False
    endpoint.save()

    with django_capture_on_commit_callbacks(execute=True):
        new_match()

    assert sent == []


def test_a_burst_of_commits_shares_one_fan_out_wake_up_while_an_endpoint_is_active(
    sent: Sent,
    django_capture_on_commit_callbacks: Any,
    organizer: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(webhook_tasks, "monotonic", lambda: clock[0])
    tournament = TournamentFactory.create(entrants=2)
    webhook_register(tournament_id=tournament.id, url="https://a.example.org/", user=organizer)

    with django_capture_on_commit_callbacks(execute=True):
        running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    with django_capture_on_commit_callbacks(execute=True):
        new_match()
    clock[0] += webhook_tasks.WAKE_UP_DELAY
    with django_capture_on_commit_callbacks(execute=True):
        new_match()

    wake_up = (
        "tournaments.webhooks.fan_out",
        (),
        {"countdown": webhook_tasks.WAKE_UP_DELAY, "expires": webhook_tasks.WAKE_UP_EXPIRES},
    )
    assert sent == [wake_up, wake_up]


def test_a_redelivery_enqueues_its_deliveries_once_it_commits(
    sent: Sent, django_capture_on_commit_callbacks: Any, organizer: User
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://a.example.org/", user=organizer
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    webhook_fanout.fan_out()
    endpoint.deliveries.update(status=DeliveryStatus.FAILED)
    ids = sorted(endpoint.deliveries.values_list("id", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        webhook_redeliver(delivery_ids=ids, user=organizer)
        assert sent == []

    assert sent == [("tournaments.webhooks.deliver", (str(i),), {}) for i in ids]
