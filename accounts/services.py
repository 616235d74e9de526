"""Writes of clubs, roles and device tokens. Keyword arguments only; a refusal is an
`AccountsError` with a stable `code` and a `detail` for people."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, ClassVar
from uuid import UUID

from django.conf import settings
from django.core.validators import slug_re
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from accounts.keys import hash_key, new_device_key, visible_prefix
from accounts.models import Club, DeviceToken, Role, RoleGrant, User
from accounts.organizers import sync_organizer_staff
from accounts.signals import withdraw_on_commit
from common.explained import Explained

DEFAULT_DEVICE_TOKEN_LIFETIME = timedelta(hours=24)
DEFAULT_DEVICE_TOKEN_MAX_LIFETIME = timedelta(days=31)
CLUB_NAME_MAX_LENGTH = Club._meta.get_field("name").max_length or 200
CLUB_SLUG_MAX_LENGTH = Club._meta.get_field("slug").max_length or 50
DEVICE_NAME_MAX_LENGTH = DeviceToken._meta.get_field("name").max_length or 64
TABLE_NUMBER_MAX = 32767
LAST_USED_PRECISION = timedelta(minutes=1)
"""`last_used_at` is written at most this often per token: a write per request would make every
scorer's read a write too."""


class AccountsError(Explained):
    """A club, role or token operation that cannot be carried out; `code` says why."""

    code: ClassVar[str] = "accounts_error"


class InvalidClub(AccountsError):
    code = "invalid_club"


class ClubExists(AccountsError):
    code = "club_exists"


class InvalidRoleGrant(AccountsError):
    code = "invalid_role_grant"


class DeviceTokenNotFound(AccountsError):
    code = "device_token_not_found"


class InvalidDeviceToken(AccountsError):
    code = "invalid_device_token"


def device_token_lifetime() -> timedelta:
    """How long a new device token lasts unless told otherwise (setting
    `ACCOUNTS_DEVICE_TOKEN_LIFETIME`, a timedelta; 24 hours by default)."""
    lifetime: timedelta = getattr(
        settings, "ACCOUNTS_DEVICE_TOKEN_LIFETIME", DEFAULT_DEVICE_TOKEN_LIFETIME
    )
    return lifetime


def device_token_max_lifetime() -> timedelta:
    """The longest a device token may last (setting `ACCOUNTS_DEVICE_TOKEN_MAX_LIFETIME`, a
    timedelta; 31 days by default): a lost tablet must not sign in for ever."""
    lifetime: timedelta = getattr(
        settings, "ACCOUNTS_DEVICE_TOKEN_MAX_LIFETIME", DEFAULT_DEVICE_TOKEN_MAX_LIFETIME
    )
    return lifetime


# Clubs.


def club_create(*, name: str, slug: str | None = None) -> Club:
    """A new club; its slug (the name in URLs and on the command line) comes from the name when
    not given."""
    name = name.strip()
    if not name:
        raise InvalidClub.because(gettext_noop("a club needs a name"))
    if len(name) > CLUB_NAME_MAX_LENGTH:
        raise InvalidClub.because(
            gettext_noop("a club's name is at most %(most)s characters"), most=CLUB_NAME_MAX_LENGTH
        )
    if slug is None:
        slug = slugify(name)[:CLUB_SLUG_MAX_LENGTH].strip("-_")
    elif not slug_re.fullmatch(slug):
        raise InvalidClub.because(
            gettext_noop("%(slug)r is not a slug: letters, digits, hyphens and underscores"),
            slug=slug,
        )
    if not slug:
        raise InvalidClub.because(gettext_noop("a club's slug needs letters or digits: give one"))
    if len(slug) > CLUB_SLUG_MAX_LENGTH:
        raise InvalidClub.because(
            gettext_noop("a club's slug is at most %(most)s characters"), most=CLUB_SLUG_MAX_LENGTH
        )
    if Club.objects.filter(slug=slug).exists():
        raise ClubExists.because(gettext_noop("there is already a club %(slug)r"), slug=slug)
    try:
        with transaction.atomic():
            return Club.objects.create(name=name, slug=slug)
    except IntegrityError:  # created meanwhile by another request
        raise ClubExists.because(
            gettext_noop("there is already a club %(slug)r"), slug=slug
        ) from None


# Roles.


def role_grant(
    *,
    user: User,
    role: str,
    club: Club | None = None,
    tournament_id: UUID | None = None,
    granted_by: User | None = None,
    tables: Iterable[int] = (),
) -> RoleGrant:
    """Give `user` the role in the club or in the tournament (exactly one). Granting a role the
    user already holds there changes nothing and returns the existing grant, except that a
    scorer's tables become the ones given. `tables` (a scorer's, in a tournament) limits the
    scorer to the matches at those tables; none means every table."""
    scope = role_scope(role=role, club=club, tournament_id=tournament_id)
    table_numbers = checked_tables(tables)
    if table_numbers and (role != Role.SCORER or tournament_id is None):
        raise InvalidRoleGrant.because(
            gettext_noop("tables are assigned to a scorer in one tournament")
        )
    grant, created = RoleGrant.objects.get_or_create(
        user=user,
        role=role,
        **scope,
        defaults={"granted_by": granted_by, "tables": table_numbers},
    )
    if not created and grant.tables != table_numbers and role == Role.SCORER:
        grant.tables = table_numbers
        grant.save(update_fields=["tables"])
    if created and role == Role.ORGANIZER:
        sync_organizer_staff(user)
    return grant


