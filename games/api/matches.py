"""Matches: create one, read one, confirm or dispute its result, forfeit it."""

from __future__ import annotations

from uuid import UUID

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action, Authenticated
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH
from common.api.schema import command_schema, error_responses
from common.api.serializing import Serializer, data_of, validated_input
from games.access import MatchAccess, check_acting_side
from games.api.responses import match_command, match_created_response, may_organize, viewer
from games.api.serializers import (
    MatchOutput,
    ScoringField,
    SeatField,
    SideField,
    TableSizeField,
    VariantField,
)
from games.matches import selectors, services

MAX_PLANNED_ROUNDS = 100
RANDOM_UUID_VERSION = 4
"""A client's match id must be random: tournaments derive their matches' ids (version 5) from
the tournament's id and the fixture, and a client that could pick one would take it first."""

TAG = "matches"
MATCH_NOT_FOUND = {404: "`match_not_found`."}


class MatchCreateApi(JsonApi):
    permission_classes = [Authenticated]

    class InputSerializer(Serializer):
        class SideInput(Serializer):
            name = serializers.CharField(min_length=1, max_length=100)

            class Meta:
                ref_name = "SideInput"

        id = serializers.UUIDField(
            required=False,
            help_text="Optional, chosen by the client so that a retried creation cannot make a "
            "second match: a retry with the same body answers 200 with the match, another body "
            "is refused with 409. A random (version 4) UUID: the ids of tournaments' matches "
            "are derived (version 5) and cannot be taken.",
        )

        def validate_id(self, value: UUID) -> UUID:
            if value.version != RANDOM_UUID_VERSION:
                raise serializers.ValidationError(
                    gettext("must be a random (version 4) UUID, as uuid4() makes")
                )
            return value

        table_size = TableSizeField(help_text="2, 3, 4 or 6 seats.")
        best_of = serializers.IntegerField(
            default=3, help_text="1, 3 or 5 (scoring by rounds); tied rounds are replayed."
        )
        scoring = ScoringField(
            default="rounds",
            help_text="`rounds` (best of `best_of`) or `points` (`rounds` rounds, most points).",
        )
        rounds = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=MAX_PLANNED_ROUNDS,
            help_text="The rounds to play when scoring by points.",
        )
        decider = serializers.ChoiceField(
            choices=["none", "round"],
            default="none",
            help_text="Scoring by points: `round`, a match level after its rounds plays a "
            "deciding round (a tied one is replayed); `none`, it ends level.",
        )
        sides = SideInput(
            many=True, help_text="One entry per side: 2 at tables of 2, 4 and 6; 3 at a table of 3."
        )
        variant = VariantField(required=False, help_text="Options; each has a classic default.")
        first_dealer = SeatField(default=0, help_text="The seat that deals the first round.")

        class Meta:
            ref_name = "MatchCreateInput"

    @command_schema(
        operation_id="match_create",
        summary="Create a match",
        tag=TAG,
        request=InputSerializer,
        response=MatchOutput,
        errors={
            409: "`match_exists`: a match with this `id` exists already, created with "
            "another body.",
            422: "`invalid_table_size`, `invalid_match_format`, `invalid_side`, "
            "`invalid_variant`, `invalid_seat`.",
        },
        idempotent=False,
        repeated="The same `id` and body again (a retry): the match as it was created.",
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = services.match_create(
            table_size=data["table_size"],
            sides=[side["name"] for side in data["sides"]],
            best_of=data["best_of"],
            scoring=data["scoring"],
            rounds=data.get("rounds"),
            variant=data.get("variant"),
            first_dealer=data["first_dealer"],
            actor=request_actor(request),
            match_id=data.get("id"),
            decider=data["decider"],
        )
        return match_created_response(result, request, [side["name"] for side in data["sides"]])


class MatchDetailApi(JsonApi):
    permission_classes = [MatchAccess]

    @extend_schema(
        operation_id="match_get",
        summary="A match, its rounds and its standing",
        tags=[TAG],
        responses={200: MatchOutput, **error_responses(MATCH_NOT_FOUND, write=False)},
    )
    def get(self, request: Request, match_id: UUID) -> Response:
        match = selectors.match_get(match_id=match_id)
        hands = selectors.match_hands(match=match, viewer=viewer(request, match_id))
        context = {"hands": hands, "may_organize": may_organize(request)}
        return Response(data_of(MatchOutput, match, context))


class ResultConfirmApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.CONFIRM}

    class InputSerializer(Serializer):
        side = SideField(help_text="The side that confirms, 0 to 2.")

        class Meta:
            ref_name = "ResultConfirmInput"

    @command_schema(
        operation_id="result_confirm",
        summary="Confirm the result of a finished match for one side",
        tag=TAG,
        request=InputSerializer,
        response=MatchOutput,
        errors={
            **MATCH_NOT_FOUND,
            409: "`result_already_confirmed`.",
            422: "`match_not_finished`, `invalid_side`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        check_acting_side(request, data["side"])
        return match_command(request, services.result_confirm, match_id=match_id, side=data["side"])


class ResultDisputeApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.CONFIRM}

    class InputSerializer(Serializer):
        side = SideField(help_text="The side that disputes, 0 to 2.")
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH,
            allow_blank=True,  # a blank reason is the rules' to refuse: 422 `reason_required`
            help_text="What is wrong with the result; not blank. It stays in the event log for "
            "good: leave out personal details.",
        )

        class Meta:
            ref_name = "ResultDisputeInput"

    @command_schema(
        operation_id="result_dispute",
        summary="Dispute the result of a finished match for one side",
        description="Flags the result for the organizer, who corrects or voids rounds; the "
        "result does not change. The side withdraws its dispute by confirming.",
        tag=TAG,
        request=InputSerializer,
        response=MatchOutput,
        errors={
            **MATCH_NOT_FOUND,
            409: "`result_already_disputed`, `result_already_confirmed`.",
            422: "`match_not_finished`, `invalid_side`, `reason_required`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        check_acting_side(request, data["side"])
        return match_command(
            request,
            services.result_dispute,
            match_id=match_id,
            side=data["side"],
            reason=data["reason"],
            actor_reason=data["reason"],
        )


class MatchForfeitApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(Serializer):
        side = SideField(help_text="The side that forfeits, 0 to 2.")
        reason = serializers.CharField(max_length=REASON_MAX_LENGTH)

        class Meta:
            ref_name = "MatchForfeitInput"

    @command_schema(
        operation_id="match_forfeit",
        summary="Record that one side forfeits the match",
        tag=TAG,
        request=InputSerializer,
        response=MatchOutput,
        errors={**MATCH_NOT_FOUND, 409: "`match_finished`.", 422: "`invalid_side`."},
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return match_command(
            request,
            services.match_forfeit,
            match_id=match_id,
            side=data["side"],
            reason=data["reason"],
            actor_reason=data["reason"],
        )
