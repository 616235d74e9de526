"""`Authorization: Token pk_…`: a player's key (issue 26, decision records 0053 and 0055).

A player key is no account: the request's user stays anonymous and `request.auth` is the key's
`PlayerPass` (its tournament and application), which the permissions confine to that tournament
(`accounts.permissions.player_pass_refusal`) and the player's endpoints (`/me/`) to that entry.
Any other `Token` goes on to the accounts' token authentication, which comes after this one.

A key that is not known is refused 401 `authentication_failed`; a revoked one 401
`player_key_revoked`, so the player's page can say to ask the organizer for a new one. Failures
are counted per client address, as for every token (`FailedTokenThrottle`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.authentication import INVALID_TOKEN
from accounts.keys import hash_key
from accounts.permissions import PlayerPass
from accounts.throttling import FailedTokenThrottle
from tournaments.models import PlayerKey
from tournaments.models.signup import PLAYER_KEY_PREFIX

KEYWORD = "Token"
PLAYER_KEY_REVOKED = "player_key_revoked"
KEY_REVOKED = gettext_lazy("This player key was revoked: ask the organizer for a new one.")


class PlayerKeyAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, PlayerPass] | None:
        key = player_key_sent(request)
        if key is None:
            return None
        try:
            return AnonymousUser(), player_pass(key)
        except exceptions.AuthenticationFailed:
            throttle = FailedTokenThrottle()
            if throttle.failed(request):
                raise exceptions.Throttled(throttle.wait()) from None
            raise

    def authenticate_header(self, request: Request) -> str:  # noqa: ARG002 - DRF's signature
        return KEYWORD


def player_key_sent(request: Request) -> str | None:
    """The player key of the request's `Authorization: Token pk_…`; None for anything else."""
    words = authentication.get_authorization_header(request).split()
    if len(words) != 2 or words[0].lower() != KEYWORD.lower().encode():
        return None
    try:
        key = words[1].decode()
    except UnicodeError:
        return None
    return key if key.startswith(PLAYER_KEY_PREFIX) else None


def player_pass(key: str) -> PlayerPass:
    """What the key opens; AuthenticationFailed when it is unknown or revoked."""
    row = (
        PlayerKey.objects.filter(key_hash=hash_key(key))
        .select_related("application")
        .only("prefix", "revoked_at", "application__id", "application__tournament_id")
        .first()
    )
    if row is None:
        raise exceptions.AuthenticationFailed(INVALID_TOKEN)
    if row.revoked_at is not None:
        raise exceptions.AuthenticationFailed(KEY_REVOKED, code=PLAYER_KEY_REVOKED)
    return PlayerPass(
        tournament_id=row.application.tournament_id,
        application_id=row.application.id,
        prefix=row.prefix,
    )


class PlayerKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The player key in the API's schema (drf-spectacular finds it by the class's path)."""

    target_class = "tournaments.api.authentication.PlayerKeyAuthentication"
    name = "playerKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:  # noqa: ARG002 - the hook's signature
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": f"`{KEYWORD} pk_…`: a player's key, for their own entry (`/me/`) "
            "and reading their tournament.",
        }
