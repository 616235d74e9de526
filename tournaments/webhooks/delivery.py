"""Sending one webhook delivery: claim it, POST the event signed, record the answer.

The body is `{"delivery": <id>, "tournament": "<uuid>", "event": <the feed document>}` (the event
as the public may read it: a dealt round's deck hidden), sent with `X-Briscola-Event`,
`X-Briscola-Delivery`, `X-Briscola-Timestamp` (unix seconds) and `X-Briscola-Signature:
sha256=<hex>`, the HMAC-SHA256 with the endpoint's secret of `<timestamp>.<body>`.

An attempt first claims the delivery (one UPDATE: attempts + 1, and its next attempt moved a
lease ahead), so two messages for the same delivery never send it at once, and a worker that dies
mid-attempt leaves it to be claimed again when the lease runs out. The host is resolved at each
attempt and every address it resolves to must be allowed (`webhook_addresses.address_allowed`,
the rule registration applies); the connection goes to the addresses that were checked (a
second lookup could answer others), and a redirect is an answer like any other: not followed.
2xx is delivered; anything else is retried after `WEBHOOK_BACKOFF_SECONDS` doubled per attempt,
until `WEBHOOK_MAX_ATTEMPTS`: failed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from games.eventstore.api import RecordedEvent, read_all
from games.feeds import feed_document
from games.matches.selectors import visible_event
from games.visibility import PUBLIC
from tournaments.models import DeliveryStatus, WebhookDelivery
from tournaments.webhooks.addresses import address_allowed

MAX_BACKOFF_SECONDS = 60 * 60
MAX_ERROR_LENGTH = 500
USER_AGENT = "briscola-tournaments-webhooks/1"


class DeliveryRefused(Exception):
    """The attempt was not made: the address is not allowed, or the event is gone."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one call did: the delivery's status after it, and when to try again (seconds) if
    it is still pending (None: nothing to schedule)."""

    status: str
    retry_in: float | None = None
    sent: bool = False


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The `X-Briscola-Signature` value: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">."""
    signed = str(timestamp).encode("ascii") + b"." + body
    return "sha256=" + hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


def lease() -> timedelta:
    """How long a claimed attempt may take before another may claim the delivery again."""
    return timedelta(seconds=60 + 3 * settings.WEBHOOK_TIMEOUT_SECONDS)


def backoff(attempts: int) -> float:
    """Seconds before the attempt after `attempts` failed ones."""
    delay: float = settings.WEBHOOK_BACKOFF_SECONDS * 2 ** max(attempts - 1, 0)
    return float(min(delay, MAX_BACKOFF_SECONDS))


# The claim.


def claim(delivery_id: int, now: datetime) -> WebhookDelivery | None:
    claimed = WebhookDelivery.objects.filter(
        id=delivery_id,
        status=DeliveryStatus.PENDING,
        next_attempt_at__lte=now,
        endpoint__active=True,
    ).update(attempts=F("attempts") + 1, next_attempt_at=now + lease())
    if not claimed:
        return None
    return WebhookDelivery.objects.select_related("endpoint").get(id=delivery_id)


def unclaimed(delivery_id: int, now: datetime) -> Attempt:
    """Why a delivery could not be claimed: gone, done, its endpoint deactivated (then it
    fails), or not due yet (then when it is)."""
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(id=delivery_id).first()
    if delivery is None:
        return Attempt(status="gone")
    if delivery.status != DeliveryStatus.PENDING:
        return Attempt(status=delivery.status)
    if not delivery.endpoint.active:
        WebhookDelivery.objects.filter(id=delivery_id, status=DeliveryStatus.PENDING).update(
            status=DeliveryStatus.FAILED, last_error="the endpoint was deactivated"
        )
        return Attempt(status=DeliveryStatus.FAILED)
    due = delivery.next_attempt_at or now
    return Attempt(status=DeliveryStatus.PENDING, retry_in=max((due - now).total_seconds(), 0.0))


# The request.


def event_at(position: int) -> RecordedEvent:
    found = read_all(after=position - 1, limit=1)
    if not found or found[0].global_position != position:
        raise DeliveryRefused(f"there is no event at position {position}")
    return visible_event(found[0], lambda _: PUBLIC)


def body_of(delivery: WebhookDelivery, event: RecordedEvent) -> bytes:
    document = {
        "delivery": delivery.id,
        "tournament": str(delivery.endpoint.tournament_id),
        "event": feed_document(event),
    }
    return json.dumps(document, separators=(",", ":")).encode("utf-8")


