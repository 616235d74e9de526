"""Liveness and readiness: the database and Redis must both answer, and the log's consumer must
not trail the log for longer than `HEALTH_CONSUMER_MAX_LAG_SECONDS`."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from tournaments.projections.consumer import ConsumerLag, consumer_lag


def check_database() -> str | None:
    """Return None when the database answers, else the reason it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not healthy"; report, never raise
        return str(exc) or exc.__class__.__name__
    return None


def check_redis() -> str | None:
    """Return None when Redis answers PING, else the reason it does not."""
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
        )
        client.ping()
    except Exception as exc:
        return str(exc) or exc.__class__.__name__
    return None


def check_consumer(lag: ConsumerLag | None) -> str | None:
    """Return None when the consumer keeps up (or cannot be asked: the database check says why)."""
    limit = settings.HEALTH_CONSUMER_MAX_LAG_SECONDS
    if lag is None or lag.events == 0 or lag.seconds <= limit:
        return None
    return (
        f"{lag.events} positions of the log wait, "
        f"the oldest for {lag.seconds:.0f} s (limit {limit} s)"
    )


def healthz(request: HttpRequest) -> JsonResponse:  # noqa: ARG001 - Django calls every view with the request
    database = check_database()
    lag = consumer_lag(now=timezone.now()) if database is None else None
    checks = {"database": database, "redis": check_redis(), "consumer": check_consumer(lag)}
    healthy = all(problem is None for problem in checks.values())
    body: dict[str, object] = {
        "status": "ok" if healthy else "unavailable",
        "checks": {name: problem or "ok" for name, problem in checks.items()},
    }
    if lag is not None:
        body["consumer"] = {
            "head": lag.head,
            "checkpoint": lag.checkpoint,
            "lag_events": lag.events,
            "lag_seconds": round(lag.seconds, 1),
        }
    return JsonResponse(body, status=200 if healthy else 503)
