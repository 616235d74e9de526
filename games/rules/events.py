"""Round events: the facts a round records, each serialisable to a plain JSON-ready dict.

Their names are the rules' own: `RoundDealt` and `CardLaid` are not the match stream's
`RoundStarted` and `CardPlayed` (games/matches/stream/events.py), which carry the match's fields
(the round's number, who dealt) and are what the log stores; one name, one definition."""

from dataclasses import dataclass
from typing import Any

from games.rules.cards import Card, parse_card
from games.rules.outcome import RoundOutcome
from games.rules.tricks import Trick
from games.rules.variants import Variant


@dataclass(frozen=True, slots=True)
class RoundDealt:
    table_size: int
    dealer: int
    leader: int
    briscola: Card
    variant: Variant
    deck: tuple[Card, ...] | None
    """The whole deck in dealing order for a dealt round; None for a physical round."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "RoundDealt",
            "table_size": self.table_size,
            "dealer": self.dealer,
            "leader": self.leader,
            "briscola": self.briscola.code,
            "variant": self.variant.to_dict(),
            "deck": None if self.deck is None else [card.code for card in self.deck],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RoundDealt":
        deck = data["deck"]
        return cls(
            table_size=data["table_size"],
            dealer=data["dealer"],
            leader=data["leader"],
            briscola=parse_card(data["briscola"]),
            variant=Variant.from_recorded(data["variant"]),
            deck=None if deck is None else tuple(map(parse_card, deck)),
        )


@dataclass(frozen=True, slots=True)
class CardLaid:
    seat: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "CardLaid", "seat": self.seat, "card": self.card.code}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CardLaid":
        return cls(seat=data["seat"], card=parse_card(data["card"]))


@dataclass(frozen=True, slots=True)
class TrickWon:
    number: int
    """1 for the first trick of the round."""
    trick: Trick

    def to_dict(self) -> dict[str, Any]:
        return {"type": "TrickWon", "number": self.number, **self.trick.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrickWon":
        return cls(number=data["number"], trick=Trick.from_dict(data))


@dataclass(frozen=True, slots=True)
class StockEmptied:
    """The last cards were drawn: from now on partners may show each other their hands."""

    after_trick: int
    briscola_holder: int
    """The seat that drew the face-up briscola, the last card of the stock."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "StockEmptied",
            "after_trick": self.after_trick,
            "briscola_holder": self.briscola_holder,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "StockEmptied":
        return cls(after_trick=data["after_trick"], briscola_holder=data["briscola_holder"])


@dataclass(frozen=True, slots=True)
class RoundEnded:
    outcome: RoundOutcome

    def to_dict(self) -> dict[str, Any]:
        return {"type": "RoundEnded", **self.outcome.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RoundEnded":
        return cls(outcome=RoundOutcome.from_dict(data))


RoundEvent = RoundDealt | CardLaid | TrickWon | StockEmptied | RoundEnded
EVENT_TYPES: dict[str, type[RoundEvent]] = {
    event_type.__name__: event_type
    for event_type in (RoundDealt, CardLaid, TrickWon, StockEmptied, RoundEnded)
}


def event_from_dict(data: dict[str, Any]) -> RoundEvent:
    """Read back any round event written by its `to_dict()` (the "type" key names the class)."""
    return EVENT_TYPES[data["type"]].from_dict(data)
