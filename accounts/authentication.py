"""`Authorization: Token KEY` for both kinds of key the API accepts.

- A device token (`dt_...`, `accounts.models.DeviceToken`): looked up by the key's hash; refused
  once expired or revoked. `request.auth` is the token row, so a view can tell which device is
  writing and, with the token's tournament and tables, what it may score.
- A user token (`rest_framework.authtoken`, 40 hexadecimal digits, from `manage.py issue_token`):
  as DRF's own `TokenAuthentication` checks it; `request.auth` is the `Token` row.

Every refusal is a 401 `authentication_failed`, with a detail saying why.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import credentials, selectors, services
from accounts.keys import is_device_key
from accounts.models import DeviceToken, DeviceTokenState
from accounts.throttling import FailedTokenThrottle

# Lazy: each says itself in the request's language when DRF turns it into a response.
INVALID_TOKEN = gettext_lazy("Invalid token.")
INACTIVE_USER = gettext_lazy("User inactive or deleted.")
TOKEN_EXPIRED = gettext_lazy("This device token has expired: ask the organizer for a new one.")
TOKEN_REVOKED = gettext_lazy("This device token was revoked: ask the organizer for a new one.")


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, which also accepts device tokens. Failures are counted per
    client address (`FailedTokenThrottle`): past the sign-in rate they are 429 `throttled`."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            throttle = FailedTokenThrottle()
            if throttle.failed(request):
                raise exceptions.Throttled(throttle.wait()) from None
            raise

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """The user and token row of `key`: from this process's recent checks while the
        credentials generation stands (`accounts.credentials`), else looked up."""
        generation = credentials.current_generation()
        if generation is not None:
            found = credentials.recent.get(key, generation)
            if found is not None:
                user, token = found
                if isinstance(token, DeviceToken):
                    device_token_checked(token)
                    credentials.recent.update_auth(key, last_used_at=token.last_used_at)
                return user, token
        if is_device_key(key):
            user, token = device_token_credentials(key)
        else:
            user, token = super().authenticate_credentials(key)
        if generation is not None:
            credentials.recent.put(key, (user, token), generation)
        return user, token


def device_token_credentials(key: str) -> tuple[Any, DeviceToken]:
    token = selectors.device_token_by_key(key=key)
    if token is None:
        raise exceptions.AuthenticationFailed(INVALID_TOKEN)
    device_token_checked(token)
    return token.user, token


def device_token_checked(token: DeviceToken) -> None:
    """Refuse a revoked or expired token, or its inactive user; note its use."""
    now = timezone.now()
    state = token.state_at(now)
    if state == DeviceTokenState.REVOKED:
        raise exceptions.AuthenticationFailed(TOKEN_REVOKED)
    if state == DeviceTokenState.EXPIRED:
        raise exceptions.AuthenticationFailed(TOKEN_EXPIRED)
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed(INACTIVE_USER)
    services.device_token_mark_used(token=token, now=now)
