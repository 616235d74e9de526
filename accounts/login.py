"""Sign-in lockout: after repeated failed sign-ins for one username from one client address, for
one username from anywhere, or from one client address, sign-in is refused there for a
cool-down.

- Every failed `authenticate()` (Django's `user_login_failed` signal, whichever form or endpoint
  asked) counts one failure against the username at the client address, one against the
  username, and one against the address, in the shared cache, for `LOGIN_FAILURE_WINDOW`
  seconds from the first failure.
- A username with `LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS` failures (5) from one address is
  locked at that address only: a stranger guessing from elsewhere does not lock the organizer
  out of their own device. A username with `LOGIN_FAILURES_PER_USERNAME` failures (50) from
  anywhere is locked everywhere: the ceiling against guessing spread over many addresses. An
  address with `LOGIN_FAILURES_PER_ADDRESS` failures (20), whatever the usernames, is locked
  for every username. A lock holds for `LOGIN_LOCKOUT_SECONDS`; its count starts again from zero
  after that.
- While locked, the admin's login form (`LockoutAdminAuthenticationForm`) refuses before it checks
  any password, so the right password is refused too, with a message saying for how long; it
  refuses the same way an address that used up its `login` rate of failed sign-ins
  (`accounts.throttling.LoginRateThrottle`). `with_refusal_status` turns such a refusal into a
  429 with `Retry-After`; config.urls installs both on the admin site.
- A successful sign-in never counts as a failure, nor against the `login` rate; it
  (`user_logged_in`) forgets its username's failures at its address, not the username's
  failures elsewhere (the organizer signing in says nothing about who guessed from other
  addresses) nor its address's.

Usernames count case-insensitively (whether or not the database compares them so); usernames
and addresses appear in cache keys only hashed. Unknown usernames count and lock like known ones,
so the answers tell nothing about which accounts exist. When the cache cannot be reached nothing
is counted or refused (logged): the organizers must still be able to sign in.

The receivers are connected when this module is imported, which config.urls does before any
sign-in form can be shown. See docs/decisions/0014-throttling.md and
docs/decisions/0033-own-sign-in-lockout-not-django-axes.md.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, user_logged_in, user_login_failed
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.translation import gettext, ngettext
from redis.exceptions import RedisError

from accounts.throttling import LoginRateThrottle, client_address

logger = logging.getLogger(__name__)

USERNAME = "username"
USERNAME_AT_ADDRESS = "username-at-address"
ADDRESS = "address"

LOGIN_LOCKED = "login_locked"
LOGIN_THROTTLED = "login_throttled"

DEFAULT_FAILURES_PER_USERNAME_AND_ADDRESS = 5
DEFAULT_FAILURES_PER_USERNAME = 50
DEFAULT_FAILURES_PER_ADDRESS = 20
FAILURES_ALLOWED = {
    USERNAME_AT_ADDRESS: (
        "LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS",
        DEFAULT_FAILURES_PER_USERNAME_AND_ADDRESS,
    ),
    USERNAME: ("LOGIN_FAILURES_PER_USERNAME", DEFAULT_FAILURES_PER_USERNAME),
    ADDRESS: ("LOGIN_FAILURES_PER_ADDRESS", DEFAULT_FAILURES_PER_ADDRESS),
}
"""The setting that holds each kind's number of failures before a lock, and its default."""
DEFAULT_FAILURE_WINDOW = 15 * 60
DEFAULT_LOCKOUT_SECONDS = 15 * 60


@dataclass(frozen=True)
class LoginRefusal:
    """Why a sign-in attempt is refused before any password is checked, and for how long."""

    code: str
    message: str
    retry_after: int
    """Seconds."""


def failures_allowed(kind: str) -> int:
    name, default = FAILURES_ALLOWED[kind]
    return int(getattr(settings, name, default))


def failure_window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", DEFAULT_FAILURE_WINDOW))


def lockout_seconds() -> int:
    return int(getattr(settings, "LOGIN_LOCKOUT_SECONDS", DEFAULT_LOCKOUT_SECONDS))


def username_ident(username: str) -> str:
    """One identity for `Maria`, `maria` and `MARIA` in full-width letters."""
    return unicodedata.normalize("NFKC", username).casefold()


def cache_key(what: str, kind: str, ident: str) -> str:
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()
    return f"login-{what}:{kind}:{digest}"


def username_at_address_ident(username: str, address: str) -> str:
    return json.dumps([username_ident(username), address])


def identities(*, request: HttpRequest | None, username: str | None) -> list[tuple[str, str]]:
    """The (kind, identity) pairs an attempt counts against."""
    address = client_address(request) if request is not None else None
    found = []
    if username is not None:
        found.append((USERNAME, username_ident(username)))
        if address is not None:
            found.append((USERNAME_AT_ADDRESS, username_at_address_ident(username, address)))
    if address is not None:
        found.append((ADDRESS, address))
    return found


def login_lock_remaining(*, request: HttpRequest | None, username: str | None) -> dict[str, int]:
    """The seconds left on each lock (by kind) that applies to this attempt; empty when none."""
    pairs = identities(request=request, username=username)
    keys = {cache_key("lock", kind, ident): kind for kind, ident in pairs}
    now = time.time()
    return {
        keys[key]: max(1, math.ceil(float(until) - now))
        for key, until in cache.get_many(list(keys)).items()
    }


