"""How often a client may call the API, counted in the shared cache (Redis in every deployed
environment, so all gunicorn workers and machines count together).

- `AnonymousRateThrottle` (scope `anon`): requests without credentials, per client address.
- `ClientRateThrottle` (scope `user`): authenticated requests, per device token when the request
  came with one (each tablet its own budget, even when an organizer issued several for one
  scorer), else per user (a user token or a browser session); and a player key's, per key (the
  players of a club share its one address: decision record 0055).
- `LoginRateThrottle` (scope `login`): failed sign-ins per client address, for the sign-in
  forms (accounts.login) and any future endpoint that hands out tokens; a successful sign-in
  is never counted.

The first two are the API's default throttle classes (settings `REST_FRAMEWORK`), so every API
view has them. Rates come from `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` when the throttle is
made (at every request), not when this module was imported, so `override_settings` works; a rate
of None switches a scope off. A refusal is DRF's `Throttled`: 429 `throttled` with `Retry-After`
(common/exceptions.py). The client address is DRF's: `REMOTE_ADDR`, or the address the
`NUM_PROXIES`-th proxy saw, from `X-Forwarded-For`. See docs/decisions/0014-throttling.md.
"""

from __future__ import annotations

import logging
import math
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from redis.exceptions import RedisError
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings
from typing_extensions import override

from accounts.models import DeviceToken
from accounts.permissions import PlayerPass
from common.cache import RedisUnavailable

logger = logging.getLogger(__name__)


def client_address(request: HttpRequest | Request) -> str:
    """Who sent the request, as the throttles count it (see the module's docstring). DRF's
    `get_ident` reads only `META`, which a Django request has too."""
    return throttling.BaseThrottle().get_ident(cast(Request, request))


class SettingsRateThrottle(throttling.SimpleRateThrottle):
    """DRF's sliding-window throttle, with three changes:

    - the rate is read from the settings now (DRF reads them once, when it is imported);
    - when the cache cannot be reached, the request is let through and the failure logged: a
      scorer must keep scoring while Redis restarts, and nothing else would stop them anyway;
    - a refusal always says how long to wait (DRF's estimate is None once the window holds more
      requests than the rate allows, for example right after the rate was lowered).
    """

    num_requests: int | None
    duration: int | None

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"no throttle rate for the scope {self.scope!r}")
        rate = rates[self.scope]
        return None if rate is None else str(rate)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except RedisUnavailable:
            return True  # the cache failed moments ago, which was logged then
        except RedisError as error:
            logger.warning(
                "throttle %s let a request through: the cache failed: %s", self.scope, error
            )
            return True

    def wait(self) -> float:
        estimate = super().wait()
        if estimate is None:
            oldest = self.history[-1] if self.history else self.now
            estimate = (self.duration or 0) - (self.now - oldest)
        return max(1, math.ceil(estimate))


class AnonymousRateThrottle(SettingsRateThrottle):
    """Requests without credentials, per client address. Authenticated ones are left to
    `ClientRateThrottle`."""

    scope = "anon"

    @override
    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if (request.user and request.user.is_authenticated) or isinstance(request.auth, PlayerPass):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ClientRateThrottle(SettingsRateThrottle):
    """Authenticated requests, per device token or else per user. Anonymous ones are left to
    `AnonymousRateThrottle`."""

    scope = "user"

    @override
    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if isinstance(request.auth, PlayerPass):
            ident = f"player-{request.auth.application_id}"
            return self.cache_format % {"scope": self.scope, "ident": ident}
        if not (request.user and request.user.is_authenticated):
            return None
        if isinstance(request.auth, DeviceToken):
            ident = f"device-{request.auth.pk}"
        else:
            ident = f"user-{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginRateThrottle(SettingsRateThrottle):
    """Failed sign-ins per client address: `failed` counts one, `over_budget` asks before a
    password is checked without counting anything, so a successful sign-in costs nothing. Works
    on a Django request too, for the sign-in forms."""

    scope = "login"

    @override
    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def failed(self, request: Any) -> None:
        """Count one failed sign-in (past the budget, the failure is not stored)."""
        self.allow_request(request, None)

    def over_budget(self, request: Any) -> bool:
        """Whether the address already has as many failures in the window as the rate allows
        (`wait` then says for how long); False when the cache cannot be reached."""
        if self.rate is None or self.num_requests is None or self.duration is None:
            return False
        try:
            history = self.cache.get(self.get_cache_key(request, None), [])
        except RedisUnavailable:
            return False  # the cache failed moments ago, which was logged then
        except RedisError as error:
            logger.warning("throttle %s not checked: the cache failed: %s", self.scope, error)
            return False
        self.now = self.timer()
        self.history = [moment for moment in history if moment > self.now - self.duration]
        return len(self.history) >= self.num_requests


class TokenIssueThrottle(ClientRateThrottle):
    """Device tokens issued (scope `token`), per user: stricter than other writes, since each
    one is a new key to the API. Reads of the same endpoint are left to the default throttles."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method != "POST":
            return None
        return super().get_cache_key(request, view)


class FailedTokenThrottle(SettingsRateThrottle):
    """Failed token sign-ins per client address (scope `login`). A request with a valid key
    costs nothing here; one with a wrong, expired or revoked key is counted, and past the rate
    the answer is 429 instead of 401, so a flood of made-up keys is slowed like failed sign-ins
    at the admin's form."""

    scope = "login"
    cache_format = "throttle_failed_token_%(ident)s"

    @override
    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"ident": self.get_ident(request)}

    def failed(self, request: Any) -> bool:
        """Count one failure; whether the address is now past its budget."""
        return not self.allow_request(request, None)
