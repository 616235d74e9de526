"""Requested byes and pauses in a Swiss (decision record 0058): the organizer asks for an
entrant's bye in a future round (or takes it back), pauses an entrant and has it return; the
player asks for (or takes back) their own bye with their player key, from `/me/byes/`."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, NoInput, idempotency_key_of
from common.api.schema import COMMAND_HEADERS, REPEATED_KEY, command_schema, error_responses
from common.api.serializing import Serializer, validated_input
from tournaments.api.me import (
    NOT_ENTERED,
    PLAYER_KEY_ONLY,
    PlayerKeyOnly,
    PlayerViewOutput,
    own_entrant,
    player_actor,
    player_command_response,
    player_of,
    view_of,
)
from tournaments.api.schema import (
    ENTRANT_NOT_FOUND,
    KEY_REUSED,
    VERSION_CONFLICT,
    tournament_command_schema,
    tournament_read_schema,
)
from tournaments.api.serializers import EntrantByesOutput
from tournaments.selectors.access import TournamentAccess
from tournaments.services import byes
from tournaments.services.pipeline import TournamentCommandResult
from tournaments.stream.byes import entrant_byes

BYE_CONFLICTS = (
    "`round_already_drawn` (the round is drawn or past), `too_many_byes` "
    "(`max_requested_byes` reached), `bye_already_requested`, `entrant_withdrawn`"
)
BYE_INVALID = "`not_a_swiss`, `invalid_round` (a round the Swiss does not have)."


class RoundInput(Serializer):
    round = serializers.IntegerField(
        min_value=1, max_value=1000, help_text="The Swiss round to sit out, not drawn yet."
    )

    class Meta:
        ref_name = "ByeRoundInput"


def byes_response(result: TournamentCommandResult, entrant_id: int) -> Response:
    return Response(
        EntrantByesOutput(entrant_byes(result.state, entrant_id)).data,
        status=status.HTTP_201_CREATED if result.recorded else status.HTTP_200_OK,
    )


class EntrantByesApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.READ, "post": Action.ORGANIZE}

    @tournament_read_schema(
        operation_id="entrant_byes",
        summary="An entrant's requested byes, pause and late entry",
        response=EntrantByesOutput,
    )
    def get(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:  # noqa: ARG002 - DRF passes the request
        return Response(
            EntrantByesOutput(
                byes.entrant_byes_of(tournament_id=tournament_id, entrant_id=entrant_id)
            ).data
        )

    @tournament_command_schema(
        operation_id="entrant_bye_request",
        summary="Ask for an entrant's bye in a future Swiss round",
        description="The entrant is not drawn in that round and scores `requested_bye_points` "
        "for it (decision record 0058).",
        request=RoundInput,
        response=EntrantByesOutput,
        errors={**ENTRANT_NOT_FOUND, 409: f"{BYE_CONFLICTS}; {VERSION_CONFLICT}", 422: BYE_INVALID},
    )
    def post(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        data = validated_input(RoundInput, request.data)
        result = byes.bye_request(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            round_number=data["round"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return byes_response(result, entrant_id)


class EntrantByeCancelApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"delete": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="entrant_bye_cancel",
        summary="Take back an entrant's requested bye before its round is drawn",
        request=None,
        response=EntrantByesOutput,
        errors={
            **ENTRANT_NOT_FOUND,
            409: f"`round_already_drawn`, `bye_not_requested`; {VERSION_CONFLICT}",
            422: "`not_a_swiss`.",
        },
        recorded_status=200,
    )
    def delete(
        self, request: Request, tournament_id: UUID, entrant_id: int, round_number: int
    ) -> Response:
        result = byes.bye_cancel(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            round_number=round_number,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return Response(EntrantByesOutput(entrant_byes(result.state, entrant_id)).data)


class PauseInput(Serializer):
    reason = serializers.CharField(
        max_length=REASON_MAX_LENGTH, allow_blank=True, default="", help_text="Optional."
    )

    class Meta:
        ref_name = "EntrantPauseInput"


class EntrantPauseApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="entrant_pause",
        summary="Mark an entrant absent: left out of the Swiss draws until it returns",
        description="From the next round drawn: no match, no points, no forfeit; its history "
        "still counts for the pairings (decision record 0058).",
        request=PauseInput,
        response=EntrantByesOutput,
        errors={
            **ENTRANT_NOT_FOUND,
            409: f"`entrant_withdrawn`; {VERSION_CONFLICT}",
            422: "`not_a_swiss`.",
        },
        unchanged="The entrant was paused already: nothing recorded.",
    )
    def post(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        data = validated_input(PauseInput, request.data)
        result = byes.entrant_pause(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            reason=data["reason"],
            actor=request_actor(request, reason=data["reason"]),
            idempotency_key=idempotency_key_of(request),
        )
        return byes_response(result, entrant_id)


class EntrantReturnApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="entrant_return",
        summary="A paused entrant returns: drawn again from the next round",
        request=NoInput,
        response=EntrantByesOutput,
        errors={
            **ENTRANT_NOT_FOUND,
            409: f"`entrant_withdrawn`; {VERSION_CONFLICT}",
            422: "`not_a_swiss`.",
        },
        unchanged="The entrant was not paused: nothing recorded.",
    )
    def post(self, request: Request, tournament_id: UUID, entrant_id: int) -> Response:
        validated_input(NoInput, request.data)
        result = byes.entrant_return(
            tournament_id=tournament_id,
            entrant_id=entrant_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return byes_response(result, entrant_id)


class MeByesApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    @command_schema(
        operation_id="me_bye_request",
        summary="Ask to sit out a future Swiss round (a requested bye)",
        tag="players",
        request=RoundInput,
        response=PlayerViewOutput,
        errors={
            **PLAYER_KEY_ONLY,
            409: f"{NOT_ENTERED} {BYE_CONFLICTS}; `version_conflict`.",
            422: BYE_INVALID,
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(RoundInput, request.data)
        player = player_of(request)
        entrant = own_entrant(request)
        result = byes.bye_request(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            round_number=data["round"],
            by_player=True,
            actor=player_actor(request, entrant),
            idempotency_key=idempotency_key_of(request),
        )
        return player_command_response(request, result)


class MeByeCancelApi(JsonApi):
    permission_classes = [PlayerKeyOnly]

    @extend_schema(
        operation_id="me_bye_cancel",
        summary="Take back my requested bye before its round is drawn",
        tags=["players"],
        request=None,
        responses={
            200: OpenApiResponse(PlayerViewOutput, description=f"Recorded. Or: {REPEATED_KEY}"),
            **error_responses(
                {
                    **PLAYER_KEY_ONLY,
                    404: "`not_found`: a round that is not a whole number.",
                    409: f"{NOT_ENTERED} `round_already_drawn`, `bye_not_requested`.",
                    422: f"`not_a_swiss`. {KEY_REUSED}",
                }
            ),
        },
        parameters=COMMAND_HEADERS,
    )
    def delete(self, request: Request, round_number: int) -> Response:
        player = player_of(request)
        entrant = own_entrant(request)
        byes.bye_cancel(
            tournament_id=player.tournament_id,
            entrant_id=entrant,
            round_number=round_number,
            by_player=True,
            actor=player_actor(request, entrant),
            idempotency_key=idempotency_key_of(request),
        )
        return Response(view_of(request))
