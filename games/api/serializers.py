"""Shapes shared by several operations: matches, rounds, tricks and events, and the input fields
whose domain the schema documents.

Sides appear as `side0`, `side1`, `side2` wherever the API names a winner; seats as numbers.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api.serializing import Serializer
from games.eventstore.api import RecordedEvent
from games.matches import selectors
from games.matches.projections import side_name
from games.matches.selectors import deal_of
from games.matches.services import DEALS
from games.models import Match, MatchStatus, Round, RoundStatus, Scoring
from games.rules.outcome import ROUND_POINTS
from games.rules.tables import TABLE_SIZES

MIN_SIDES = 2
MAX_SIDES = 3
CARD_MAX_LENGTH = 20
CARD_HELP = (
    "A card code: rank 1-10 and suit D, C, S or B, e.g. `1D` (ace of coins), `10S`. When the "
    "match's variant names French cards, French letters: rank A or 1-9, J, Q, K and suit C "
    "(clubs), D (diamonds), H (hearts) or S (spades), e.g. `AH`, `QS`; answers always give "
    "the canonical code (`AH` is `1C`, the eight of clubs `11B`)."
)
RESULT_HELP = "`side0`, `side1`, `side2` or `tie`; null while in progress or when voided."


@extend_schema_field(
    {
        "type": "array",
        "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "minItems": 2,
        "maxItems": 2,
        "description": "[seat, card], e.g. [0, '7D'].",
    }
)
class PlayField(serializers.ListField):
    """One play as `[seat, card]`."""


# Named enums: the schema would otherwise name both after their field, `status`, and collide.
@extend_schema_field({"type": "string", "enum": RoundStatus.values}, component_name="RoundStatus")
class RoundStatusField(serializers.CharField):
    pass


@extend_schema_field({"type": "string", "enum": MatchStatus.values}, component_name="MatchStatus")
class MatchStatusField(serializers.CharField):
    pass


# Fields that check only the type of their value, as decision record 0005 wants (the rules refuse
# any other value with their own, more precise code): the schema still says which values can
# mean something, so that clients (and the schema fuzz) know the domain.
@extend_schema_field({"type": "integer", "enum": list(TABLE_SIZES)}, component_name="TableSize")
class TableSizeField(serializers.IntegerField):
    pass


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": max(TABLE_SIZES) - 1})
class SeatField(serializers.IntegerField):
    """A seat, 0 first; the table's size decides which exist (422 `invalid_seat`)."""


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": MAX_SIDES - 1})
class SideField(serializers.IntegerField):
    """A side, 0 first; the table decides which exist (422 `invalid_side`)."""


@extend_schema_field({"type": "string", "enum": list(DEALS)}, component_name="Deal")
class DealField(serializers.ChoiceField):
    """`table` or `server` (see DEAL_HELP)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DEALS, **kwargs)


@extend_schema_field({"type": "string", "enum": Scoring.values}, component_name="Scoring")
class ScoringField(serializers.CharField):
    pass


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": ROUND_POINTS},
        "minItems": MIN_SIDES,
        "maxItems": MAX_SIDES,
    }
)
class PointsField(serializers.ListField):
    """A round's points per side (422 `invalid_points`, `points_must_total_120`)."""

    child = serializers.IntegerField()


class TrickOutput(Serializer):
    number = serializers.IntegerField(help_text="1 for the round's first trick.")
    leader = serializers.IntegerField(help_text="The seat that led the trick.")
    plays = serializers.ListField(child=PlayField())
    winner = serializers.IntegerField(
        allow_null=True, help_text="The seat that took the trick; null while it is on the table."
    )
    points = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "Trick"


DEAL_HELP = (
    "Who dealt the round: `table` (the people at the table; the scorer enters each card) or "
    "`server` (the server shuffled and dealt: it knows every hand)."
)
HANDS_HELP = (
    'A round dealt by the server: the hands you may see, by seat (`"0"` first), each in '
    "canonical card order. While the round is played: the cards each seat holds now (after "
    "`upto` cards in a replay), for the seats you play at, and your partners' once the stock is "
    "empty; nobody else's, and never the stock. Once the round is finished or voided: every "
    "seat's hand as it was dealt. Null for a round dealt at the table (no hands are known)."
)


