"""The organizer names the winner of a knockout match that ended level (decision record 0029)."""

from __future__ import annotations

from uuid import UUID

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import command_response, idempotency_key_of
from common.api.serializing import Serializer, validated_input
from tournaments.api.schema import VERSION_CONFLICT, tournament_command_schema
from tournaments.api.serializers import TournamentMatchOutput
from tournaments.selectors import fixtures
from tournaments.selectors.access import TournamentAccess
from tournaments.services import running

MAX_REASON = 500


class LevelMatchDecideApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        winner = serializers.IntegerField(
            min_value=1, help_text="The entrant (id) that goes through: one of the match's two."
        )
        reason = serializers.CharField(
            max_length=MAX_REASON, help_text="Why: recorded with the decision (lot, agreement...)."
        )

        class Meta:
            ref_name = "LevelMatchDecideInput"

    @tournament_command_schema(
        operation_id="level_match_decide",
        summary="Name the winner of a knockout match that ended level",
        description="For a tournament whose rule for level knockout matches is `organizer` (or "
        "one created before the rule): the decision is recorded with its reason and the bracket "
        "goes on.",
        request=InputSerializer,
        response=TournamentMatchOutput,
        errors={
            404: "`tournament_not_found`, `match_not_found`: not a match of this tournament.",
            409: VERSION_CONFLICT,
            422: "`match_not_level`: not a knockout match, no result yet, or a winner already; "
            "`entrant_not_found`: the winner does not play this match; `reason_required`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        fixtures.check_match_of_tournament(tournament_id=tournament_id, match_id=match_id)
        result = running.fixture_level_decide(
            match_id=match_id,
            winner=data["winner"],
            reason=data["reason"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        fixture = fixtures.tournament_fixture(tournament_id=tournament_id, match_id=match_id)
        return command_response(result, TournamentMatchOutput(fixture).data)
