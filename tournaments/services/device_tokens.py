"""Scorers' devices: device tokens limited to one tournament (and some of its tables)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_noop

from accounts.models import DeviceToken, Role
from accounts.selectors import roles_of
from accounts.services import (
    DeviceTokenNotFound,
    InvalidDeviceToken,
    device_token_create,
    device_token_revoke,
)
from tournaments.errors import (
    TournamentNotFound,
)
from tournaments.models import Tournament
from tournaments.projections import rows


def scorer_device_token_issue(
    *,
    tournament_id: UUID,
    username: str,
    device: str,
    issued_by: Any,
    tables: Sequence[int] = (),
    expires_in: timedelta | None = None,
) -> tuple[DeviceToken, str]:
    """A device token for one of the tournament's scorers (or organizers), limited to the
    tournament and, when given, to some of its tables; the key is returned this once."""
    tournament = Tournament.objects.filter(id=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    scorer = get_user_model().objects.filter(username=username).first()
    if scorer is None:
        raise InvalidDeviceToken.because(gettext_noop("there is no user %(user)r"), user=username)
    held = roles_of(scorer, tournament_id=tournament_id, club_id=tournament.club_id)
    if not held & {Role.SCORER, Role.ORGANIZER}:
        raise InvalidDeviceToken.because(
            gettext_noop("%(user)s is not a scorer of this tournament: grant the role first"),
            user=username,
        )
    available = rows.tables_of(tournament)
    outside = sorted(number for number in tables if not 1 <= number <= available)
    if outside:
        raise InvalidDeviceToken.because(
            gettext_noop("the tournament's tables are numbered 1 to %(tables)s, not %(table)s"),
            tables=available,
            table=outside[0],
        )
    return device_token_create(
        user=scorer,
        device=device,
        created_by=issued_by,
        expires_in=expires_in,
        tournament_id=tournament_id,
        tables=tables,
    )


def scorer_device_token_revoke(*, tournament_id: UUID, token_id: int) -> DeviceToken:
    """Stop a device of the tournament from signing in, from now on (again: no change)."""
    token = DeviceToken.objects.filter(id=token_id, tournament_id=tournament_id).first()
    if token is None:
        raise DeviceTokenNotFound.because(
            gettext_noop("this tournament issued no device token %(token)s"), token=token_id
        )
    return device_token_revoke(token=token)
