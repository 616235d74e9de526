"""The organizer orders the entrants tied at a group's qualification cut (decision record 0029,
amended for issue 12)."""

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
from tournaments.api.level_matches import MAX_REASON
from tournaments.api.schema import VERSION_CONFLICT, tournament_command_schema
from tournaments.api.serializers import TournamentOutput
from tournaments.selectors import answers
from tournaments.selectors.access import TournamentAccess
from tournaments.services import running

MAX_ORDER = 64
GROUP_LABEL_MAX_LENGTH = 8


class GroupPlacesDecideApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        order = serializers.ListField(
            child=serializers.IntegerField(min_value=1),
            min_length=2,
            max_length=MAX_ORDER,
            help_text="The entrants (ids) tied at the group's qualification cut, best first: "
            "every one of them, once.",
        )
        reason = serializers.CharField(
            max_length=MAX_REASON, help_text="Why: recorded with the decision (lot, agreement...)."
        )

        class Meta:
            ref_name = "GroupPlacesDecideInput"

    @tournament_command_schema(
        operation_id="group_places_decide",
        summary="Order the entrants tied at a group's qualification cut",
        description="For a groups then knockout tournament whose rule for level knockout "
        "matches is `organizer`: entrants of a finished group that the tie-breaks leave level "
        "across the qualification cut wait for this decision, and the knockout is drawn once "
        "every such group is decided. Under `deciding_round` they play a playoff instead; under "
        "`higher_seed` the seed decides.",
        request=InputSerializer,
        response=TournamentOutput,
        errors={
            404: "`tournament_not_found`, `group_not_found`.",
            409: VERSION_CONFLICT,
            422: "`group_not_complete`: the group is still being played; `group_not_tied`: no "
            "tie at its cut, decided already, or the tournament's rule is not the organizer's; "
            "`invalid_group_order`: not exactly the tied entrants, once each; "
            "`reason_required`.",
        },
    )
    def post(self, request: Request, tournament_id: UUID, label: str) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = running.group_places_decide(
            tournament_id=tournament_id,
            group=label,
            order=data["order"],
            reason=data["reason"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        tournament = answers.tournament_as_left(result=result)
        return command_response(result, TournamentOutput(tournament).data)
