"""Rounds: start one, score it by points, undo its last card, void it, rule on it or correct
a card of it once it is over (the organizer), read it, replay it."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import (
    REASON_MAX_LENGTH,
    QueryIntegerField,
    idempotency_key_of,
    validated_query,
)
from common.api.schema import command_schema, error_responses
from common.api.serializing import Serializer, validated_input
from games.access import MatchAccess, head_of
from games.api.responses import CommandInput, round_command, round_response, viewer
from games.api.serializers import (
    CARD_HELP,
    CARD_MAX_LENGTH,
    DEAL_HELP,
    HANDS_HELP,
    RESULT_HELP,
    DealField,
    HandsField,
    PointsField,
    RoundCommandOutput,
    RoundOutput,
    SeatField,
    TrickOutput,
)
from games.matches import selectors, services

TAG = "rounds"
ROUND_NOT_FOUND = {404: "`match_not_found`, `round_not_found`."}


class RoundStartApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        briscola = serializers.CharField(
            required=False,
            allow_null=True,
            max_length=CARD_MAX_LENGTH,
            help_text=f"{CARD_HELP} Null for a round whose points only will be entered. "
            "Required when the table deals, unless `points_only` says the round takes its "
            "points only; with `deal: server` leave it out (or null): the server's deck turns "
            "up the briscola, and naming one is refused (422 `briscola_dealt_by_server`).",
        )
        points_only = serializers.BooleanField(
            required=False,
            default=False,
            help_text="True: the round is scored by its points only (`score/`), so it has no "
            "briscola and none may be named. The table deals it.",
        )
        dealer_seat = SeatField(
            required=False,
            allow_null=True,
            help_text="By default the seat after the previous round's dealer.",
        )
        deal = DealField(
            required=False,
            help_text="`table` (the default): the people at the table deal and the scorer enters "
            "the briscola and each card. `server`: the server shuffles the table's deck and "
            "deals it; every card played must then be in its seat's hand, and the round cannot "
            "be scored by points only (422 `round_is_dealt`).",
        )

        class Meta:
            ref_name = "RoundStartInput"

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if attrs["points_only"]:
                if attrs.get("briscola") is not None:
                    raise serializers.ValidationError(
                        {"briscola": ["A round scored by its points only has no briscola."]}
                    )
                if attrs.get("deal", "table") != "table":
                    raise serializers.ValidationError(
                        {"deal": ["A round scored by its points only is dealt at the table."]}
                    )
                return attrs
            if attrs.get("deal", "table") == "table" and "briscola" not in attrs:
                raise serializers.ValidationError(
                    {"briscola": [gettext("This field is required when the table deals.")]}
                )
            return attrs

    @command_schema(
        operation_id="round_start",
        summary="Start the match's next round",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            404: "`match_not_found`.",
            409: "`round_in_progress`, `match_finished`, `version_conflict`.",
            422: "`invalid_card`, `card_not_in_deck`, `invalid_seat`, `idempotency_key_reused`, "
            "`briscola_dealt_by_server`.",
        },
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = services.round_start(
            match_id=match_id,
            briscola=data.get("briscola"),
            dealer_seat=data.get("dealer_seat"),
            deal=data.get("deal", "table"),
            expected_version=data.get("expected_version"),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
            head=head_of(request),
        )
        return round_response(result, len(result.state.rounds), viewer=viewer(request, match_id))


class RoundDetailApi(JsonApi):
    permission_classes = [MatchAccess]

    @extend_schema(
        operation_id="round_get",
        summary="One round of a match",
        tags=[TAG],
        responses={200: RoundOutput, **error_responses(ROUND_NOT_FOUND, write=False)},
    )
    def get(self, request: Request, match_id: UUID, round_number: int) -> Response:
        match_round = selectors.round_get(match_id=match_id, round_number=round_number)
        hands = selectors.round_hands(match_round=match_round, viewer=viewer(request, match_id))
        return Response(RoundOutput(match_round, context={"hands": {round_number: hands}}).data)


class RoundPointsEnterApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        points = PointsField(help_text="The points of each side, 0 to 120, totalling 120.")

        class Meta:
            ref_name = "RoundPointsEnterInput"

    @command_schema(
        operation_id="round_points_enter",
        summary="Enter a round's points without its cards",
        description="Once a round has its points they are not entered again "
        "(`points_already_entered`): the organizer corrects a finished round's points with a "
        "ruling (`rule/`, with a reason).",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            **ROUND_NOT_FOUND,
            409: "`points_already_entered`, `round_voided`, `match_finished`, `version_conflict`.",
            422: "`points_must_total_120`, `invalid_points`, `cards_already_entered`, "
            "`round_is_dealt` (a round dealt by the server takes its cards), "
            "`idempotency_key_reused`.",
        },
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.round_points_enter,
            match_id=match_id,
            round_number=round_number,
            data=data,
            points=data["points"],
        )


class PlayUndoApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        reason = serializers.CharField(
            required=False, allow_blank=True, max_length=REASON_MAX_LENGTH
        )

        class Meta:
            ref_name = "PlayUndoInput"

    @command_schema(
        operation_id="play_undo",
        summary="Take back the last card played in the latest round",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            **ROUND_NOT_FOUND,
            409: "`round_not_latest`, `round_voided`, `points_already_entered`, "
            "`match_finished`, `round_ruled`, `version_conflict`.",
            422: "`nothing_to_undo`, `missing_briscola`, `idempotency_key_reused`.",
        },
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.play_undo,
            match_id=match_id,
            round_number=round_number,
            data=data,
            actor_reason=data.get("reason"),
        )


class RoundVoidApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        reason = serializers.CharField(max_length=REASON_MAX_LENGTH)

        class Meta:
            ref_name = "RoundVoidInput"

    @command_schema(
        operation_id="round_void",
        summary="Void a round: it no longer counts, and is dealt again",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            **ROUND_NOT_FOUND,
            409: "`round_voided`, `match_finished`, `version_conflict`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.round_void,
            match_id=match_id,
            round_number=round_number,
            data=data,
            actor_reason=data["reason"],
            keyed=False,
            reason=data["reason"],
        )


class RoundRuleApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(CommandInput):
        points = PointsField(
            help_text="The points of each side as the organizer rules them, totalling 120."
        )
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH,
            allow_blank=True,  # a blank reason is the rules' to refuse: 422 `reason_required`
            help_text="Why the organizer rules so; not blank. It is shown with the round.",
        )

        class Meta:
            ref_name = "RoundRuleInput"

    @command_schema(
        operation_id="round_rule",
        summary="Rule on a finished round's result (the organizer's ruling)",
        description="The round's points are the ruled ones from now on, whatever its cards or "
        "entered points said; its cards stay in its replay. A change of the match's result "
        "lapses the confirmations and disputes of the result before it. This is how a "
        "finished round's points are corrected; a card of it is corrected with `correct/`.",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            **ROUND_NOT_FOUND,
            409: "`round_voided`, `match_finished` (forfeited, or a later round would come "
            "after the end of the match: void it first), `version_conflict`.",
            422: "`round_not_finished`, `reason_required`, `points_must_total_120`, "
            "`invalid_points`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.round_rule,
            match_id=match_id,
            round_number=round_number,
            data=data,
            actor_reason=data["reason"],
            keyed=False,
            points=data["points"],
            reason=data["reason"],
        )


class RoundCorrectApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.ORGANIZE}

    class InputSerializer(CommandInput):
        play_index = serializers.IntegerField(
            min_value=0, help_text="The play to correct, 0 for the round's first card."
        )
        card = serializers.CharField(
            max_length=CARD_MAX_LENGTH,
            help_text=f"The card actually played. {CARD_HELP} The play that recorded it takes "
            "the corrected play's card.",
        )
        reason = serializers.CharField(
            max_length=REASON_MAX_LENGTH,
            allow_blank=True,  # a blank reason is the rules' to refuse: 422 `reason_required`
            help_text="Why the organizer corrects the card; not blank. It is shown with the round.",
        )

        class Meta:
            ref_name = "RoundCorrectInput"

    @command_schema(
        operation_id="round_correct",
        summary="Correct a card of a finished round (the organizer's correction)",
        description="Every card of a finished round was played, so the card named was recorded "
        "for another play: the two plays exchange their cards, each seat keeping its turn, and "
        "the round's tricks, winners and points follow from the cards; the match's result "
        "follows, and a change of it lapses the confirmations and disputes of the result "
        "before it. Every play must still be legal: when a corrected trick would have been "
        "won by another seat, so that the recorded turns no longer hold, the rules refuse it "
        "with their reason. A round scored by its points, or whose cards cannot say what "
        "happened, is settled by a ruling on its points (`rule/`). During play a scorer "
        "corrects a card with `plays/{play_index}/correct/`.",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            404: "`match_not_found`, `round_not_found`, `play_not_found`.",
            409: "`round_voided`, `round_ruled`, `points_already_entered` (a round scored by "
            "its points: rule on it), `match_finished` (forfeited, or a later round would come "
            "after the end of the match: void it first), `version_conflict`.",
            422: "`round_not_finished`, `reason_required`, `card_unchanged` (the play already "
            "has this card), `invalid_card`, `card_not_in_deck`, and the rule a replayed play "
            "breaks: `not_your_turn`, `briscola_not_drawn`, `briscola_must_be_played`, "
            "`card_not_in_hand`.",
        },
        idempotent=False,
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.round_card_correct,
            match_id=match_id,
            round_number=round_number,
            data=data,
            actor_reason=data["reason"],
            keyed=False,
            play_index=data["play_index"],
            card=data["card"],
            reason=data["reason"],
        )


class RoundReplayApi(JsonApi):
    permission_classes = [MatchAccess]

    class QuerySerializer(Serializer):
        upto = QueryIntegerField(required=False, min_value=0)

        class Meta:
            ref_name = "RoundReplayQuery"

    class OutputSerializer(Serializer):
        round = serializers.IntegerField()
        status = serializers.CharField()
        briscola = serializers.CharField(allow_null=True)
        dealer_seat = serializers.IntegerField()
        leader_seat = serializers.IntegerField()
        tricks = TrickOutput(many=True)
        plays = serializers.IntegerField(help_text="The cards played in the whole round.")
        points = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="Card points taken per side so far; the round's points once it is over.",
        )
        result = serializers.CharField(allow_null=True, help_text=RESULT_HELP)
        deal = DealField(help_text=DEAL_HELP)
        hands = HandsField(allow_null=True, help_text=HANDS_HELP)
        seat_on_turn = serializers.IntegerField(
            allow_null=True,
            help_text="The seat to play next; null once the round is over, when it was voided "
            "or scored by points.",
        )
        playable = serializers.ListField(
            child=serializers.CharField(),
            allow_null=True,
            help_text="The cards the seat on turn may play, in canonical order: in a physical "
            "round every card not yet played that no other seat is known to hold (the face-up "
            "briscola only for the seat that drew it); in a round dealt by the server its hand, "
            "listed only to a viewer who sees that hand. Null when nobody is on turn.",
        )

        class Meta:
            ref_name = "RoundReplay"

    @extend_schema(
        operation_id="round_replay",
        summary="A round trick by trick, or as it stood after its first `upto` cards",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "upto",
                int,
                description="Replay only the first `upto` cards (0 or more); past the cards "
                "played so far, the round as it stands (`plays` says how many there are).",
            )
        ],
        responses={
            200: OutputSerializer,
            **error_responses(
                {400: "`invalid_input`: `upto` is not a count of cards.", **ROUND_NOT_FOUND},
                write=False,
            ),
        },
    )
    def get(self, request: Request, match_id: UUID, round_number: int) -> Response:
        query = validated_query(self.QuerySerializer, request.query_params)
        replay = selectors.round_replay(
            match_id=match_id,
            round_number=round_number,
            upto=query.get("upto"),
            viewer=viewer(request, match_id),
        )
        return Response(self.OutputSerializer(replay).data)
