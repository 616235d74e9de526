"""The admin's sign-in lockout: repeated failures for a username from one address, for a username
from anywhere (a much higher ceiling) or from one address lock it for a cool-down, during which
even the right password is refused (429 with a message and `Retry-After`); a stranger's
failures from another address do not lock the organizer out; a successful sign-in forgets its
own address's failures for the username and never counts as a failure. Small limits through
`override_settings` where the defaults are not the point; the cache is emptied around each test;
the cool-down passes on a controlled clock (`clock`), not in sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory, override_settings

from accounts.login import login_lockout_lift
from tests.factories.accounts import UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
PASSWORD = "a long enough password for the organizer"
WRONG = "not the password"


@pytest.fixture
def organizer() -> Any:
    return UserFactory.create(username="organizer", password=PASSWORD, is_staff=True)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Moves the clock that the lockout and the cache read (`time.time`) forward, without
    sleeping: call it with the seconds that pass."""
    real = time.time
    passed = [0.0]

    def advance(seconds: float) -> None:
        passed[0] += seconds

    monkeypatch.setattr(time, "time", lambda: real() + passed[0])
    return advance


def sign_in(client: Client, username: str, password: str, **request: Any) -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, **request)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def fail(client: Client, username: str, times: int, **request: Any) -> list[int]:
    return [sign_in(client, username, WRONG, **request).status_code for _ in range(times)]


def text(response: Any) -> str:
    return str(response.content.decode())


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_the_admin_login_locks_a_username_at_an_address_after_n_failures() -> None:
    client = Client()

    failures = fail(client, "organizer", 3)
    refused = sign_in(client, "organizer", WRONG)

    assert failures == [200, 200, 200]
    assert refused.status_code == 429
    assert "Too many failed sign-ins for this username from this network" in text(refused)
    assert "Try again in 15 minutes." in text(refused)
    assert 890 <= int(refused["Retry-After"]) <= 900


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_a_locked_usernames_correct_password_is_refused_during_the_lock() -> None:
    client = Client()
    fail(client, "organizer", 3)

    response = sign_in(client, "organizer", PASSWORD)

    assert response.status_code == 429
    assert "sign-in is paused" in text(response)
    assert not signed_in(client)


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_a_lock_holds_for_the_username_in_any_case() -> None:
    client = Client()
    fail(client, "Organizer", 2)
    fail(client, "ORGANIZER", 1)

    assert sign_in(client, "organizer", PASSWORD).status_code == 429


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_the_lock_lifts_after_the_cool_down_and_the_count_starts_again(
    clock: Callable[[float], None],
) -> None:
    client = Client()
    fail(client, "organizer", 3)
    assert sign_in(client, "organizer", PASSWORD).status_code == 429
    clock(15 * 60 - 2)
    assert sign_in(client, "organizer", PASSWORD).status_code == 429

    clock(3)
    after_cool_down = fail(client, "organizer", 2)
    response = sign_in(client, "organizer", PASSWORD)

    assert after_cool_down == [200, 200]
    assert response.status_code == 302
    assert signed_in(client)


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_a_successful_sign_in_forgets_the_usernames_failures() -> None:
    client = Client()
    fail(client, "organizer", 2)
    assert sign_in(client, "organizer", PASSWORD).status_code == 302
    client.logout()

    later = fail(client, "organizer", 2)
    response = sign_in(client, "organizer", PASSWORD)

    assert later == [200, 200]
    assert response.status_code == 302


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
def test_an_unknown_username_locks_like_a_known_one() -> None:
    client = Client()

    failures = fail(client, "nobody", 3)
    refused = sign_in(client, "nobody", WRONG)

    assert failures == [200, 200, 200]
    assert refused.status_code == 429
    assert "Too many failed sign-ins for this username" in text(refused)


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_another_usernames_lock_does_not_stop_an_organizer() -> None:
    client = Client()
    fail(client, "someone-else", 3)

    assert sign_in(client, "organizer", PASSWORD).status_code == 302


