"""The app as config.wsgi serves it, plus two bench-only endpoints: baselines that the benchmarks
measure beside the real API, in the same gunicorn, settings and middleware.

Serve it with `gunicorn bench.wsgi:application` (bench/append.py and bench/tournaments.py do).
The app never imports this module: it is not in config/ and no URLconf of the app names it.

- `POST /bench/floor/`: the framework floor of an authenticated write (issue 13 §3). The API's
  authentication and throttle classes (those of `REST_FRAMEWORK` in the settings: the device-
  token-aware token authentication), permission "signed in", a JSON body
  `{"stream_id": UUID, "expected_version": V, "seat": S, "card": C}`, then one transaction that
  inserts one CardPlayed-sized row into `bench_floor_event` (a trigger-less copy of the event
  table with its unique (stream, version) constraint, made by the bench: `bench._load`) only if
  the stream's current version is V. 201 `{"version": V + 1}`, or 409 `version_conflict`.
- `GET /bench/constant/`: a minimal DRF view, no authentication, no throttle, anyone; a constant
  JSON body. The baseline of the read benchmarks (issue 13 §4).

Every other path goes to the app's own URLconf (`settings.ROOT_URLCONF`), unchanged: this module's
URLconf includes it, and requests are resolved with it by setting `request.urlconf`, the hook
Django gives middleware, so the settings stay those of config.settings.
"""

# ruff: noqa: E402  (Django is set up before DRF is imported, as django.core.wsgi would do)

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
django.setup(set_prefix=False)

import json
from importlib import import_module
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest, HttpResponseBase
from django.urls import URLPattern, URLResolver, path
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bench._load import FLOOR_TABLE  # created by the bench before it serves, never by the app

FLOOR_INSERT = f"""
INSERT INTO {FLOOR_TABLE} (
    stream_id, stream_type, stream_version, event_type, schema_version, payload, metadata,
    recorded_at
)
SELECT %(stream)s, 'match', %(expected)s + 1, 'CardPlayed', 1, %(payload)s::jsonb,
    %(metadata)s::jsonb, statement_timestamp()
WHERE (
    SELECT coalesce(max(stream_version), 0) FROM {FLOOR_TABLE} WHERE stream_id = %(stream)s
) = %(expected)s
"""  # noqa: S608 - constant table names; values are bound
"""Appends version V + 1 when V is the stream's last; two writers that both saw V collide on
the unique (stream_id, stream_version) constraint, and the loser gets a conflict too."""

CONSTANT_BODY = {"status": "ok", "bench": "constant"}


class FloorInput(serializers.Serializer[dict[str, Any]]):
    stream_id = serializers.UUIDField()
    expected_version = serializers.IntegerField(min_value=0)
    seat = serializers.IntegerField(min_value=0, max_value=5)
    card = serializers.CharField(max_length=3)


class FloorApi(APIView):
    """Authentication and throttles from the settings, as every API view has them."""

    permission_classes = [permissions.IsAuthenticated]

    def post(self, request: Request) -> Response:
        given = FloorInput(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        expected = data["expected_version"]
        payload = {"round": 1, "seat": data["seat"], "card": data["card"]}
        metadata = {"actor_id": request.user.pk, "device": "bench"}
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    FLOOR_INSERT,
                    {
                        "stream": data["stream_id"],
                        "expected": expected,
                        "payload": json.dumps(payload),
                        "metadata": json.dumps(metadata),
                    },
                )
                appended = cursor.rowcount == 1
        except IntegrityError:
            appended = False
        if not appended:
            return Response(
                {"code": "version_conflict", "detail": "The stream is past the expected version."},
                status=status.HTTP_409_CONFLICT,
            )
        return Response({"version": expected + 1}, status=status.HTTP_201_CREATED)


class ConstantApi(APIView):
    authentication_classes: list[type[Any]] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes: list[type[Any]] = []

    def get(self, request: Request) -> Response:  # noqa: ARG002 - DRF calls every handler with the request
        return Response(CONSTANT_BODY)


class BenchHandler(WSGIHandler):
    """Django's WSGI handler, resolving every request with this module's URLconf."""

    def get_response(self, request: HttpRequest) -> HttpResponseBase:
        request.urlconf = __name__
        return super().get_response(request)


def app_urlpatterns() -> list[URLPattern | URLResolver]:
    from django.conf import settings

    patterns: list[URLPattern | URLResolver] = import_module(settings.ROOT_URLCONF).urlpatterns
    return patterns


application = BenchHandler()

urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/floor/", FloorApi.as_view(), name="bench-floor"),
    path("bench/constant/", ConstantApi.as_view(), name="bench-constant"),
    *app_urlpatterns(),
]
