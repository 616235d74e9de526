"""One delivery attempt, made in this process to a receiver on the loopback: the body and its
signature, the answer recorded, the backoff, failure after the last attempt and redelivery,
redirects not followed, private addresses refused when the setting is off."""

import ssl
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games.eventstore.api import read_stream
from games.feeds import feed_document
from games.matches import services as match_services
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.webhooks.receiver import (
    Receiver,
    always,
    failing_first,
    receiving,
    redirecting_to,
    self_signed,
    server_context,
)
from tournaments.models import DeliveryStatus, Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.selectors.feed import tournament_feed
from tournaments.services import running
from tournaments.webhooks import fanout
from tournaments.webhooks.delivery import attempt_delivery, delivered_pruned
from tournaments.webhooks.services import (
    WebhookDeliveryNotFailed,
    webhook_deactivate,
    webhook_redeliver,
    webhook_register,
)

pytestmark = pytest.mark.django_db

SECRET = "a-secret-of-the-club-for-tests"


@pytest.fixture
def organizer() -> User:
    return UserFactory.create(is_superuser=True)


@pytest.fixture(autouse=True)
def immediate_retries(settings: Any) -> None:
    """Each failed attempt is due again at once (the worker tests wait out the backoff)."""
    settings.WEBHOOK_BACKOFF_SECONDS = 0
    settings.WEBHOOK_MAX_ATTEMPTS = 3


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as listening:
        yield listening


def started_with_endpoint(url: str, organizer: User) -> tuple[Tournament, WebhookEndpoint]:
    tournament = TournamentFactory.create(entrants=2)
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url=url, user=organizer, secret=SECRET
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    return tournament, endpoint


def attempt_all(endpoint: WebhookEndpoint) -> list[str]:
    """Attempt every pending delivery of the endpoint until none is pending (or 20 rounds)."""
    statuses: list[str] = []
    for _ in range(20):
        pending = endpoint.deliveries.filter(status=DeliveryStatus.PENDING).order_by("position")
        if not pending:
            break
        statuses.extend(attempt_delivery(delivery.id).status for delivery in pending)
    return statuses


def test_each_event_is_posted_signed_with_its_delivery_id_and_the_public_feed_document(
    receiver: Receiver, organizer: User
) -> None:
    tournament, endpoint = started_with_endpoint(receiver.url, organizer)
    fanout.fan_out()

    attempt_all(endpoint)

    feed = tournament_feed(tournament_id=tournament.id, after=endpoint.after_position)
    received = receiver.accepted()
    assert [r.position for r in received] == [event.global_position for event in feed]
    assert all(r.signed_by(SECRET) and not r.signed_by(SECRET + "x") for r in received)
    first = received[0]
    assert first.path == "/hooks/briscola"
    assert first.headers["Content-Type"] == "application/json"
    assert first.headers["X-Briscola-Event"] == feed[0].event_type
    assert first.document == {
        "delivery": first.delivery,
        "tournament": str(tournament.id),
        "event": feed_document(feed[0]),
    }
    assert first.headers["X-Briscola-Timestamp"].isdigit()
    assert set(endpoint.deliveries.values_list("status", flat=True)) == {"delivered"}


def test_a_failed_attempt_is_recorded_and_retried_until_the_receiver_answers(
    organizer: User,
) -> None:
    with receiving(failing_first(2)) as receiver:
        _, endpoint = started_with_endpoint(receiver.url, organizer)
        fanout.fan_out()
        delivery = endpoint.deliveries.order_by("position").first()
        assert delivery is not None

        first, second, third = (attempt_delivery(delivery.id) for _ in range(3))

    assert (first.status, second.status, third.status) == ("pending", "pending", "delivered")
    assert first.retry_in == 0
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status, delivery.last_error) == (3, 200, "")
    assert delivery.delivered_at is not None
    assert [r.answered for r in receiver.received()] == [500, 500, 200]


def test_after_the_last_attempt_a_delivery_fails_and_a_redelivery_sends_it_again(
    organizer: User,
) -> None:
    with receiving(always(503)) as receiver:
        _, endpoint = started_with_endpoint(receiver.url, organizer)
        fanout.fan_out()
        delivery = endpoint.deliveries.order_by("position").first()
        assert delivery is not None
        outcomes = [attempt_delivery(delivery.id).status for _ in range(4)]
        delivery.refresh_from_db()
        assert outcomes == ["pending", "pending", "failed", "failed"]
        assert (delivery.status, delivery.attempts) == ("failed", 3)
        assert (delivery.last_status, delivery.last_error) == (503, "HTTP 503")

        receiver.script = always(204)
        webhook_redeliver(delivery_ids=[delivery.id], user=organizer)
        outcome = attempt_delivery(delivery.id)

    delivery.refresh_from_db()
    assert outcome.status == "delivered"
    assert (delivery.status, delivery.attempts, delivery.last_status) == ("delivered", 1, 204)
    assert len(receiver.received()) == 4
    with pytest.raises(WebhookDeliveryNotFailed):
        webhook_redeliver(delivery_ids=[delivery.id], user=organizer)


def test_deliveries_answered_long_ago_are_forgotten_and_the_failed_ones_kept(
    receiver: Receiver, organizer: User
) -> None:
    _, endpoint = started_with_endpoint(receiver.url, organizer)
    fanout.fan_out()
    attempt_all(endpoint)
    delivered = list(endpoint.deliveries.order_by("position"))
    assert {d.status for d in delivered} == {DeliveryStatus.DELIVERED}
    failed = delivered[-1]
    WebhookDelivery.objects.filter(id=failed.id).update(status=DeliveryStatus.FAILED)
    answered = max(d.delivered_at for d in delivered if d.delivered_at is not None)

    kept = delivered_pruned(now=answered + timedelta(days=29))
    forgotten = delivered_pruned(now=answered + timedelta(days=31))

    assert kept == 0
    assert forgotten == len(delivered) - 1
    assert list(endpoint.deliveries.values_list("id", flat=True)) == [failed.id]