def checked_tables(
    tables: Iterable[int], refusal: type[AccountsError] = InvalidRoleGrant
) -> list[int]:
    """Table numbers as stored: sorted, each once, each from 1 to TABLE_NUMBER_MAX; else
    `refusal` says what is wrong."""
    numbers = sorted(set(tables))
    if any(isinstance(number, bool) or not isinstance(number, int) for number in numbers):
        raise refusal.because(gettext_noop("tables are given by their numbers"))
    if any(not 1 <= number <= TABLE_NUMBER_MAX for number in numbers):
        raise refusal.because(
            gettext_noop("table numbers go from 1 to %(most)s"), most=TABLE_NUMBER_MAX
        )
    return numbers


def role_revoke(
    *,
    user: User,
    role: str,
    club: Club | None = None,
    tournament_id: UUID | None = None,
) -> bool:
    """Take the role in the club or in the tournament away from `user`. False when the user did
    not hold it there (nothing to do)."""
    scope = role_scope(role=role, club=club, tournament_id=tournament_id)
    deleted, _by_model = RoleGrant.objects.filter(user=user, role=role, **scope).delete()
    if deleted and role == Role.ORGANIZER:
        sync_organizer_staff(user)
    return deleted > 0


def role_scope(*, role: str, club: Club | None, tournament_id: UUID | None) -> dict[str, Any]:
    """The grant's place as model field values, once the role and the place are known good."""
    if role not in Role.values:
        raise InvalidRoleGrant.because(
            gettext_noop("unknown role %(role)r: one of %(roles)s"),
            role=role,
            roles=", ".join(Role.values),
        )
    if (club is None) == (tournament_id is None):
        raise InvalidRoleGrant.because(
            gettext_noop(
                "a role is granted on a club or on a tournament: give exactly one of the two"
            )
        )
    return {"club": club} if club is not None else {"tournament_id": tournament_id}


# Device tokens.


def device_token_create(
    *,
    user: User,
    device: str,
    created_by: User | None,
    expires_in: timedelta | None = None,
    tournament_id: UUID | None = None,
    tables: Iterable[int] = (),
    key: str | None = None,
) -> tuple[DeviceToken, str]:
    """A token for one of `user`'s devices, and its key: the only time the key is available.
    It expires after `expires_in` (the configured lifetime when None); `tournament_id` and
    `tables` narrow what it may score. `key` is a new random key unless given (a key the
    server derives, `accounts.keys.derived_device_key`)."""
    name, table_numbers = device_token_check(
        device=device, expires_in=expires_in, tournament_id=tournament_id, tables=tables
    )
    if not user.is_active:
        raise InvalidDeviceToken.because(
            gettext_noop("%(user)s is inactive: a token would be refused"), user=user
        )
    now = timezone.now()
    key = new_device_key() if key is None else key
    token = DeviceToken.objects.create(
        user=user,
        name=name,
        prefix=visible_prefix(key),
        key_hash=hash_key(key),
        created_by=created_by,
        created_at=now,
        expires_at=now + (device_token_lifetime() if expires_in is None else expires_in),
        tournament_id=tournament_id,
        tables=table_numbers,
    )
    return token, key


def device_token_check(
    *,
    device: str,
    expires_in: timedelta | None,
    tournament_id: UUID | None,
    tables: Iterable[int],
) -> tuple[str, list[int]]:
    """What `device_token_create` refuses, without creating anything (forms check with it
    first): the device's name and the table numbers as they will be stored."""
    name = device.strip()
    if not name:
        raise InvalidDeviceToken.because(
            gettext_noop("name the device (for example 'tablet at table 3')")
        )
    if len(name) > DEVICE_NAME_MAX_LENGTH:
        raise InvalidDeviceToken.because(
            gettext_noop("a device's name is at most %(most)s characters"),
            most=DEVICE_NAME_MAX_LENGTH,
        )
    if expires_in is not None:
        longest = device_token_max_lifetime()
        if expires_in <= timedelta(0):
            raise InvalidDeviceToken.because(
                gettext_noop("a token must last some time: give a positive lifetime")
            )
        if expires_in > longest:
            raise InvalidDeviceToken.because(
                gettext_noop("a token lasts at most %(longest)s"), longest=longest
            )
    table_numbers = checked_tables(tables, InvalidDeviceToken)
    if table_numbers and tournament_id is None:
        raise InvalidDeviceToken.because(
            gettext_noop("tables are a tournament's: give the tournament too")
        )
    return name, table_numbers


def device_token_revoke(*, token: DeviceToken, revoked_at: datetime | None = None) -> DeviceToken:
    """Stop the token from signing in, from now on. Revoking it again keeps the first time."""
    moment = timezone.now() if revoked_at is None else revoked_at
    DeviceToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=moment)
    withdraw_on_commit()
    token.refresh_from_db(fields=["revoked_at"])
    return token


def device_token_mark_used(*, token: DeviceToken, now: datetime | None = None) -> None:
    """Record that the token signed in, unless that was recorded less than a minute ago. The
    condition is in the UPDATE so that concurrent requests of one device write once."""
    moment = timezone.now() if now is None else now
    recent = moment - LAST_USED_PRECISION
    if token.last_used_at is not None and token.last_used_at > recent:
        return
    DeviceToken.objects.filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lte=recent), pk=token.pk
    ).update(last_used_at=moment)
    token.last_used_at = moment
