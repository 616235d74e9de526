"""Tokens checked recently are not looked up again in the same process, and whatever withdraws a
token still takes effect at the next request (`accounts.credentials`, issue 13 §2)."""

from dataclasses import replace
from typing import Any
from uuid import uuid4

import pytest
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIRequestFactory

from accounts import credentials, services
from accounts.authentication import TOKEN_REVOKED, TokenAuthentication
from accounts.models import Role
from accounts.permissions import Place, standing_at
from tests.factories.accounts import ClubFactory, UserFactory, device_token_issued

pytestmark = pytest.mark.django_db


def authenticate(key: str) -> Any:
    """As a new request does (it reads the credentials generation afresh)."""
    credentials.forget_request()
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
    return TokenAuthentication().authenticate(request)


def test_a_device_token_checked_a_moment_ago_is_not_looked_up_again(
    django_assert_num_queries: Any,
) -> None:
    token, key = device_token_issued()
    authenticate(key)

    with django_assert_num_queries(0):
        user, auth = authenticate(key)

    assert user.pk == token.user_id
    assert auth.pk == token.pk
    assert auth.user is user


def test_a_user_token_checked_a_moment_ago_is_not_looked_up_again(
    django_assert_num_queries: Any,
) -> None:
    token = Token.objects.create(user=UserFactory.create(username="scorer"))
    authenticate(token.key)

    with django_assert_num_queries(0):
        user, _auth = authenticate(token.key)

    assert user.pk == token.user_id


def test_a_revoked_device_token_is_refused_at_the_next_request() -> None:
    token, key = device_token_issued()
    authenticate(key)

    services.device_token_revoke(token=token)

    with pytest.raises(AuthenticationFailed) as refusal:
        authenticate(key)
    assert str(refusal.value.detail) == str(TOKEN_REVOKED)


def test_a_revocation_made_by_another_process_is_honoured() -> None:
    """Another process's revocation reaches this one through the shared generation only."""
    token, key = device_token_issued()
    authenticate(key)
    kept = credentials.recent.entries
    entries_before = {name: kept.get(name) for name in kept}

    services.device_token_revoke(token=token)
    for name, entry in entries_before.items():  # this process never heard of it
        if entry is not None:
            kept.put(name, entry)

    with pytest.raises(AuthenticationFailed):
        authenticate(key)


def test_a_deleted_user_token_is_refused_at_the_next_request() -> None:
    token = Token.objects.create(user=UserFactory.create(username="scorer"))
    authenticate(token.key)

    token.delete()

    with pytest.raises(AuthenticationFailed):
        authenticate(token.key)


def test_a_deactivated_user_is_refused_at_the_next_request() -> None:
    user = UserFactory.create(username="scorer")
    _token, key = device_token_issued(user)
    authenticate(key)

    user.is_active = False
    user.save()

    with pytest.raises(AuthenticationFailed):
        authenticate(key)


def test_a_changed_user_is_not_seen_by_the_next_request() -> None:
    _token, key = device_token_issued()
    user, _auth = authenticate(key)

    user.first_name = "changed by a view"

    again, _auth = authenticate(key)
    assert again.first_name == ""


def test_without_the_shared_cache_every_request_looks_its_token_up(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    _token, key = device_token_issued()
    authenticate(key)

    def unreachable(*_args: Any, **_kwargs: Any) -> None:
        raise RedisConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get", unreachable)

    with django_assert_num_queries(1):
        user, _auth = authenticate(key)
    assert user.is_active


def test_with_the_cache_switched_off_every_request_looks_its_token_up(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.AUTH_TOKEN_CACHE_SECONDS = 0
    _token, key = device_token_issued()
    authenticate(key)

    with django_assert_num_queries(1):
        authenticate(key)


def test_the_cache_keeps_at_most_its_bound_of_tokens() -> None:
    recent = credentials.RecentTokens(most=2)
    for key in ("a", "b", "c"):
        recent.put(key, (UserFactory.create(username=key), None), "generation")

    assert list(recent.entries) == ["b", "c"]
    assert recent.get("a", "generation") is None
    assert recent.get("c", "another generation") is None


def test_a_scorers_roles_checked_a_moment_ago_are_not_looked_up_again(
    django_assert_num_queries: Any,
) -> None:
    user = UserFactory.create(username="scorer")
    club = ClubFactory.create()
    services.role_grant(user=user, role=Role.SCORER, club=club)
    place = Place(not_found=Exception, club_id=club.pk, tournament_id=uuid4())
    credentials.forget_request()
    assert standing_at(user, place).roles == {Role.SCORER}

    credentials.forget_request()
    with django_assert_num_queries(0):
        again = standing_at(user, replace(place, standings={}))

    assert again.roles == {Role.SCORER}


def test_a_revoked_role_is_not_held_at_the_next_request() -> None:
    user = UserFactory.create(username="scorer")
    club = ClubFactory.create()
    services.role_grant(user=user, role=Role.SCORER, club=club)
    place = Place(not_found=Exception, club_id=club.pk)
    credentials.forget_request()
    assert standing_at(user, place).roles == {Role.SCORER}

    services.role_revoke(user=user, role=Role.SCORER, club=club)

    credentials.forget_request()
    assert standing_at(user, replace(place, standings={})).roles == frozenset()
