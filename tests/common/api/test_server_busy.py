"""An overloaded web process (every connection of its pool taken for DATABASE_POOL_TIMEOUT)
answers 503 `server_busy` with a Retry-After, not a 500: the client sends the request again
(decision 0051)."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from psycopg_pool import ConnectionPool
from rest_framework.test import APIClient

from tests.factories.accounts import ClubFactory
from tournaments.ratings import selectors as rating_selectors

pytestmark = pytest.mark.django_db


def a_real_pool_timeout() -> Exception:
    """What Django raises when its pool hands out no connection in time: a pool of one whose
    connection is taken, asked again, wrapped as Django wraps the driver's errors."""
    settings = connection.settings_dict
    conninfo = (
        f"host={settings['HOST']} port={settings['PORT'] or 5432} "
        f"user={settings['USER']} dbname={settings['NAME']}"
    )
    pool = ConnectionPool(conninfo, min_size=1, max_size=1, timeout=0.1, open=True)
    with pool, pool.connection():
        try:
            with connection.wrap_database_errors:
                pool.getconn()
        except OperationalError as error:
            return error
    raise AssertionError("the pool handed out a second connection")


def test_a_request_that_waited_too_long_for_a_connection_answers_503_server_busy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = ClubFactory.create()
    timeout = a_real_pool_timeout()

    def overloaded(**_: object) -> list[object]:
        raise timeout

    monkeypatch.setattr(rating_selectors, "club_leaderboard", overloaded)

    answer = APIClient().get(f"/api/v1/clubs/{club.slug}/ratings/")

    assert answer.status_code == 503
    assert answer.json()["code"] == "server_busy"
    assert answer["Retry-After"] == "2"


def test_another_database_error_is_still_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    club = ClubFactory.create()

    def broken(**_: object) -> list[object]:
        raise OperationalError("the server closed the connection")

    monkeypatch.setattr(rating_selectors, "club_leaderboard", broken)

    answer = APIClient(raise_request_exception=False).get(f"/api/v1/clubs/{club.slug}/ratings/")

    assert answer.status_code == 500
