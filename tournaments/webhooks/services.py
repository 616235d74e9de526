"""Outgoing webhooks: organizers register the addresses a tournament's events are sent to.

An endpoint receives the events recorded after its registration (its `after_position`, the
log's head read while holding the fan-out's checkpoint row, so the fan-out neither skips nor
repeats an event for it). Only http and https addresses without credentials are taken; a
literal private, loopback or link-local address is refused unless the setting
`WEBHOOKS_ALLOW_PRIVATE_ADDRESSES` is on, and every delivery checks the resolved addresses again
(`tournaments.webhooks.delivery`). See docs/decisions/0039-outgoing-webhooks.md.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import unicodedata
from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.permissions import Place, is_organizer
from games.eventstore.api import last_position
from tournaments.errors import TournamentError, TournamentNotFound
from tournaments.models import (
    Checkpoint,
    DeliveryStatus,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.selectors.access import tournament_not_found
from tournaments.webhooks.addresses import address_allowed

FAN_OUT = "webhooks"
"""The fan-out consumer's checkpoint name (`tournaments.webhooks.fanout`)."""

MIN_SECRET_LENGTH = 16
MAX_SECRET_LENGTH = 200
MAX_URL_LENGTH = 2000

deliveries_due = Signal()
"""Sent after a commit with `delivery_ids`: deliveries to attempt now (a redelivery)."""


class WebhookError(TournamentError):
    code = "webhook_error"


class WebhookUrlInvalid(WebhookError):
    code = "webhook_url_invalid"


class WebhookAddressRefused(WebhookError):
    code = "webhook_address_refused"


class WebhookSecretInvalid(WebhookError):
    code = "webhook_secret_invalid"


class WebhookForbidden(WebhookError):
    code = "webhook_forbidden"


class WebhookNotFound(WebhookError):
    code = "webhook_not_found"


class WebhookDeliveryNotFailed(WebhookError):
    code = "webhook_delivery_not_failed"


# Addresses.