HANDS_SCHEMA = {
    "type": "object",
    "nullable": True,
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
    "description": HANDS_HELP,
    "example": {"0": ["1D", "7C", "10S"]},
}


@extend_schema_field(HANDS_SCHEMA)
class HandsField(serializers.DictField):
    """Hands by seat, as `games.visibility` lets the requester see them."""

    child = serializers.ListField(child=serializers.CharField())


class RulingOutput(Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per side, as ruled."
    )
    reason = serializers.CharField()

    class Meta:
        ref_name = "RoundRuling"


class CorrectionOutput(Serializer):
    play_index = serializers.IntegerField(help_text="The play corrected, 0 first.")
    seat = serializers.IntegerField(help_text="The seat of that play.")
    card = serializers.CharField(help_text="The card it is now.")
    previous_card = serializers.CharField(help_text="The card it had recorded.")
    swapped_with = serializers.IntegerField(
        help_text="The play that had recorded `card`: it took `previous_card`."
    )
    reason = serializers.CharField()

    class Meta:
        ref_name = "RoundCorrection"


class RoundOutput(Serializer):
    """A round row; its `hands` come from the context (`"hands"`: round number -> the hands the
    requester sees, computed by the selectors), absent meaning none."""

    number = serializers.IntegerField(help_text="1 for the match's first round.")
    status = RoundStatusField()
    dealer_seat = serializers.IntegerField()
    leader_seat = serializers.IntegerField()
    briscola = serializers.CharField(
        allow_null=True, help_text="The briscola's card code; null in a round scored by points."
    )
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per side, once the round is over."
    )
    result = serializers.CharField(allow_null=True, help_text=RESULT_HELP)
    replay_of = serializers.IntegerField(
        allow_null=True, help_text="The number of the tied round this round replays."
    )
    plays = serializers.SerializerMethodField(help_text="The cards played so far.")
    points_entered = serializers.BooleanField(
        help_text="True when a scorer entered the points rather than the cards."
    )
    void_reason = serializers.CharField()
    ruling = RulingOutput(
        allow_null=True,
        help_text="The organizer's ruling on the round, if any: its `points` are then the "
        "round's (decision record 0045).",
    )
    corrections = CorrectionOutput(
        many=True,
        help_text="The organizer's corrections of the finished round's cards, in order; its "
        "plays, tricks and points are as corrected (decision record 0048).",
    )
    deal = serializers.SerializerMethodField(help_text=DEAL_HELP)
    hands = serializers.SerializerMethodField(help_text=HANDS_HELP)

    class Meta:
        ref_name = "Round"

    def get_plays(self, match_round: Round) -> int:
        return len(match_round.plays)

    @extend_schema_field(DealField())
    def get_deal(self, match_round: Round) -> str:
        return deal_of(match_round)

    @extend_schema_field(HANDS_SCHEMA)
    def get_hands(self, match_round: Round) -> dict[str, list[str]] | None:
        hands: dict[int, dict[str, list[str]] | None] = self.context.get("hands", {})
        return hands.get(match_round.number)


class RoundCommandOutput(RoundOutput):
    version = serializers.SerializerMethodField(help_text="The match's version after the command.")

    class Meta:
        ref_name = "RoundAfterCommand"

    def get_version(self, match_round: Round) -> int:  # noqa: ARG002 - DRF calls it with the object
        version: int = self.context["version"]
        return version


class SideOutput(Serializer):
    name = serializers.CharField()

    class Meta:
        ref_name = "Side"


