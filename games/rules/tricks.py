"""Tricks: who takes the cards on the table, and how many points they are worth."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.rules.cards import Card, Suit, parse_card
from games.rules.variants import Variant


class Play(NamedTuple):
    """A card played by a seat."""

    seat: int
    card: Card

    def to_list(self) -> list[Any]:
        return [self.seat, self.card.code]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> "Play":
        seat, code = data
        return cls(seat, parse_card(code))


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in playing order, who took them and their points."""

    leader: int
    plays: tuple[Play, ...]
    winner: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [play.to_list() for play in self.plays],
            "winner": self.winner,
            "points": self.points,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Trick":
        return cls(
            leader=data["leader"],
            plays=tuple(map(Play.from_list, data["plays"])),
            winner=data["winner"],
            points=data["points"],
        )


def beats(card: Card, best: Card, trump: Suit, variant: Variant) -> bool:
    """Whether `card` takes the trick from `best`, the card winning it so far."""
    if card.suit == best.suit:
        return variant.strength_of(card) > variant.strength_of(best)
    return card.suit == trump


def winning_play(plays: Sequence[Play], trump: Suit, variant: Variant) -> Play:
    """The highest trump if any was played; otherwise the highest card of the suit led."""
    best = plays[0]
    for play in plays[1:]:
        if beats(play.card, best.card, trump, variant):
            best = play
    return best


def points_of(plays: Sequence[Play]) -> int:
    return sum(play.card.points for play in plays)