def connect_to_one(addresses: list[str], port: int, timeout: float | None) -> socket.socket:
    """A connection to the first of the checked addresses that answers (as a resolver's list
    is tried: IPv6 then IPv4, say)."""
    error: OSError = OSError("no address to connect to")
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as exc:
            error = exc
    raise error


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to addresses already checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, *, addresses: list[str], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.addresses = addresses

    def connect(self) -> None:
        self.sock = connect_to_one(self.addresses, self.port, self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to addresses already checked; the certificate is verified for the host's name."""

    def __init__(self, host: str, port: int, *, addresses: list[str], timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.addresses = addresses

    def connect(self) -> None:
        raw = connect_to_one(self.addresses, self.port, self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def allowed_addresses(host: str, port: int) -> list[str]:
    """The addresses the host resolves to now, if every one of them is allowed."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:  # UnicodeError: IDNA refuses the name
        raise DeliveryRefused(f"{host} does not resolve: {exc}") from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    refused = [address for address in addresses if not address_allowed(address)]
    if refused or not addresses:
        raise DeliveryRefused(f"{host} resolves to an address refused: {', '.join(refused)}")
    return addresses


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST `body` to `url` once (no redirect followed); the answer's status."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    addresses = allowed_addresses(host, port)
    kind = PinnedHTTPSConnection if https else PinnedHTTPConnection
    connection = kind(host, port, addresses=addresses, timeout=settings.WEBHOOK_TIMEOUT_SECONDS)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        try:
            connection.request("POST", target, body=body, headers=headers)
        except UnicodeEncodeError as exc:  # registered before such a URL was refused
            raise DeliveryRefused(f"the path and query are not ASCII: {exc}") from exc
        response = connection.getresponse()
        response.read(64 * 1024)
        return response.status
    finally:
        connection.close()


def send(delivery: WebhookDelivery, now: datetime) -> tuple[int | None, str]:
    """Make the request: the answer's status (None without one) and the error, if any."""
    try:
        event = event_at(delivery.position)
        body = body_of(delivery, event)
        timestamp = int(now.timestamp())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Briscola-Event": event.event_type,
            "X-Briscola-Delivery": str(delivery.id),
            "X-Briscola-Timestamp": str(timestamp),
            "X-Briscola-Signature": signature(delivery.endpoint.secret, timestamp, body),
        }
        status = post(delivery.endpoint.url, body, headers)
    except (DeliveryRefused, OSError, http.client.HTTPException) as exc:
        return None, (str(exc) or type(exc).__name__)[:MAX_ERROR_LENGTH]
    if 200 <= status < 300:
        return status, ""
    if 300 <= status < 400:
        return status, f"HTTP {status}: redirects are not followed"
    return status, f"HTTP {status}"


def record(delivery: WebhookDelivery, status: int | None, error: str) -> Attempt:
    now = timezone.now()
    fields: dict[str, Any] = {"last_status": status, "last_error": error}
    if not error:
        fields |= {"status": DeliveryStatus.DELIVERED, "delivered_at": now, "next_attempt_at": None}
        outcome = Attempt(status=DeliveryStatus.DELIVERED, sent=True)
    elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        fields |= {"status": DeliveryStatus.FAILED, "next_attempt_at": None}
        outcome = Attempt(status=DeliveryStatus.FAILED, sent=True)
    else:
        delay = backoff(delivery.attempts)
        fields["next_attempt_at"] = now + timedelta(seconds=delay)
        outcome = Attempt(status=DeliveryStatus.PENDING, retry_in=delay, sent=True)
    WebhookDelivery.objects.filter(id=delivery.id, attempts=delivery.attempts).update(**fields)
    return outcome


def attempt_delivery(delivery_id: int) -> Attempt:
    """Attempt the delivery if it is due: send it and record the answer."""
    now = timezone.now()
    delivery = claim(delivery_id, now)
    if delivery is None:
        return unclaimed(delivery_id, now)
    status, error = send(delivery, now)
    return record(delivery, status, error)


def due_deliveries(*, now: datetime, limit: int = 500) -> list[int]:
    """Pending deliveries whose next attempt is due (a retry whose message was lost, an attempt
    whose worker died): what the catch-up sends again."""
    return list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at__lte=now, endpoint__active=True
        )
        .order_by("next_attempt_at")
        .values_list("id", flat=True)[:limit]
    )


def delivered_pruned(*, now: datetime) -> int:
    """Forget the deliveries answered 2xx more than `WEBHOOK_DELIVERED_KEPT_DAYS` ago (the
    failed and pending ones stay until an organizer sees to them); returns how many."""
    before = now - timedelta(days=float(settings.WEBHOOK_DELIVERED_KEPT_DAYS))
    old = WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED, delivered_at__lt=before)
    deleted, _ = old.delete()
    return deleted
