"""The API's throttles: anonymous clients per address, authenticated ones per device token or
per user, a 429 `throttled` with `Retry-After` past the rate, and requests let through when the
cache is away. Tiny rates through `override_settings`; the cache is emptied around each test."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.settings.base import throttle_rate
from games.eventstore.api import last_position
from tests.factories.accounts import UserFactory, device_token_issued

pytestmark = pytest.mark.django_db

READ = "/api/v1/tournaments/"
WRITE = "/api/v1/matches/"
NEW_MATCH = {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]}


def rates(**scopes: str | None) -> Any:
    """Settings with these rates for the named scopes and the defaults for the others."""
    framework = settings.REST_FRAMEWORK
    return override_settings(
        REST_FRAMEWORK={
            **framework,
            "DEFAULT_THROTTLE_RATES": {**framework["DEFAULT_THROTTLE_RATES"], **scopes},
        }
    )


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def user_token(username: str) -> str:
    key: str = Token.objects.create(user=UserFactory.create(username=username)).key
    return key


def statuses(client: APIClient, times: int, path: str = READ, **request: Any) -> list[int]:
    return [client.get(path, **request).status_code for _ in range(times)]


def creations(client: APIClient, times: int) -> list[int]:
    return [client.post(WRITE, NEW_MATCH, format="json").status_code for _ in range(times)]


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert set(response.json()) == {"code", "detail"}
    assert 1 <= int(response["Retry-After"]) <= 60


def test_anonymous_reads_get_429_throttled_past_the_anonymous_rate() -> None:
    anonymous = APIClient()

    with rates(anon="3/min"):
        allowed = statuses(anonymous, 3)
        refused = anonymous.get(READ)

    assert allowed == [200, 200, 200]
    assert_throttled(refused)
    assert "Request was throttled" in refused.json()["detail"]


def test_authenticated_writes_get_429_throttled_past_the_user_rate_and_record_nothing() -> None:
    scorer = client_with(user_token("scorer"))

    with rates(user="2/min"):
        allowed = creations(scorer, 2)
        before = last_position()
        refused = scorer.post(WRITE, NEW_MATCH, format="json")

    assert allowed == [201, 201]
    assert_throttled(refused)
    assert last_position() == before


def test_the_429_says_when_to_retry_the_time_until_the_oldest_request_leaves_the_window() -> None:
    anonymous = APIClient()

    with rates(anon="1/hour"):
        anonymous.get(READ)
        refused = anonymous.get(READ)

    assert refused.status_code == 429
    assert 3590 <= int(refused["Retry-After"]) <= 3600


def test_different_users_have_separate_budgets() -> None:
    maria, luca = client_with(user_token("maria")), client_with(user_token("luca"))

    with rates(user="2/min"):
        maria_statuses = statuses(maria, 3)
        luca_statuses = statuses(luca, 2)

    assert maria_statuses == [200, 200, 429]
    assert luca_statuses == [200, 200]


def test_each_device_token_has_its_own_budget_even_for_one_scorer() -> None:
    scorer = UserFactory.create(username="scorer")
    _table_1, key_1 = device_token_issued(scorer, device="tablet at table 1")
    _table_2, key_2 = device_token_issued(scorer, device="tablet at table 2")

    with rates(user="2/min"):
        table_1 = statuses(client_with(key_1), 3)
        table_2 = statuses(client_with(key_2), 2)

    assert table_1 == [200, 200, 429]
    assert table_2 == [200, 200]


def test_a_scorers_requests_do_not_spend_the_budget_of_its_address() -> None:
    scorer, spectator = client_with(user_token("scorer")), APIClient()

    with rates(anon="2/min", user="10/min"):
        scorer_statuses = statuses(scorer, 4)
        spectator_statuses = statuses(spectator, 3)

    assert scorer_statuses == [200, 200, 200, 200]
    assert spectator_statuses == [200, 200, 429]


def test_anonymous_clients_are_counted_by_address() -> None:
    club, home = APIClient(REMOTE_ADDR="203.0.113.7"), APIClient(REMOTE_ADDR="198.51.100.20")

    with rates(anon="1/min"):
        club_statuses = statuses(club, 2)
        home_statuses = statuses(home, 1)

    assert club_statuses == [200, 429]
    assert home_statuses == [200]


def test_a_forged_forwarded_for_header_does_not_buy_a_fresh_budget() -> None:
    anonymous = APIClient()

    with rates(anon="1/min"):
        first = anonymous.get(READ, HTTP_X_FORWARDED_FOR="192.0.2.1")
        second = anonymous.get(READ, HTTP_X_FORWARDED_FOR="192.0.2.2")

    assert (first.status_code, second.status_code) == (200, 429)


def test_the_default_rates_take_a_scorers_burst_after_a_mistake() -> None:
    _token, key = device_token_issued()

    assert statuses(client_with(key), 40) == [200] * 40


def test_a_scope_without_a_rate_is_not_throttled() -> None:
    scorer = client_with(user_token("scorer"))

    with rates(user=None):
        assert statuses(scorer, 5) == [200] * 5


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
)
def test_requests_are_let_through_and_logged_when_the_cache_is_unreachable(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with rates(anon="1/min"):
        assert statuses(APIClient(), 2) == [200, 200]

    assert "the cache failed" in caplog.text


@pytest.mark.parametrize(
    ("value", "rate"),
    [
        ("600/min", "600/min"),
        (" 5/s ", "5/s"),
        ("20/minute", "20/minute"),
        ("none", None),
        ("OFF", None),
        ("", None),
    ],
)
def test_a_rate_from_the_environment_is_a_drf_rate_or_none(
    monkeypatch: pytest.MonkeyPatch, value: str, rate: str | None
) -> None:
    monkeypatch.setenv("API_THROTTLE_TEST", value)

    assert throttle_rate("API_THROTTLE_TEST", "1/min") == rate


@pytest.mark.parametrize("value", ["600", "600/week", "fast", "-1/min", "10/w"])
def test_a_rate_from_the_environment_that_drf_cannot_read_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("API_THROTTLE_TEST", value)

    with pytest.raises(ImproperlyConfigured, match="API_THROTTLE_TEST"):
        throttle_rate("API_THROTTLE_TEST", "1/min")


def test_made_up_keys_are_401_until_the_sign_in_rate_and_then_429_throttled() -> None:
    with rates(login="3/min"):
        answers = statuses(client_with("0" * 40), 4)
        last = client_with("dt_" + "A" * 43).get(READ)

    assert answers == [401, 401, 401, 429]
    assert_throttled(last)


def test_a_valid_key_is_not_counted_as_a_failed_sign_in() -> None:
    key = user_token("scorer")

    with rates(login="2/min"):
        answers = statuses(client_with(key), 5)

    assert answers == [200] * 5


def test_failed_sign_ins_of_one_address_do_not_throttle_another() -> None:
    with rates(login="1/min"):
        statuses(client_with("0" * 40), 3, REMOTE_ADDR="10.0.0.1")
        other = statuses(client_with("0" * 40), 1, REMOTE_ADDR="10.0.0.2")

    assert other == [401]