VARIANT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "hand_size": {"type": "integer", "enum": [3, 9], "default": 3},
        "three_ranks_as_three": {"type": "boolean", "default": False},
        "removed_card_for_three": {
            "type": "string",
            "default": "2B",
            "description": "The two left out at a table of three, as a canonical code "
            "(2D, 2C, 2S or 2B); another card is refused (`removed_card_must_be_a_two`).",
        },
        "deck_names": {
            "type": "string",
            "enum": ["italian", "french"],
            "default": "italian",
            "description": "`french`: French card names, and cards are typed with French "
            "suit letters C, D, H, S (see the card fields).",
        },
        "six_player_deck": {
            "type": "integer",
            "enum": [36, 48],
            "default": 36,
            "description": "At six players: 36 cards (no twos) or, with French cards only, 48 "
            "(the twos kept, the eights and nines added).",
        },
        "three_winner": {
            "type": "string",
            "enum": ["most_points", "at_least_61"],
            "default": "most_points",
            "description": "Who wins a round at a table of three: the side with the most points "
            "(`most_points`), or the side with 61 points or more (`at_least_61`: a round in "
            "which nobody reaches 61 has no winner and is treated as a tied round). Only at "
            "tables of three: refused at 2, 4 or 6 players (`invalid_variant`). Written back "
            "only when not the default.",
        },
    },
}


@extend_schema_field(VARIANT_SCHEMA)
class VariantField(serializers.DictField):
    """The variant's options as given; the rules refuse unknown options and wrong values."""


@extend_schema_field(
    {"type": "string", "enum": ["deciding_round", None], "nullable": True},
    component_name="MatchDecidedBy",
)
class DecidedByRoundField(serializers.CharField):
    """`deciding_round` or null (decision record 0045)."""


@extend_schema_field({"type": "string", "example": "side0"})
class SideNameField(serializers.Field):  # type: ignore[type-arg]
    """A side by its index in the row, answered as `side0`, `side1` or `side2`."""

    def to_representation(self, value: int) -> str | None:
        return side_name(value)


class ConfirmedRoundOutput(Serializer):
    number = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text="Per side.")

    class Meta:
        ref_name = "ConfirmedRound"


class ConfirmedResultOutput(Serializer):
    winner = SideNameField(allow_null=True, help_text="`side0`, `side1`, `side2` or null.")
    forfeited_by = SideNameField(allow_null=True, help_text="The side that forfeited, or null.")
    rounds = ConfirmedRoundOutput(
        many=True, help_text="The rounds that counted, by number: the voided ones are not here."
    )

    class Meta:
        ref_name = "ConfirmedResult"


class ResultMarkOutput(Serializer):
    side = SideNameField()
    version = serializers.IntegerField(
        help_text="The match version its event recorded: the event log says when and who."
    )
    result = ConfirmedResultOutput(help_text="The result as it stood then.")
    standing = serializers.BooleanField(
        help_text="False once the result changed since (a round voided, a last card taken "
        "back, the rounds after them), or, for a dispute, once the side confirmed."
    )

    class Meta:
        ref_name = "ResultMark"


class DisputeOutput(ResultMarkOutput):
    reason = serializers.SerializerMethodField(
        help_text="What the side says is wrong with the result, as it was recorded (who recorded "
        "it is in the event log, for the organizer)."
    )

    class Meta:
        ref_name = "Dispute"

    def get_reason(self, dispute: dict[str, Any]) -> str:
        # A row projected before the reason was (decision record 0045) reads "" until rebuilt.
        reason: str = dispute.get("reason", "")
        return reason


def side_names(sides: list[int]) -> list[str]:
    return [name for name in map(side_name, sides) if name is not None]


