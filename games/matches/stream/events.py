"""Match events: one frozen dataclass per fact a match records, named in the past tense.

The store keeps an event as its type string (`type`) and a JSON-ready payload: `to_payload()`
and `match_event_from_stored()` convert at that boundary and nowhere else, so the payloads are
written exactly as they always were.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from common.events import EventCodec
from common.explained import gettext_noop
from games.matches.stream.errors import InvalidSide
from games.rules.cards import Card, parse_card
from games.rules.events import RoundDealt
from games.rules.events import RoundEvent as RulesEvent
from games.rules.match import MatchFormat
from games.rules.variants import Variant

SideRef = dict[str, int]
"""Who a side is, by ids only: `{"entrant": 17}`, or `{}` when nothing outside the match knows
(a free-standing match, whose side names live in an ordinary table). Never a name."""


def check_side_refs_carry_ids(sides: Sequence[SideRef]) -> None:
    for side in sides:
        if not isinstance(side, dict) or not all(
            isinstance(key, str) and type(value) is int for key, value in side.items()
        ):
            raise InvalidSide.because(
                gettext_noop("a side is referred to by ids only, never by name: %(side)r"),
                side=side,
            )


def card_codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


@dataclass(frozen=True, slots=True)
class MatchCreated:
    """Schema version 2 (decision record 0018): a side is a reference by id, `{"entrant": 17}`
    for a tournament's entrant or `{}` for a free-standing match, never a name. Version 1
    carried `{"name": ...}`; `match_created_v1_to_v2` upcasts it."""

    type: ClassVar[str] = "MatchCreated"
    schema_version: ClassVar[int] = 2
    table_size: int
    match_format: MatchFormat
    sides: tuple[SideRef, ...]
    variant: Variant
    first_dealer: int

    def to_payload(self) -> dict[str, Any]:
        return {
            "table_size": self.table_size,
            "format": self.match_format.to_dict(),
            "sides": [dict(side) for side in self.sides],
            "variant": self.variant.to_dict(),
            "first_dealer": self.first_dealer,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(
            table_size=payload["table_size"],
            match_format=MatchFormat.from_dict(payload["format"]),
            sides=tuple(dict(side) for side in payload["sides"]),
            variant=Variant.from_recorded(payload["variant"]),
            first_dealer=payload["first_dealer"],
        )


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """`briscola` is None for a round that will be scored by points only; `deck` (the whole
    deck in dealing order) only for a round dealt by the server."""

    type: ClassVar[str] = "RoundStarted"
    round: int
    dealer: int
    briscola: Card | None
    deck: tuple[Card, ...] | None = None
    decided: RoundDealt | None = field(default=None, compare=False, repr=False)
    """The round as the rules dealt it when `decide` checked the start (None without a
    briscola): `evolve` starts the round from it. Never stored, as `CardPlayed.decided`."""

    def to_payload(self) -> dict[str, Any]:
        briscola = None if self.briscola is None else self.briscola.code
        payload: dict[str, Any] = {"round": self.round, "dealer": self.dealer, "briscola": briscola}
        if self.deck is not None:
            payload["deck"] = card_codes(self.deck)
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        code = payload["briscola"]
        # "deck" is absent from physical rounds' events (and from every event older than dealt
        # rounds), so old streams fold unchanged.
        codes = payload.get("deck")
        return cls(
            round=payload["round"],
            dealer=payload["dealer"],
            briscola=None if code is None else parse_card(code),
            deck=None if codes is None else tuple(map(parse_card, codes)),
        )


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """`seat` played `card` in round `round`: the payload is the play alone.

    `decided` is what the rules made of the play when `decide` judged it (the card laid, and the
    trick it completed with its winner and points, the stock it emptied, the round it ended):
    `evolve` applies it, so a command's card is judged once. It is never stored and takes no
    part in comparisons; an event read from the log has none, and `evolve` asks the rules."""

    type: ClassVar[str] = "CardPlayed"
    round: int
    seat: int
    card: Card
    decided: tuple[RulesEvent, ...] | None = field(default=None, compare=False, repr=False)

    def to_payload(self) -> dict[str, Any]:
        return {"round": self.round, "seat": self.seat, "card": self.card.code}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["round"], payload["seat"], parse_card(payload["card"]))


@dataclass(frozen=True, slots=True)
class PlayUndone:
    """The last play of the round, taken back (`seat` and `card` say which it was)."""

    type: ClassVar[str] = "PlayUndone"
    round: int
    play_index: int
    seat: int
    card: Card

    def to_payload(self) -> dict[str, Any]:
        return indexed_play_payload(self)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(*indexed_play_of(payload))


@dataclass(frozen=True, slots=True)
class CardCorrected:
    """The card of the round's play at `play_index` (by `seat`) was `previous_card`, is `card`."""

    type: ClassVar[str] = "CardCorrected"
    round: int
    play_index: int
    seat: int
    card: Card
    previous_card: Card

    def to_payload(self) -> dict[str, Any]:
        return {**indexed_play_payload(self), "previous_card": self.previous_card.code}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(*indexed_play_of(payload), parse_card(payload["previous_card"]))


