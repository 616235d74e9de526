import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts import services
from accounts.models import DeviceToken, DeviceTokenState
from tests.factories.accounts import TOURNAMENT, UserFactory, device_token_issued

pytestmark = pytest.mark.django_db


def test_a_device_token_keeps_only_the_hash_and_a_prefix_of_its_key() -> None:
    organizer = UserFactory.create(username="organizer")

    token, key = device_token_issued(UserFactory.create(username="scorer"), created_by=organizer)

    token.refresh_from_db()
    assert key.startswith("dt_")
    assert len(key) == 46
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:11]
    assert key not in {str(value) for value in DeviceToken.objects.values_list().get()}
    assert (token.user.username, token.name, token.created_by) == (
        "scorer",
        "tablet at table 3",
        organizer,
    )
    assert str(token) == f"tablet at table 3 ({key[:11]}…)"


def test_every_device_token_has_its_own_key() -> None:
    user = UserFactory.create(username="scorer")

    keys = {device_token_issued(user)[1] for _ in range(5)}

    assert len(keys) == 5


def test_a_device_token_lasts_24_hours_by_default() -> None:
    before = timezone.now()

    token, _key = device_token_issued()

    assert token.expires_at - token.created_at == timedelta(hours=24)
    assert token.created_at >= before
    assert (token.revoked_at, token.last_used_at) == (None, None)
    assert token.state_at(timezone.now()) == DeviceTokenState.ACTIVE


@override_settings(ACCOUNTS_DEVICE_TOKEN_LIFETIME=timedelta(hours=6))
def test_the_default_lifetime_comes_from_the_settings() -> None:
    token, _key = device_token_issued()

    assert token.expires_at - token.created_at == timedelta(hours=6)


def test_a_device_token_may_last_as_long_as_asked() -> None:
    token, _key = device_token_issued(expires_in=timedelta(hours=3))

    assert token.expires_at - token.created_at == timedelta(hours=3)
    assert token.state_at(token.created_at + timedelta(hours=3)) == DeviceTokenState.EXPIRED


@pytest.mark.parametrize(
    ("expires_in", "message"),
    [
        (timedelta(0), "positive lifetime"),
        (timedelta(minutes=-5), "positive lifetime"),
        (timedelta(days=32), "at most 31 days"),
    ],
)
def test_a_device_token_lasts_some_time_and_not_for_ever(
    expires_in: timedelta, message: str
) -> None:
    with pytest.raises(services.InvalidDeviceToken, match=message):
        device_token_issued(expires_in=expires_in)

    assert not DeviceToken.objects.exists()


def test_a_device_token_may_be_narrowed_to_tables_of_a_tournament() -> None:
    token, _key = device_token_issued(tournament_id=TOURNAMENT, tables=[4, 3, 4])

    token.refresh_from_db()
    assert (token.tournament_id, token.tables) == (TOURNAMENT, [3, 4])


def test_a_device_token_for_a_tournament_may_score_any_of_its_tables() -> None:
    token, _key = device_token_issued(tournament_id=TOURNAMENT)

    token.refresh_from_db()
    assert (token.tournament_id, token.tables) == (TOURNAMENT, [])


@pytest.mark.parametrize(
    ("device", "scope", "message"),
    [
        ("  ", {}, "name the device"),
        ("x" * 65, {}, "at most 64 characters"),
        ("tablet", {"tables": [3]}, "give the tournament too"),
        ("tablet", {"tournament_id": TOURNAMENT, "tables": [0]}, "from 1 to 32767"),
        ("tablet", {"tournament_id": TOURNAMENT, "tables": [40000]}, "from 1 to 32767"),
        ("tablet", {"tournament_id": TOURNAMENT, "tables": ["3"]}, "by their numbers"),
    ],
)
def test_a_device_token_needs_a_device_name_and_sensible_tables(
    device: str, scope: dict[str, Any], message: str
) -> None:
    with pytest.raises(services.InvalidDeviceToken, match=message):
        device_token_issued(device=device, **scope)

    assert not DeviceToken.objects.exists()


def test_an_inactive_user_gets_no_device_token() -> None:
    with pytest.raises(services.InvalidDeviceToken, match="inactive"):
        device_token_issued(UserFactory.create(username="scorer", is_active=False))


def test_revoking_a_device_token_records_when_and_keeps_the_first_time() -> None:
    token, _key = device_token_issued()
    first = timezone.now()

    services.device_token_revoke(token=token, revoked_at=first)
    services.device_token_revoke(token=token, revoked_at=first + timedelta(hours=1))

    token.refresh_from_db()
    assert token.revoked_at == first
    assert token.state_at(first) == DeviceTokenState.REVOKED


def test_use_is_recorded_at_most_once_a_minute() -> None:
    token, _key = device_token_issued()
    start = timezone.now()

    services.device_token_mark_used(token=token, now=start)
    services.device_token_mark_used(token=token, now=start + timedelta(seconds=59))
    token.refresh_from_db()
    assert token.last_used_at == start

    services.device_token_mark_used(token=token, now=start + timedelta(seconds=61))
    token.refresh_from_db()
    assert token.last_used_at == start + timedelta(seconds=61)


def test_use_seen_by_a_stale_copy_of_the_token_is_not_written_again() -> None:
    token, _key = device_token_issued()
    stale = DeviceToken.objects.get(pk=token.pk)
    start = timezone.now()

    services.device_token_mark_used(token=token, now=start)
    services.device_token_mark_used(token=stale, now=start + timedelta(seconds=30))

    token.refresh_from_db()
    assert token.last_used_at == start
