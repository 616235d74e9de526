"""Revealing a tournament's silent final rounds (decision record 0060)."""

from __future__ import annotations

from uuid import UUID

from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import NoInput, command_response, idempotency_key_of
from common.api.serializing import validated_input
from tournaments.api.schema import TOURNAMENT_NOT_FOUND, VERSION_CONFLICT, tournament_command_schema
from tournaments.api.serializers import TournamentOutput
from tournaments.selectors import answers
from tournaments.selectors.access import TournamentAccess
from tournaments.services import revealing


class ResultsRevealApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    @tournament_command_schema(
        operation_id="tournament_results_reveal",
        summary="Reveal the silent final rounds' results and the standings (organizers)",
        description="Recorded as `ResultsRevealed`: from then on everybody who reads the "
        "tournament reads every result and the standings after the last round, and its feeds "
        "carry the event (the followers' signal to read them again). Decision record 0060.",
        request=None,
        response=TournamentOutput,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: VERSION_CONFLICT,
            422: "`nothing_to_reveal` (no silent final rounds, or revealed already).",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        validated_input(NoInput, request.data)
        result = revealing.results_reveal(
            tournament_id=tournament_id,
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        return command_response(
            result, TournamentOutput(answers.tournament_as_left(result=result)).data
        )
