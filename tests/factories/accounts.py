"""Users and clubs."""

from __future__ import annotations

from typing import Any

from factory.base import Factory
from factory.declarations import Sequence
from factory.django import DjangoModelFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Club, User


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
    def _create(cls, model_class: type[Club], *args: Any, **fields: Any) -> Club:
        return services.club_create(**fields)


def token_client(user: User) -> APIClient:
    """An API client that sends the user's token, as a scoring device does."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client