@override_settings(LOGIN_FAILURES_PER_ADDRESS=4)
@pytest.mark.usefixtures("organizer")
def test_an_address_is_locked_after_n_failures_whatever_the_usernames() -> None:
    guesser, colleague = Client(REMOTE_ADDR="203.0.113.9"), Client(REMOTE_ADDR="198.51.100.4")
    for username in ("admin", "root", "maria", "luca"):
        fail(guesser, username, 1)

    refused = sign_in(guesser, "organizer", PASSWORD)
    elsewhere = sign_in(colleague, "organizer", PASSWORD)

    assert refused.status_code == 429
    assert "Too many failed sign-ins from this network" in text(refused)
    assert elsewhere.status_code == 302


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=2)
@pytest.mark.usefixtures("organizer")
def test_failed_sign_ins_outside_the_admin_count_too() -> None:
    request = RequestFactory().post("/elsewhere/")
    for _ in range(2):
        assert authenticate(request, username="organizer", password=WRONG) is None

    assert sign_in(Client(), "organizer", PASSWORD).status_code == 429


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_lifting_a_lock_lets_the_organizer_sign_in_again() -> None:
    client = Client()
    fail(client, "organizer", 3)

    login_lockout_lift(username="organizer")
    still = sign_in(client, "organizer", PASSWORD).status_code
    login_lockout_lift(username="organizer", address="127.0.0.1")

    assert still == 429
    assert sign_in(client, "organizer", PASSWORD).status_code == 302


@override_settings(LOGIN_FAILURES_PER_USERNAME=3)
@pytest.mark.usefixtures("organizer")
def test_lifting_a_usernames_ceiling_lets_the_organizer_sign_in_again() -> None:
    for number in range(3):
        fail(Client(REMOTE_ADDR=f"203.0.113.{number + 1}"), "organizer", 1)
    client = Client(REMOTE_ADDR="198.51.100.4")
    assert sign_in(client, "organizer", PASSWORD).status_code == 429

    login_lockout_lift(username="organizer")

    assert sign_in(client, "organizer", PASSWORD).status_code == 302


@pytest.mark.usefixtures("organizer")
def test_failed_sign_ins_past_the_login_rate_refuse_even_the_right_password() -> None:
    framework = settings.REST_FRAMEWORK
    login_rate = {**framework["DEFAULT_THROTTLE_RATES"], "login": "2/min"}
    client = Client()

    with override_settings(REST_FRAMEWORK={**framework, "DEFAULT_THROTTLE_RATES": login_rate}):
        successes = []
        for _ in range(3):
            successes.append(sign_in(client, "organizer", PASSWORD))
            client.logout()
        failures = fail(client, "organizer", 2)
        refused = sign_in(client, "organizer", PASSWORD)

    assert [success.status_code for success in successes] == [302, 302, 302]
    assert failures == [200, 200]
    assert refused.status_code == 429
    assert "Too many sign-in attempts from this network" in text(refused)
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert not signed_in(client)


@pytest.mark.usefixtures("organizer")
def test_the_login_page_itself_is_not_counted() -> None:
    client = Client()

    pages = [client.get(LOGIN).status_code for _ in range(15)]

    assert pages == [200] * 15
    assert sign_in(client, "organizer", PASSWORD).status_code == 302


@override_settings(
    LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=1,
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    },
)
@pytest.mark.usefixtures("organizer")
def test_without_the_cache_organizers_can_still_sign_in(caplog: pytest.LogCaptureFixture) -> None:
    client = Client()
    failures = fail(client, "organizer", 2)

    response = sign_in(client, "organizer", PASSWORD)

    assert failures == [200, 200]
    assert response.status_code == 302
    assert "the cache failed" in caplog.text


API_LOGIN = "/api-auth/login/"


