"""Users, clubs and scorers' device tokens, made as the services make them."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from factory.base import Factory
from factory.declarations import Sequence
from factory.django import DjangoModelFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from typing_extensions import override

from accounts import services
from accounts.models import Club, DeviceToken, User

TOURNAMENT = uuid.UUID("00000000-0000-4000-8000-000000000013")
OTHER_TOURNAMENT = uuid.UUID("00000000-0000-4000-8000-000000000014")


class UserFactory(DjangoModelFactory[User]):
    """A user without a usable password unless given one (`create_user`)."""

    class Meta:
        model = User

    username = Sequence(lambda number: f"user{number}")  # type: ignore[no-untyped-call]

    @classmethod
    def _create(cls, model_class: type[User], *args: Any, **fields: Any) -> User:
        return model_class.objects.create_user(*args, **fields)


class ClubFactory(Factory[Club]):
    """A club, made by the service that also gives it its slug."""

    class Meta:
        model = Club

    name = "Circolo del Tressette"
    slug = None

    @classmethod
    @override
    def _create(cls, model_class: type[Club], *args: Any, **fields: Any) -> Club:
        return services.club_create(**fields)


def token_client(user: User) -> APIClient:
    """An API client that sends the user's token, as a scoring device does."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def device_token_issued(
    user: User | None = None,
    *,
    device: str = "tablet at table 3",
    created_by: User | None = None,
    expires_in: timedelta | None = None,
    **scope: Any,
) -> tuple[DeviceToken, str]:
    """A device token issued by the service, with the key shown once (by default to a new
    user called "scorer")."""
    return services.device_token_create(
        user=user or UserFactory.create(username="scorer"),
        device=device,
        created_by=created_by,
        expires_in=expires_in,
        **scope,
    )