def test_a_redirect_is_not_followed(organizer: User) -> None:
    with receiving() as elsewhere, receiving(redirecting_to(elsewhere.url)) as receiver:
        _, endpoint = started_with_endpoint(receiver.url, organizer)
        fanout.fan_out()
        statuses = attempt_all(endpoint)

    assert "delivered" not in statuses
    assert elsewhere.received() == []
    assert set(endpoint.deliveries.values_list("status", "last_status", "last_error")) == {
        ("failed", 302, "HTTP 302: redirects are not followed")
    }


def test_a_private_address_is_refused_at_delivery_when_the_setting_is_off(
    receiver: Receiver, organizer: User, settings: Any
) -> None:
    url = receiver.url.replace("127.0.0.1", "localhost")
    _, endpoint = started_with_endpoint(url, organizer)
    fanout.fan_out()
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False

    attempt_all(endpoint)

    assert receiver.received() == []
    errors = set(endpoint.deliveries.values_list("status", "last_status", "last_error"))
    ((status, answer, error),) = errors
    assert (status, answer) == ("failed", None)
    assert error.startswith("localhost resolves to an address refused: ")


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("http://hooks..example.org/", "label empty or too long"),
        ("http://127.0.0.1:9/città", "'ascii' codec can't encode"),
    ],
)
def test_an_address_registered_before_it_was_refused_fails_with_its_error_after_the_attempts(
    receiver: Receiver, organizer: User, url: str, error: str
) -> None:
    _, endpoint = started_with_endpoint(receiver.url, organizer)
    WebhookEndpoint.objects.filter(id=endpoint.id).update(url=url)
    fanout.fan_out()

    statuses = attempt_all(endpoint)

    assert statuses[-1] == "failed"
    ((status, answer, attempts, last_error),) = set(
        endpoint.deliveries.values_list("status", "last_status", "attempts", "last_error")
    )
    assert (status, answer, attempts) == ("failed", None, 3)
    assert error in last_error
    assert receiver.received() == []


def test_a_deactivated_endpoint_is_sent_nothing_more(receiver: Receiver, organizer: User) -> None:
    _, endpoint = started_with_endpoint(receiver.url, organizer)
    fanout.fan_out()
    webhook_deactivate(endpoint_id=endpoint.id, user=organizer)

    statuses = [attempt_delivery(d.id).status for d in WebhookDelivery.objects.all()]

    assert set(statuses) == {"failed"}
    assert receiver.received() == []
    with pytest.raises(WebhookDeliveryNotFailed):
        webhook_redeliver(
            delivery_ids=list(endpoint.deliveries.values_list("id", flat=True)), user=organizer
        )


def trusting(certificate: Path) -> Callable[[], ssl.SSLContext]:
    """`ssl.create_default_context` as on a machine whose trusted authorities hold the test's."""
    default_context = ssl.create_default_context
    return lambda: default_context(cafile=str(certificate))


def test_https_goes_to_the_checked_address_and_verifies_the_certificate_for_the_host_name(
    organizer: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    certificate, key = self_signed(tmp_path, "localhost")
    monkeypatch.setattr(ssl, "create_default_context", trusting(certificate))
    with receiving(tls=server_context(certificate, key)) as receiver:
        url = f"https://localhost:{receiver.port}/hooks/briscola"
        _, endpoint = started_with_endpoint(url, organizer)
        fanout.fan_out()

        statuses = attempt_all(endpoint)

    assert set(statuses) == {"delivered"}
    assert all(r.signed_by(SECRET) for r in receiver.accepted())


def test_https_with_a_certificate_for_another_name_is_not_delivered(
    organizer: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    certificate, key = self_signed(tmp_path, "elsewhere.test")
    monkeypatch.setattr(ssl, "create_default_context", trusting(certificate))
    with receiving(tls=server_context(certificate, key)) as receiver:
        _, endpoint = started_with_endpoint(f"https://localhost:{receiver.port}/", organizer)
        fanout.fan_out()

        attempt_all(endpoint)

    assert receiver.received() == []
    ((status, error),) = set(endpoint.deliveries.values_list("status", "last_error"))
    assert status == "failed"
    assert "CERTIFICATE_VERIFY_FAILED" in error


def test_a_dealt_rounds_deck_is_not_sent(receiver: Receiver, organizer: User) -> None:
    tournament, endpoint = started_with_endpoint(receiver.url, organizer)
    (fixture,) = tournament.fixtures.all()
    match_services.round_start(
        match_id=fixture.match_id, briscola=None, deal="server", actor=ORGANIZER
    )
    fanout.fan_out()

    attempt_all(endpoint)

    (started,) = [
        r.document["event"]
        for r in receiver.accepted()
        if r.headers["X-Briscola-Event"] == "RoundStarted"
    ]
    stored = read_stream(stream_id=fixture.match_id)[-1]
    assert stored.event_type == "RoundStarted"
    assert stored.payload["deck"] is not None
    assert started["payload"]["deck"] is None
    assert {k: v for k, v in started["payload"].items() if k != "deck"} == {
        k: v for k, v in stored.payload.items() if k != "deck"
    }