def literal_address(host: str) -> str | None:
    """The host as an IP address when it is written as one, else None. The numeric forms the
    resolver reads as IPv4 (`2130706433`, `127.1`, `0x7f.0.0.1`, `0177.1`) count as written."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    try:
        return str(ipaddress.IPv4Address(socket.inet_aton(host)))
    except OSError:  # a name
        return None


def checked_url(url: str) -> str:
    """The URL if an endpoint may have it; WebhookUrlInvalid or WebhookAddressRefused if not.

    Only a URL that can be delivered is taken: http.client sends the path and query as they are
    written, in ASCII, and the host name goes to the resolver through IDNA, so what either would
    refuse at every attempt is refused here, with what is wrong."""
    url = url.strip()
    if not url or len(url) > MAX_URL_LENGTH:
        raise WebhookUrlInvalid.because(
            gettext_noop("a webhook address is an http(s) URL of %(most)s characters or less"),
            most=MAX_URL_LENGTH,
        )
    # Before splitting: urlsplit drops tabs and line breaks silently, http.client does not.
    if any(unicodedata.category(character)[0] in "CZ" for character in url):
        raise WebhookUrlInvalid.because(
            gettext_noop("a webhook address has no spaces or control characters")
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # an unclosed or invalid [IPv6] host, or a port out of range
        raise WebhookUrlInvalid.because(
            gettext_noop("a webhook address is an http or https URL")
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookUrlInvalid.because(gettext_noop("a webhook address is an http or https URL"))
    if parts.username is not None or parts.password is not None:
        raise WebhookUrlInvalid.because(
            gettext_noop(
                "a webhook address carries no credentials: the signature proves the sender"
            )
        )
    if port == 0:
        raise WebhookUrlInvalid.because(gettext_noop("the webhook address's port is not valid"))
    if not (parts.path + parts.query).isascii():
        raise WebhookUrlInvalid.because(
            gettext_noop(
                "a webhook address's path and query are ASCII: write other characters "
                "percent-encoded"
            )
        )
    host = parts.hostname
    literal = literal_address(host)
    if literal is None and not resolvable_name(host):
        raise WebhookUrlInvalid.because(
            gettext_noop("the webhook address's host name is not valid (%(host)s)"), host=host
        )
    name = host.removesuffix(".")
    private_name = name == "localhost" or name.endswith(".localhost")
    if (literal is not None and not address_allowed(literal)) or (
        private_name and not settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES
    ):
        raise WebhookAddressRefused.because(
            gettext_noop("webhooks go to no private, loopback or link-local address (%(host)s)"),
            host=host,
        )
    return url


def resolvable_name(host: str) -> bool:
    """Whether the resolver can be asked for this name: IDNA, which `socket.getaddrinfo` applies
    to it, refuses an empty label or one over 63 characters."""
    try:
        host.encode("idna")
    except UnicodeError:
        return False
    return True


# Who may.


def is_tournament_organizer(user: Any, tournament: Tournament) -> bool:
    """The rule the API's permissions apply: a superuser, or an organizer of the tournament or
    of its club (signed in and active)."""
    if user is None:
        return False
    place = Place(
        not_found=tournament_not_found(tournament.id),
        tournament_id=tournament.id,
        club_id=tournament.club_id,
        public=tournament.public,
    )
    return is_organizer(user, place)


def organized_tournament(tournament_id: UUID, user: Any) -> Tournament:
    tournament = Tournament.objects.filter(id=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    if not is_tournament_organizer(user, tournament):
        raise WebhookForbidden.because(
            gettext_noop("only the tournament's organizers manage its webhooks")
        )
    return tournament


def checked_secret(secret: str | None) -> str:
    if not secret:
        return secrets.token_urlsafe(32)
    if not MIN_SECRET_LENGTH <= len(secret) <= MAX_SECRET_LENGTH:
        raise WebhookSecretInvalid.because(
            gettext_noop("a webhook secret has %(least)s to %(most)s characters"),
            least=MIN_SECRET_LENGTH,
            most=MAX_SECRET_LENGTH,
        )
    return secret


# The services.


def locked_fan_out_checkpoint() -> Checkpoint:
    """The fan-out's checkpoint row, locked until the transaction ends (made at the log's head
    the first time: no endpoint existed before it)."""
    Checkpoint.objects.get_or_create(name=FAN_OUT, defaults={"position": last_position()})
    return Checkpoint.objects.select_for_update().get(name=FAN_OUT)


def webhook_register(
    *, tournament_id: UUID, url: str, user: Any, secret: str | None = None
) -> tuple[WebhookEndpoint, str]:
    """Register an address for the tournament's events recorded from now on; returns the
    endpoint and its secret (generated when none is given: shown this once)."""
    tournament = organized_tournament(tournament_id, user)
    url = checked_url(url)
    secret = checked_secret(secret)
    with transaction.atomic():
        # Taken while the fan-out cannot be between reading the endpoints and moving its
        # checkpoint: every event after the head read here is fanned out to the new endpoint.
        locked_fan_out_checkpoint()
        endpoint = WebhookEndpoint.objects.create(
            tournament=tournament,
            url=url,
            secret=secret,
            created_by=user if user.is_authenticated else None,
            created_at=timezone.now(),
            after_position=last_position(),
        )
    return endpoint, secret


def webhook_deactivate(
    *, endpoint_id: int, user: Any, tournament_id: UUID | None = None
) -> WebhookEndpoint:
    """Send the endpoint nothing more: its pending deliveries fail, none is added. With
    `tournament_id`, the endpoint must be that tournament's (an address in its path)."""
    endpoints = WebhookEndpoint.objects.select_related("tournament").filter(id=endpoint_id)
    if tournament_id is not None:
        endpoints = endpoints.filter(tournament_id=tournament_id)
    endpoint = endpoints.first()
    if endpoint is None:
        raise WebhookNotFound.because(
            gettext_noop("there is no webhook endpoint %(endpoint)s"), endpoint=endpoint_id
        )
    organized_tournament(endpoint.tournament_id, user)
    with transaction.atomic():
        if endpoint.active:
            endpoint.active = False
            endpoint.save(update_fields=["active"])
        endpoint.deliveries.filter(status=DeliveryStatus.PENDING).update(
            status=DeliveryStatus.FAILED, last_error="the endpoint was deactivated"
        )
    return endpoint


def webhook_redeliver(*, delivery_ids: Collection[int], user: Any) -> list[WebhookDelivery]:
    """Attempt failed deliveries again, from their first attempt (to an active endpoint)."""
    deliveries = list(
        WebhookDelivery.objects.select_related("endpoint__tournament")
        .filter(id__in=delivery_ids)
        .order_by("position", "id")
    )
    if len(deliveries) != len(set(delivery_ids)):
        raise WebhookNotFound.because(gettext_noop("there is no such webhook delivery"))
    for delivery in deliveries:
        organized_tournament(delivery.endpoint.tournament_id, user)
        if delivery.status != DeliveryStatus.FAILED or not delivery.endpoint.active:
            raise WebhookDeliveryNotFailed.because(
                gettext_noop("only a failed delivery to an active endpoint is sent again (%(id)s)"),
                id=delivery.id,
            )
    now = timezone.now()
    with transaction.atomic():
        for delivery in deliveries:
            delivery.status = DeliveryStatus.PENDING
            delivery.attempts = 0
            delivery.next_attempt_at = now
            delivery.save(update_fields=["status", "attempts", "next_attempt_at"])
        ids = [delivery.id for delivery in deliveries]
        transaction.on_commit(
            lambda: deliveries_due.send(sender=WebhookDelivery, delivery_ids=ids), robust=True
        )
    return deliveries