@dataclass(frozen=True, slots=True)
class CardCorrectedAfterRound:
    """The organizer's correction of a finished round (decision record 0048): the round's play
    at `play_index` (by `seat`) was `previous_card`, is `card`; the play at `swapped_with`, which
    had recorded `card`, is `previous_card` now. The tricks, winners and points follow."""

    type: ClassVar[str] = "CardCorrectedAfterRound"
    round: int
    play_index: int
    seat: int
    card: Card
    previous_card: Card
    swapped_with: int
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {
            **indexed_play_payload(self),
            "previous_card": self.previous_card.code,
            "swapped_with": self.swapped_with,
            "reason": self.reason,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(
            *indexed_play_of(payload),
            parse_card(payload["previous_card"]),
            payload["swapped_with"],
            payload["reason"],
        )


def indexed_play_payload(
    event: PlayUndone | CardCorrected | CardCorrectedAfterRound,
) -> dict[str, Any]:
    """The play an event names by its place in the round, as the payload records it."""
    return {
        "round": event.round,
        "play_index": event.play_index,
        "seat": event.seat,
        "card": event.card.code,
    }


def indexed_play_of(payload: Mapping[str, Any]) -> tuple[int, int, int, Card]:
    """Round, play index, seat and card of a payload written by `indexed_play_payload`."""
    return payload["round"], payload["play_index"], payload["seat"], parse_card(payload["card"])


@dataclass(frozen=True, slots=True)
class RoundPointsEntered:
    type: ClassVar[str] = "RoundPointsEntered"
    round: int
    points: tuple[int, ...]

    def to_payload(self) -> dict[str, Any]:
        return {"round": self.round, "points": list(self.points)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["round"], tuple(payload["points"]))


@dataclass(frozen=True, slots=True)
class RoundVoided:
    type: ClassVar[str] = "RoundVoided"
    round: int
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"round": self.round, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["round"], payload.get("reason", ""))


@dataclass(frozen=True, slots=True)
class RoundResultRuled:
    """The organizer's ruling on a finished round (decision record 0045): its points are
    `points` from now on, whatever its cards or its entered points said."""

    type: ClassVar[str] = "RoundResultRuled"
    round: int
    points: tuple[int, ...]
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {"round": self.round, "points": list(self.points), "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["round"], tuple(payload["points"]), payload["reason"])


@dataclass(frozen=True, slots=True)
class ResultConfirmed:
    type: ClassVar[str] = "ResultConfirmed"
    side: int

    def to_payload(self) -> dict[str, Any]:
        return {"side": self.side}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["side"])


@dataclass(frozen=True, slots=True)
class ResultDisputed:
    type: ClassVar[str] = "ResultDisputed"
    side: int
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {"side": self.side, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["side"], payload["reason"])


@dataclass(frozen=True, slots=True)
class MatchForfeited:
    type: ClassVar[str] = "MatchForfeited"
    side: int
    """The side that forfeits."""
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"side": self.side, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        return cls(payload["side"], payload.get("reason", ""))


RoundEvent = (
    RoundStarted
    | CardPlayed
    | PlayUndone
    | CardCorrected
    | RoundPointsEntered
    | RoundVoided
    | RoundResultRuled
    | CardCorrectedAfterRound
)
"""The events that start a round or change one."""
ResultEvent = ResultConfirmed | ResultDisputed | MatchForfeited
"""The events about the match's result."""
MatchEvent = MatchCreated | RoundEvent | ResultEvent

MATCH_EVENTS: EventCodec[MatchEvent] = EventCodec(
    "match",
    (
        MatchCreated,
        RoundStarted,
        CardPlayed,
        PlayUndone,
        CardCorrected,
        RoundPointsEntered,
        RoundVoided,
        ResultConfirmed,
        ResultDisputed,
        MatchForfeited,
        RoundResultRuled,
        CardCorrectedAfterRound,
    ),
)
"""How match events meet the store."""
MATCH_EVENT_TYPES = MATCH_EVENTS.classes
"""Each stored type string and the event class it reads into."""
match_event_from_stored = MATCH_EVENTS.decode


schema_version_of = MATCH_EVENTS.schema_version_of
"""The schema version each event type is recorded at now (its class's `schema_version`, else 1)."""


def match_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Upcaster: version 1 named its sides; version 2 refers to them. The names stay in the log
    (events are immutable) but are no longer read: readers take names from ordinary tables."""
    return {**payload, "sides": [{} for _side in payload["sides"]]}
