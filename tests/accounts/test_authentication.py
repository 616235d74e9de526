"""`Authorization: Token KEY` with a device token or a user token, through the class itself and
through the API."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient, APIRequestFactory

from accounts import credentials, services
from accounts.authentication import TokenAuthentication
from accounts.models import DeviceToken
from tests.factories.accounts import UserFactory, device_token_issued

pytestmark = pytest.mark.django_db

NEW_MATCH = {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]}


def authenticate(key: str) -> Any:
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
    return TokenAuthentication().authenticate(request)


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def refused(key: str) -> str:
    with pytest.raises(AuthenticationFailed) as refusal:
        authenticate(key)
    return str(refusal.value.detail)


def test_a_device_token_authenticates_its_user_and_is_the_requests_auth() -> None:
    scorer = UserFactory.create(username="scorer")
    token, key = device_token_issued(scorer)

    user, auth = authenticate(key)

    assert user == scorer
    assert isinstance(auth, DeviceToken)
    assert auth.pk == token.pk


def test_a_device_token_writes_through_the_api() -> None:
    _token, key = device_token_issued()

    response = client_with(key).post("/api/v1/matches/", NEW_MATCH, format="json")

    assert response.status_code == 201


def test_a_user_token_still_authenticates_and_is_the_requests_auth() -> None:
    scorer = UserFactory.create(username="scorer")
    token = Token.objects.create(user=scorer)

    user, auth = authenticate(token.key)
    response = client_with(token.key).post("/api/v1/matches/", NEW_MATCH, format="json")

    assert (user, auth) == (scorer, token)
    assert response.status_code == 201


def test_an_expired_device_token_is_refused() -> None:
    token, key = device_token_issued()
    DeviceToken.objects.filter(pk=token.pk).update(expires_at=timezone.now())

    assert refused(key) == "This device token has expired: ask the organizer for a new one."


def test_a_revoked_device_token_is_refused() -> None:
    token, key = device_token_issued()
    services.device_token_revoke(token=token)

    assert refused(key) == "This device token was revoked: ask the organizer for a new one."


@pytest.mark.parametrize(
    "key",
    [
        "dt_" + "A" * 43,
        "dt_",
        "0123456789abcdef0123456789abcdef01234567",
        "not-a-token",
    ],
)
def test_an_unknown_key_is_refused(key: str) -> None:
    device_token_issued()

    assert refused(key) == "Invalid token."


def test_a_device_tokens_hash_is_not_a_key() -> None:
    token, _key = device_token_issued()

    assert refused(token.key_hash) == "Invalid token."
    assert refused(f"dt_{token.key_hash}") == "Invalid token."


def test_a_device_token_of_an_inactive_user_is_refused() -> None:
    scorer = UserFactory.create(username="scorer")
    _token, key = device_token_issued(scorer)
    scorer.is_active = False
    scorer.save()

    assert refused(key) == "User inactive or deleted."


@pytest.mark.parametrize("state", ["expired", "revoked", "unknown"])
def test_the_api_answers_a_refused_device_token_with_401_authentication_failed(
    state: str,
) -> None:
    token, key = device_token_issued()
    if state == "expired":
        DeviceToken.objects.filter(pk=token.pk).update(expires_at=timezone.now())
    elif state == "revoked":
        services.device_token_revoke(token=token)
    else:
        key = key[:-2]

    response = client_with(key).post("/api/v1/matches/", NEW_MATCH, format="json")

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == "Token"


def test_signing_in_records_the_last_use() -> None:
    token, key = device_token_issued()
    before = timezone.now()

    authenticate(key)

    token.refresh_from_db()
    assert token.last_used_at is not None
    assert token.last_used_at >= before


def test_the_last_use_is_written_at_most_once_a_minute(
    django_assert_num_queries: Any,
) -> None:
    token, key = device_token_issued()
    authenticate(key)
    token.refresh_from_db()
    first_use = token.last_used_at
    assert first_use is not None

    with django_assert_num_queries(0):  # no update (and the token checked a moment ago)
        authenticate(key)
    token.refresh_from_db()
    assert token.last_used_at == first_use

    DeviceToken.objects.filter(pk=token.pk).update(last_used_at=first_use - timedelta(minutes=2))
    credentials.recent.clear()  # as when the process's entry has lived its few seconds
    authenticate(key)
    token.refresh_from_db()
    assert token.last_used_at > first_use