def login_refusal(*, request: HttpRequest | None, username: str | None) -> LoginRefusal | None:
    """Why this sign-in attempt must be refused now, or None. Nothing is counted here: only a
    failure counts (`login_failure_record`), so a successful sign-in is never refused for the
    ones before it."""
    try:
        locks = login_lock_remaining(request=request, username=username)
    except RedisError as error:
        logger.warning("sign-in lockout not checked: the cache failed: %s", error)
        return None
    if locks:
        seconds = max(locks.values())
        if USERNAME in locks:
            message = gettext(
                "Too many failed sign-ins for this username: sign-in is paused. "
                "Try again in %(wait)s."
            )
        elif USERNAME_AT_ADDRESS in locks:
            message = gettext(
                "Too many failed sign-ins for this username from this network: sign-in is "
                "paused. Try again in %(wait)s."
            )
        else:
            message = gettext(
                "Too many failed sign-ins from this network: sign-in is paused. "
                "Try again in %(wait)s."
            )
        return LoginRefusal(LOGIN_LOCKED, message % {"wait": duration(seconds)}, seconds)
    if request is None:
        return None
    throttle = LoginRateThrottle()
    if not throttle.over_budget(request):
        return None
    seconds = int(throttle.wait())
    message = gettext("Too many sign-in attempts from this network. Try again in %(wait)s.")
    return LoginRefusal(LOGIN_THROTTLED, message % {"wait": duration(seconds)}, seconds)


def login_failure_record(*, request: HttpRequest | None, username: str | None) -> None:
    """Count a failed sign-in against its username at its address, its username and its address
    (and the address's `login` rate); lock the ones that reach their limit."""
    try:
        for kind, ident in identities(request=request, username=username):
            if count_failure(kind, ident) >= failures_allowed(kind):
                lock(kind, ident)
        if request is not None:
            LoginRateThrottle().failed(request)
    except RedisError as error:
        logger.warning("failed sign-in not counted: the cache failed: %s", error)


def count_failure(kind: str, ident: str) -> int:
    key = cache_key("failures", kind, ident)
    cache.add(key, 0, timeout=failure_window())
    try:
        return int(cache.incr(key))
    except ValueError:  # the count expired between add and incr
        cache.set(key, 1, timeout=failure_window())
        return 1


def lock(kind: str, ident: str) -> None:
    seconds = lockout_seconds()
    cache.set(cache_key("lock", kind, ident), time.time() + seconds, timeout=seconds)
    cache.delete(cache_key("failures", kind, ident))
    logger.warning("sign-in locked for %d s for a %s after repeated failures", seconds, kind)


def login_failures_forget(*, username: str, address: str) -> None:
    """A successful sign-in: the username's earlier failures at this address no longer count.
    Its failures from anywhere still do: they are the ceiling against guessing from many
    addresses, which the organizer's own sign-in says nothing about."""
    try:
        cache.delete(
            cache_key("failures", USERNAME_AT_ADDRESS, username_at_address_ident(username, address))
        )
    except RedisError as error:
        logger.warning("failed sign-ins not forgotten: the cache failed: %s", error)


def login_lockout_lift(*, username: str | None = None, address: str | None = None) -> None:
    """Lift the lock and forget the failures of a username (everywhere: the ceiling, when others'
    guesses from many addresses reached it), of an address, or, given both, also of the username
    at that address (an organizer who mistyped on their own device). From `manage.py shell`."""
    pairs = []
    if username is not None:
        pairs.append((USERNAME, username_ident(username)))
    if address is not None:
        pairs.append((ADDRESS, address))
    if username is not None and address is not None:
        pairs.append((USERNAME_AT_ADDRESS, username_at_address_ident(username, address)))
    cache.delete_many(
        [cache_key(what, kind, ident) for kind, ident in pairs for what in ("lock", "failures")]
    )


def duration(seconds: int) -> str:
    """How long, for people, in the active language."""
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


@receiver(user_login_failed, dispatch_uid="accounts.login.count_failed_sign_in")
def count_failed_sign_in(
    credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    username = credentials.get(get_user_model().USERNAME_FIELD)
    login_failure_record(request=request, username=username if isinstance(username, str) else None)


@receiver(user_logged_in, dispatch_uid="accounts.login.forget_failed_sign_ins")
def forget_failed_sign_ins(user: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    if request is not None:
        login_failures_forget(username=user.get_username(), address=client_address(request))


class LockoutAuthenticationForm(AuthenticationForm):
    """A login form that refuses a locked username or address (or an address over its `login`
    rate) before checking the password: the browsable API's sign-in, for anybody with an
    account."""

    refusal: LoginRefusal | None = None

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is not None and self.cleaned_data.get("password"):
            self.refusal = login_refusal(request=self.request, username=username)
            if self.refusal is not None:
                raise ValidationError(self.refusal.message, code=self.refusal.code)
        return super().clean()


class LockoutAdminAuthenticationForm(LockoutAuthenticationForm, AdminAuthenticationForm):
    """The admin's login form (staff only), with the same lockout."""


def with_refusal_status(
    login_view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """The admin's login view, answering 429 with `Retry-After` when its form refused the attempt
    (the page is the login form, showing why)."""

    @wraps(login_view)
    @login_not_required
    def view(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponseBase:
        response = login_view(request, extra_context)
        refusal = refusal_shown_in(response)
        if refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(refusal.retry_after)
        return response

    return view


def refusal_shown_in(response: HttpResponseBase) -> LoginRefusal | None:
    context = getattr(response, "context_data", None) or {}
    refusal = getattr(context.get("form"), "refusal", None)
    return refusal if isinstance(refusal, LoginRefusal) else None
