import pytest
from django.test import Client, override_settings

from common.actors import Actor
from tournaments.projections.consumer import consume
from tournaments.services.registration import tournament_create

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_when_database_and_redis_answer(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "redis": "ok", "consumer": "ok"},
        "consumer": {"head": 0, "checkpoint": 0, "lag_events": 0, "lag_seconds": 0.0},
    }


def test_healthz_is_unavailable_while_the_consumer_trails_the_log_past_the_limit(
    client: Client,
) -> None:
    tournament_create(name="Coppa", format="swiss", table_size=2, actor=Actor())

    with override_settings(HEALTH_CONSUMER_MAX_LAG_SECONDS=-1):
        trailing = client.get("/healthz")
        consume()
        caught_up = client.get("/healthz")

    lag = trailing.json()["consumer"]
    assert trailing.status_code == 503
    assert lag["lag_events"] == lag["head"] - lag["checkpoint"] > 0
    assert trailing.json()["checks"]["consumer"].startswith(
        f"{lag['lag_events']} positions of the log wait"
    )
    assert caught_up.status_code == 200
    assert caught_up.json()["consumer"]["lag_events"] == 0


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_healthz_is_unavailable_when_redis_does_not_answer(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"] != "ok"


def test_home_page_links_the_admin_and_the_api_docs(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert b'href="/admin/"' in response.content
    assert b'href="/api/v1/docs/"' in response.content


def test_home_page_lists_the_tournaments_its_visitor_may_read(
    client: Client, admin_client: Client
) -> None:
    tournament_create(name="Coppa Aperta", format="swiss", table_size=2, actor=Actor())
    tournament_create(
        name="Coppa Riservata", format="swiss", table_size=2, public=False, actor=Actor()
    )

    anybody = client.get("/").content.decode()
    superuser = admin_client.get("/").content.decode()

    assert "Coppa Aperta" in anybody
    assert "Coppa Riservata" not in anybody
    assert "Coppa Riservata" in superuser


def test_api_docs_are_served_without_the_internet(client: Client) -> None:
    docs = client.get("/api/v1/docs/")
    schema = client.get("/api/v1/schema/")

    assert docs.status_code == 200
    assert b"cdn" not in docs.content.lower()
    assert schema.status_code == 200
    assert b"openapi" in schema.content
