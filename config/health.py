"""Liveness and readiness: the database and Redis must both answer."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


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


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "redis": check_redis()}
    healthy = all(problem is None for problem in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": {name: problem or "ok" for name, problem in checks.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)