def test_a_player_signs_in_to_the_browsable_api_with_a_session_and_reads_as_themselves() -> None:
    UserFactory.create(username="anna", password=PASSWORD)
    client = Client()

    response = client.post(
        API_LOGIN, {"username": "anna", "password": PASSWORD, "next": "/api/v1/tournaments/"}
    )

    assert response.status_code == 302
    assert response["Location"] == "/api/v1/tournaments/"
    assert signed_in(client)
    assert client.get("/api/v1/tournaments/", HTTP_ACCEPT="text/html").status_code == 200


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=2)
def test_the_browsable_api_sign_in_is_locked_like_the_admins() -> None:
    UserFactory.create(username="anna", password=PASSWORD)
    client = Client()
    for _ in range(2):
        client.post(API_LOGIN, {"username": "anna", "password": WRONG})

    refused = client.post(API_LOGIN, {"username": "anna", "password": PASSWORD})

    assert refused.status_code == 429
    assert not signed_in(client)
    assert "Too many failed sign-ins for this username" in text(refused)


@override_settings(LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS=3)
@pytest.mark.usefixtures("organizer")
def test_the_lockout_is_explained_in_the_browser_language() -> None:
    client = Client()
    fail(client, "organizer", 3)

    refused = sign_in(client, "organizer", WRONG, HTTP_ACCEPT_LANGUAGE="it")

    assert refused.status_code == 429
    assert "Troppi accessi falliti per questo nome utente da questa rete" in text(refused)
    assert "Riprova tra 15 minuti." in text(refused)


@pytest.mark.parametrize("login", [LOGIN, API_LOGIN])
@pytest.mark.usefixtures("organizer")
def test_successful_sign_ins_never_count_against_the_login_rate(login: str) -> None:
    """Issue 14: at the default rate (10 a minute) the 11th successful sign-in within a minute
    was refused with 429, at the admin's login and at the pages' (the browsable API's)."""
    client = Client()
    answers = []
    for _ in range(12):
        answers.append(client.post(login, {"username": "organizer", "password": PASSWORD}))
        client.logout()

    assert [answer.status_code for answer in answers] == [302] * 12


STRANGER = "203.0.113.9"
ORGANIZERS_DEVICE = "198.51.100.4"


@pytest.mark.usefixtures("organizer")
def test_a_stranger_failing_five_times_from_one_address_does_not_lock_out_the_organizer() -> None:
    """Issue 23 §6: five wrong passwords from any address locked the username everywhere."""
    stranger, organizer = Client(REMOTE_ADDR=STRANGER), Client(REMOTE_ADDR=ORGANIZERS_DEVICE)

    failures = fail(stranger, "organizer", 5)
    at_the_organizers_device = sign_in(organizer, "organizer", PASSWORD)

    assert failures == [200] * 5
    assert at_the_organizers_device.status_code == 302
    assert signed_in(organizer)


@pytest.mark.usefixtures("organizer")
def test_the_same_address_is_locked_for_the_username_after_five_failures() -> None:
    stranger = Client(REMOTE_ADDR=STRANGER)

    failures = fail(stranger, "organizer", 5)
    refused = sign_in(stranger, "organizer", PASSWORD)
    other_username = sign_in(stranger, "nobody", WRONG)

    assert failures == [200] * 5
    assert refused.status_code == 429
    assert "Too many failed sign-ins for this username from this network" in text(refused)
    assert 890 <= int(refused["Retry-After"]) <= 900
    assert not signed_in(stranger)
    assert other_username.status_code == 200


@pytest.mark.usefixtures("organizer")
def test_past_the_per_username_ceiling_of_fifty_distributed_failures_everyone_is_locked() -> None:
    """Guessing from many addresses, one try each: the 50th failure in the window locks the
    username everywhere, the organizer's own device too; the organizer's sign-in before it does
    not forget the others' failures."""
    for number in range(1, 50):
        assert fail(Client(REMOTE_ADDR=f"192.0.2.{number}"), "organizer", 1) == [200]
    organizer = Client(REMOTE_ADDR=ORGANIZERS_DEVICE)
    before = sign_in(organizer, "organizer", PASSWORD)
    organizer.logout()

    fail(Client(REMOTE_ADDR="192.0.2.200"), "organizer", 1)
    refused = sign_in(organizer, "organizer", PASSWORD)

    assert before.status_code == 302
    assert refused.status_code == 429
    assert "Too many failed sign-ins for this username: sign-in is paused" in text(refused)
    assert not signed_in(organizer)
