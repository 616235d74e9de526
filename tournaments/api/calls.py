"""The check-in window and calling matches to their tables (the no-show rule's two conditions)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import NoInput, command_response, idempotency_key_of
from common.api.serializing import Serializer, validated_input
from tournaments.api.schema import (
    TOURNAMENT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
    tournament_read_schema,
)
from tournaments.api.serializers import TournamentMatchOutput
from tournaments.selectors import answers, fixtures
from tournaments.selectors.access import TournamentAccess
from tournaments.services import registration, scheduling
from tournaments.state import CheckInWindow

MAX_TABLE = 10_000


class CheckInWindowOutput(Serializer):
    open = serializers.BooleanField(help_text="Whether a check-in is accepted now.")
    opened_at = serializers.DateTimeField(
        allow_null=True, help_text="Null: never opened (then check-in is accepted at any time)."
    )
    closes_at = serializers.DateTimeField(allow_null=True, help_text="When it closes by itself.")
    closed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the organizer closed it."
    )

    class Meta:
        ref_name = "CheckInWindow"


def window_body(window: CheckInWindow) -> dict[str, Any]:
    return CheckInWindowOutput(answers.check_in_window_view(window)).data


class CheckInWindowApi(JsonApi):
    permission_classes = [TournamentAccess]

    @tournament_read_schema(
        operation_id="check_in_window_get",
        summary="The check-in window: whether entrants may check in now",
        response=CheckInWindowOutput,
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:  # noqa: ARG002 - DRF calls every handler with the request
        return Response(window_body(answers.check_in_window(tournament_id=tournament_id)))


class CheckInOpenApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        closes_at = serializers.DateTimeField(
            required=False, allow_null=True, help_text="When it closes by itself (optional)."
        )

        class Meta:
            ref_name = "CheckInOpenInput"

    @tournament_command_schema(
        operation_id="check_in_open",
        summary="Open the check-in window (again, after a close)",
        description="A tournament that never opens one accepts check-ins at any time.",
        request=InputSerializer,
        response=CheckInWindowOutput,
        errors={**TOURNAMENT_NOT_FOUND, 409: VERSION_CONFLICT, 422: "`invalid_tournament`."},
        unchanged="Already open until the same time.",
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = registration.check_in_open(
            tournament_id=tournament_id,
            closes_at=data.get("closes_at"),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return command_response(result, window_body(result.state.check_in))


class CheckInCloseApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="check_in_close",
        summary="Close the check-in window: later check-ins are refused (`check_in_closed`)",
        request=None,
        response=CheckInWindowOutput,
        errors={**TOURNAMENT_NOT_FOUND, 409: VERSION_CONFLICT},
        unchanged="Closed already.",
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        validated_input(NoInput, request.data)
        result = registration.check_in_close(
            tournament_id=tournament_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return command_response(result, window_body(result.state.check_in))


class MatchCallApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        table = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=MAX_TABLE,
            help_text="Move the match to this table first (swapping with a match holding it).",
        )

        class Meta:
            ref_name = "MatchCallInput"

    @tournament_command_schema(
        operation_id="match_call",
        summary="Call a match to its table: with the no-show rule on, its deadline starts now",
        description="A match is also called by itself when both sides have checked in and it "
        "has a table. Calling a called match again changes nothing.",
        request=InputSerializer,
        response=TournamentMatchOutput,
        errors={
            404: "`tournament_not_found`, `match_not_found`: not a match of this tournament.",
            409: VERSION_CONFLICT,
            422: "`invalid_tournament`: finished or replaced, no table yet, or a table out of "
            "range; `table_reserved`: a table kept for an entrant's fixed table, or a "
            "fixed-table entrant's match moved off its table (decision record 0059).",
        },
        unchanged="Called already.",
    )
    def post(self, request: Request, tournament_id: UUID, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        fixtures.check_match_of_tournament(tournament_id=tournament_id, match_id=match_id)
        result = scheduling.fixture_call(
            match_id=match_id,
            table=data.get("table"),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        fixture = fixtures.tournament_fixture(tournament_id=tournament_id, match_id=match_id)
        return command_response(result, TournamentMatchOutput(fixture).data)
