"""Webhooks delivered by a real Celery worker (a subprocess) to receivers on the loopback: the
fan-out woken by the commits, each delivery retried with backoff until the receiver answers,
failed after the last attempt and sent again when the organizer asks. Every wait is bounded."""

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from config.celery import app
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import open_fixtures, play
from tests.tournaments.webhooks.receiver import Receiver, always, failing_first, receiving
from tests.workers import Worker, wait_for
from tournaments.models import DeliveryStatus, Tournament, WebhookEndpoint
from tournaments.selectors.feed import tournament_feed
from tournaments.services import running
from tournaments.webhooks import tasks as webhook_tasks
from tournaments.webhooks.services import webhook_deactivate, webhook_redeliver, webhook_register

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "the-club-s-webhook-secret"


@pytest.fixture(autouse=True)
def no_pending_wake_up() -> None:
    webhook_tasks.pending_wake_up.due = float("-inf")


@pytest.fixture
def organizer() -> User:
    return UserFactory.create(is_superuser=True)


def register(tournament: Tournament, url: str, organizer: User) -> WebhookEndpoint:
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url=url, user=organizer, secret=SECRET
    )
    return endpoint


def play_through(tournament_id: uuid.UUID, worker: Worker) -> None:
    """Start the tournament and play its one match; the worker records the result."""
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (fixture,) = wait_for(lambda: open_fixtures(tournament_id), what="the fixture", log=worker.log)
    play(fixture.match_id, winner=0)
    wait_for(
        lambda: Tournament.objects.get(id=tournament_id).status == "finished",
        what="the tournament to finish",
        log=worker.log,
    )


def feed_positions(endpoint: WebhookEndpoint) -> list[int]:
    feed = tournament_feed(tournament_id=endpoint.tournament_id, after=endpoint.after_position)
    return [event.global_position for event in feed]


def everything_delivered(endpoint: WebhookEndpoint, receiver: Receiver) -> Callable[[], bool]:
    """A condition: the receiver accepted each event of the feed and no delivery is pending."""

    def condition() -> bool:
        accepted = sorted({r.position for r in receiver.accepted()})
        pending = endpoint.deliveries.exclude(status=DeliveryStatus.DELIVERED).exists()
        return accepted == feed_positions(endpoint) and not pending

    return condition


def test_a_receiver_that_fails_twice_then_recovers_still_gets_each_event_signed(
    worker: Worker, organizer: User
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    other = TournamentFactory.create(entrants=2)
    with (
        receiving(failing_first(2)) as receiver,
        receiving() as unregistered,
        receiving() as deactivated,
        receiving() as others,
    ):
        endpoint = register(tournament, receiver.url, organizer)
        off = register(tournament, deactivated.url, organizer)
        webhook_deactivate(endpoint_id=off.id, user=organizer)
        register(other, others.url, organizer)
        play_through(tournament.id, worker)
        play_through(other.id, worker)

        wait_for(everything_delivered(endpoint, receiver), what="every delivery", log=worker.log)

        received = receiver.received()
        assert len(feed_positions(endpoint)) >= 5
        assert all(r.signed_by(SECRET) for r in received)
        assert {r.document["tournament"] for r in received} == {str(tournament.id)}
        by_delivery: dict[int, list[int]] = {}
        for request in received:
            by_delivery.setdefault(request.delivery, []).append(request.answered)
        assert all(answers[:3] == [500, 500, 200] for answers in by_delivery.values())
        assert set(endpoint.deliveries.values_list("attempts", flat=True)) == {3}
        wait_for(
            lambda: {r.document["tournament"] for r in others.accepted()} == {str(other.id)},
            what="the other tournament's deliveries",
            log=worker.log,
        )
        assert unregistered.received() == []
        assert deactivated.received() == []


def test_deliveries_fail_after_the_last_attempt_and_a_redelivery_reaches_the_receiver(
    worker: Worker, organizer: User
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    with receiving(always(500)) as receiver:
        endpoint = register(tournament, receiver.url, organizer)
        running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
        wait_for(
            lambda: (
                endpoint.deliveries.exists()
                and not endpoint.deliveries.exclude(status=DeliveryStatus.FAILED).exists()
            ),
            what="every delivery to fail",
            log=worker.log,
        )
        failed = list(endpoint.deliveries.order_by("position"))
        assert {(d.attempts, d.last_status) for d in failed} == {(4, 500)}
        assert len(receiver.received()) == 4 * len(failed)

        receiver.script = always(200)
        webhook_redeliver(delivery_ids=[d.id for d in failed], user=organizer)

        wait_for(everything_delivered(endpoint, receiver), what="the redeliveries", log=worker.log)
    assert sorted(r.position for r in receiver.accepted()) == [d.position for d in failed]


def test_the_catch_up_fans_out_and_sends_what_no_wake_up_did(
    worker: Worker, organizer: User, settings: Any
) -> None:
    settings.CELERY_WAKE_UPS = False  # the commits below send nothing: as if Redis lost it all
    tournament = TournamentFactory.create(entrants=2)
    with receiving() as receiver:
        endpoint = register(tournament, receiver.url, organizer)
        running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
        assert not endpoint.deliveries.exists()

        webhook_tasks.catch_up_webhooks.delay()

        wait_for(everything_delivered(endpoint, receiver), what="the catch-up", log=worker.log)
    assert len(receiver.accepted()) == endpoint.deliveries.count() > 0


def test_the_webhooks_catch_up_is_a_periodic_task() -> None:
    fields = app.conf.beat_schedule["tournaments-webhooks-catch-up"]

    assert fields["task"] == "tournaments.webhooks.catch_up" in app.tasks
    assert fields["schedule"] == 60.0
