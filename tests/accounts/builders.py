"""Users, clubs and device tokens for the accounts tests, made through the services."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from accounts import services
from accounts.models import Club, DeviceToken, User

TOURNAMENT = uuid.UUID("00000000-0000-4000-8000-000000000013")
OTHER_TOURNAMENT = uuid.UUID("00000000-0000-4000-8000-000000000014")


def make_user(username: str = "scorer", **fields: Any) -> User:
    return User.objects.create_user(username=username, **fields)


def make_club(name: str = "Circolo del Tressette", slug: str | None = None) -> Club:
    return services.club_create(name=name, slug=slug)


def make_device_token(
    user: User | None = None,
    *,
    device: str = "tablet at table 3",
    created_by: User | None = None,
    expires_in: timedelta | None = None,
    **scope: Any,
) -> tuple[DeviceToken, str]:
    return services.device_token_create(
        user=user or make_user(),
        device=device,
        created_by=created_by,
        expires_in=expires_in,
        **scope,
    )
