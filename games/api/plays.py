"""Cards: play one in a round, correct one entered wrongly."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import REASON_MAX_LENGTH, command_response, idempotency_key_of
from common.api.schema import command_schema
from common.api.serializing import Serializer, data_of, validated_input
from games.access import MatchAccess, head_of
from games.api.responses import CommandInput, round_command, viewer
from games.api.serializers import (
    CARD_HELP,
    CARD_MAX_LENGTH,
    RoundCommandOutput,
    RoundOutput,
    SeatField,
    TrickOutput,
)
from games.matches import selectors, services

TAG = "plays"
RULE_ERRORS = (
    "`invalid_card`, `card_not_in_deck`, `card_already_played`, `not_your_turn`, "
    "`briscola_not_drawn`, `briscola_must_be_played`, `card_not_in_hand`, `round_finished`, "
    "`invalid_seat`, `missing_briscola`, `idempotency_key_reused`. In a round dealt by the server "
    "the card must be in the seat's hand (`card_not_in_hand`); in a physical round the seat that "
    "drew the face-up briscola must play it as its last card (`briscola_must_be_played`)."
)


class CardPlayApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        seat = SeatField(help_text="The seat playing the card, 0 first.")
        card = serializers.CharField(max_length=CARD_MAX_LENGTH, help_text=CARD_HELP)

        class Meta:
            ref_name = "CardPlayInput"

    class OutputSerializer(Serializer):
        play_index = serializers.IntegerField(help_text="0 for the round's first card.")
        trick = TrickOutput(help_text="The trick the card went to.")
        trick_winner = serializers.IntegerField(
            allow_null=True, help_text="The seat that took the trick, if the card completed it."
        )
        round = RoundOutput()
        version = serializers.IntegerField(help_text="The match's version after the card.")

        class Meta:
            ref_name = "CardPlayed"

    @command_schema(
        operation_id="card_play",
        summary="Play a card in a round",
        tag=TAG,
        request=InputSerializer,
        response=OutputSerializer,
        errors={
            404: "`match_not_found`, `round_not_found`.",
            409: "`version_conflict`, `round_voided`, `points_already_entered`, `match_finished`.",
            422: RULE_ERRORS,
        },
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = services.card_play(
            match_id=match_id,
            round_number=round_number,
            seat=data["seat"],
            card=data["card"],
            expected_version=data.get("expected_version"),
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
            head=head_of(request),
        )
        played = selectors.play_view(
            match_id=match_id,
            state=result.state,
            round_number=round_number,
            viewer=viewer(request, match_id),
        )
        body = data_of(
            self.OutputSerializer,
            {
                "play_index": played.play_index,
                "trick": played.trick,
                "trick_winner": played.trick_winner,
                "round": played.round,
                "version": result.version,
            },
            {"hands": {round_number: played.hands}},
        )
        return command_response(result, body)


MOST_CARDS_IN_A_BATCH = 48
"""A whole round at the largest table (six players with the 48-card French deck)."""


@extend_schema_field(
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]},
        "description": "[seat, card]: the seat (0 first) and the card it played.",
    }
)
class PlayPairField(serializers.Field):  # type: ignore[type-arg]
    """`[seat, card]`: an integer and a card code (the rules check both, with their codes)."""

    default_error_messages = {
        "invalid": _("each play is [seat, card]: an integer and a card code"),
    }

    def to_internal_value(self, data: Any) -> tuple[int, str]:
        if (
            not isinstance(data, list)
            or len(data) != 2
            or not isinstance(data[0], int)
            or isinstance(data[0], bool)
            or not isinstance(data[1], str)
            or len(data[1]) > CARD_MAX_LENGTH
        ):
            self.fail("invalid")
        return data[0], data[1]

    def to_representation(self, value: Any) -> Any:
        return list(value)


class CardBatchApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        plays = serializers.ListField(
            child=PlayPairField(),
            min_length=1,
            max_length=MOST_CARDS_IN_A_BATCH,
            help_text="The cards in the order they were played: `[[seat, card], ...]`.",
        )

        class Meta:
            ref_name = "CardBatchInput"

    @command_schema(
        operation_id="card_play_batch",
        summary="Play several cards of a round at once: all of them, or none",
        description="For an offline queue or a score sheet typed in after the game: the cards "
        "are checked by the rules in order, each against the round as the cards before it left "
        "it, and appended in one transaction, or none is. A refused card answers its rule's "
        "code with `play_index`, its index in `plays`. The answer is the round after the batch "
        "and the match's version. An Idempotency-Key covers the whole batch.",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            404: "`match_not_found`, `round_not_found`.",
            409: "`version_conflict`, `round_voided`, `points_already_entered`, `match_finished`.",
            422: f"{RULE_ERRORS} With `play_index`: the index in `plays` of the refused card.",
        },
    )
    def post(self, request: Request, match_id: UUID, round_number: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.cards_play,
            match_id=match_id,
            round_number=round_number,
            data=data,
            plays=data["plays"],
        )


class CardCorrectApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"post": Action.SCORE}

    class InputSerializer(CommandInput):
        card = serializers.CharField(
            max_length=CARD_MAX_LENGTH, help_text=f"The card actually played. {CARD_HELP}"
        )
        reason = serializers.CharField(
            required=False, allow_blank=True, max_length=REASON_MAX_LENGTH
        )

        class Meta:
            ref_name = "CardCorrectInput"

    @command_schema(
        operation_id="card_correct",
        summary="Correct the card of an earlier play; later plays must stay legal",
        description="For the scorer, while the round is played. A finished round played "
        "every card, so another card is refused there (`card_already_played`): the organizer "
        "corrects a card of a finished round with a reason (`rounds/{round_number}/correct/`), "
        "or rules on its points (`rounds/{round_number}/rule/`).",
        tag=TAG,
        request=InputSerializer,
        response=RoundCommandOutput,
        errors={
            404: "`match_not_found`, `round_not_found`, `play_not_found`.",
            409: "`version_conflict`, `round_voided`, `points_already_entered`, `match_finished`, "
            "`round_ruled`.",
            422: RULE_ERRORS,
        },
    )
    def post(
        self, request: Request, match_id: UUID, round_number: int, play_index: int
    ) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        return round_command(
            request,
            services.card_correct,
            match_id=match_id,
            round_number=round_number,
            data=data,
            actor_reason=data.get("reason"),
            play_index=play_index,
            card=data["card"],
        )