class MatchOutput(Serializer):
    id = serializers.UUIDField()
    status = MatchStatusField()
    table_size = serializers.IntegerField()
    scoring = serializers.ChoiceField(choices=Scoring.choices)
    best_of = serializers.SerializerMethodField(help_text="Null when scoring by points.")
    rounds_planned = serializers.SerializerMethodField(
        help_text="The rounds to play when scoring by points; null when scoring by rounds."
    )
    sides = serializers.SerializerMethodField(
        help_text="One entry per side, side 0 first; names as they read now (an erased player "
        "reads `erased player`)."
    )
    variant = VariantField()
    first_dealer = serializers.IntegerField()
    rounds = RoundOutput(many=True)
    round_wins = serializers.ListField(child=serializers.IntegerField(), help_text="Per side.")
    total_points = serializers.ListField(child=serializers.IntegerField(), help_text="Per side.")
    winner = serializers.SerializerMethodField(help_text="`side0`, `side1`, `side2` or null.")
    decider = serializers.CharField(
        help_text="Scoring by points: `round`, a match level after its rounds plays a deciding "
        "round; `none`, it ends level."
    )
    deciding_round_due = serializers.BooleanField(
        help_text="Level after its rounds: one more round decides it (a tied one is replayed)."
    )
    decided_by = DecidedByRoundField(
        allow_null=True,
        help_text="`deciding_round` when the match was level after its rounds and a deciding "
        "round won it; null otherwise. A tournament's knockout match decided off the table "
        "(the higher seed, the organizer) says so in the tournament's matches, not here.",
    )
    deciding_round = serializers.IntegerField(
        allow_null=True, help_text="The number of the deciding round that won it, or null."
    )
    regulation_points = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Scoring by points: per side, the total of the fixed rounds played so far, "
        "without the deciding rounds (`total_points` has them); null for a best-of match.",
    )
    forfeited_by = serializers.SerializerMethodField(help_text="The side that forfeited, or null.")
    confirmed_by = serializers.SerializerMethodField(
        help_text="The sides that confirmed the result as it stands: a change of the result "
        "(a round voided, a last card taken back...) clears them."
    )
    disputed_by = serializers.SerializerMethodField(
        help_text="The sides whose dispute of the result is open, for the organizer to settle; "
        "a side withdraws its dispute by confirming, and a change of the result clears it."
    )
    confirmations = ResultMarkOutput(
        many=True,
        help_text="Every confirmation, in order, with the result it was of: a confirmation "
        "stands only while the result is the one confirmed (`confirmed_by` lists the sides "
        "whose confirmation stands).",
    )
    disputes = DisputeOutput(
        many=True,
        help_text="Every dispute, in order, with the result it was of and its reason; standing "
        "while open (`disputed_by`).",
    )
    may_organize = serializers.SerializerMethodField(
        help_text="True when you may settle the match (rule on a round, correct a finished "
        "round's card, forfeit): its organizers and the creator of a free-standing match, "
        "signed in or with a token of their own; never a table's tablet (a device token for "
        "a tournament or its tables)."
    )
    version = serializers.IntegerField(
        help_text="The match's version: send it as `expected_version` to write safely."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Match"

    def get_best_of(self, match: Match) -> int | None:
        return match.best_of if match.scoring == Scoring.ROUNDS else None

    def get_rounds_planned(self, match: Match) -> int | None:
        return match.best_of if match.scoring == Scoring.POINTS else None

    @extend_schema_field(SideOutput(many=True))
    def get_sides(self, match: Match) -> list[dict[str, str]]:
        return [{"name": name} for name in selectors.match_side_names(match=match)]

    def get_winner(self, match: Match) -> str | None:
        return side_name(match.winner)

    def get_forfeited_by(self, match: Match) -> str | None:
        return side_name(match.forfeited_by)

    def get_confirmed_by(self, match: Match) -> list[str]:
        return side_names(match.confirmed_by)

    def get_disputed_by(self, match: Match) -> list[str]:
        return side_names(match.disputed_by)

    def get_may_organize(self, match: Match) -> bool:  # noqa: ARG002 - DRF calls it with the row
        return bool(self.context.get("may_organize", False))


class EventOutput(Serializer):
    global_position = serializers.IntegerField()
    stream_id = serializers.UUIDField()
    stream_type = serializers.CharField()
    stream_version = serializers.IntegerField()
    event_type = serializers.CharField()
    schema_version = serializers.IntegerField()
    payload = serializers.DictField()
    metadata = serializers.SerializerMethodField(
        help_text="Who recorded the event: actor_id, device, reason, idempotency_key..."
    )
    recorded_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Event"

    def get_metadata(self, event: RecordedEvent) -> dict[str, Any]:
        return event.metadata.to_json()
