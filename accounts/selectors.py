"""Reads of clubs, roles and device tokens.

Roles are the grants as recorded: a superuser or a staff member holds no role unless granted one.
Whether such users may do more is for the permissions that use these reads to decide.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from accounts.keys import hash_key, is_device_key
from accounts.models import Club, DeviceToken, Role, RoleGrant


def roles_of(
    user: AbstractBaseUser | AnonymousUser,
    *,
    tournament_id: UUID | None = None,
    club_id: int | None = None,
) -> frozenset[Role]:
    """The roles `user` holds in the tournament and in the club, together (a tournament's page
    asks with the tournament and its club, so a club's organizer organizes its tournaments).
    With neither, every role the user holds anywhere. None for anonymous or inactive users."""
    grants = grants_of(user, tournament_id=tournament_id, club_id=club_id)
    return frozenset(Role(role) for role in grants.values_list("role", flat=True).distinct())


def has_role(
    user: AbstractBaseUser | AnonymousUser,
    role: Role | str,
    *,
    tournament_id: UUID | None = None,
    club_id: int | None = None,
) -> bool:
    """Whether `user` holds `role` in the tournament or in the club (anywhere, given neither)."""
    return (
        grants_of(user, tournament_id=tournament_id, club_id=club_id)
        .filter(role=Role(role))
        .exists()
    )


def grants_of(
    user: AbstractBaseUser | AnonymousUser,
    *,
    tournament_id: UUID | None,
    club_id: int | None,
) -> QuerySet[RoleGrant]:
    if not user.is_authenticated or not user.is_active:
        return RoleGrant.objects.none()
    grants = RoleGrant.objects.filter(user_id=user.pk)
    places = Q()
    if tournament_id is not None:
        places |= Q(tournament_id=tournament_id)
    if club_id is not None:
        places |= Q(club_id=club_id)
    return grants.filter(places)


def organized_clubs(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club]:
    """The clubs where `user` is organizer; every club for an active superuser, none for anyone
    signed out or inactive (what the organizer's console shows, decision 0040)."""
    if not user.is_authenticated or not user.is_active:
        return Club.objects.none()
    if getattr(user, "is_superuser", False):
        return Club.objects.all()
    return Club.objects.filter(
        id__in=RoleGrant.objects.filter(user_id=user.pk, role=Role.ORGANIZER).values("club_id")
    )


def organized_tournament_ids(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Any]:
    """The ids (`tournament_id`) of the tournaments `user` organizes by a grant on the
    tournament itself (a club's organizer organizes the club's tournaments besides)."""
    if not user.is_authenticated or not user.is_active:
        return RoleGrant.objects.none()
    grants = RoleGrant.objects.filter(
        user_id=user.pk, role=Role.ORGANIZER, tournament_id__isnull=False
    )
    return grants.values("tournament_id")


def club_by_slug(*, slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def device_token_by_key(*, key: str) -> DeviceToken | None:
    """The token whose key this is, with its user; None for a key of no device token (revoked
    and expired tokens are found: the caller says why they are refused)."""
    if not is_device_key(key):
        return None
    return DeviceToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()


def tournament_device_tokens(*, tournament_id: UUID) -> QuerySet[DeviceToken]:
    """The device tokens issued for the tournament, newest first, with their users."""
    return DeviceToken.objects.filter(tournament_id=tournament_id).select_related("user")
