"""Who acts on an API request: the user, the device they score on, and why (the `Actor` each
service records on its events)."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from accounts.models import DeviceToken
from common.actors import Actor
from common.api.commands import DEVICE_HEADER
from common.observability import current_request_id

DEVICE_MAX_LENGTH = 64
HEADER_CONTROL_CHARACTERS = frozenset(map(chr, [*range(0x09), *range(0x0A, 0x20), 0x7F]))
"""What RFC 9110 does not allow in a header's value (a tab is allowed)."""
TOKEN_PREFIX_LENGTH = 8


def request_actor(request: Request, *, reason: str | None = None) -> Actor:
    """The authenticated user, the device they score on, and why (for voids, corrections...)."""
    return Actor(
        user_id=request.user.pk,
        device=device_of(request),
        reason=reason or None,
        correlation_id=current_request_id(),
    )


def header_text(value: str) -> str:
    """A header's text as its sender wrote it: WSGI hands a header's bytes over as Latin-1, and
    a phone writes a device name such as "Sala Città" in UTF-8. Bytes that are not UTF-8 stay as
    they came."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def device_of(request: Request) -> str | None:
    """The `X-Device` header, else the token's first characters: enough to tell devices apart
    in the event log without recording a usable secret. None for a browser session. A name
    with characters HTTP does not allow in a header is refused: PostgreSQL's JSON cannot hold a
    NUL, and the log is read by people."""
    named = header_text(request.headers.get(DEVICE_HEADER, "")).strip()
    if any(char in HEADER_CONTROL_CHARACTERS for char in named):
        raise serializers.ValidationError(
            {DEVICE_HEADER: [gettext("a device name cannot hold control characters")]}
        )
    if named:
        return named[:DEVICE_MAX_LENGTH]
    if isinstance(request.auth, DeviceToken):
        return request.auth.prefix
    if isinstance(request.auth, Token):
        return f"token:{request.auth.key[:TOKEN_PREFIX_LENGTH]}"
    return None
