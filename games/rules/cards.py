"""Cards of the 40-card Italian deck: codes, aliases, strength and points."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from common.explained import gettext_noop
from games.rules.errors import InvalidCard

DeckNames = Literal["italian", "french"]


class Suit(StrEnum):
    COINS = "D"  # denari
    CUPS = "C"  # coppe
    SWORDS = "S"  # spade
    BATONS = "B"  # bastoni


SUITS = tuple(Suit)
RANKS = tuple(range(1, 11))
POINTS_BY_RANK = {1: 11, 3: 10, 10: 4, 9: 3, 8: 2}
STRENGTH_ORDER = (2, 4, 5, 6, 7, 8, 9, 10, 3, 1)
"""Ranks from the weakest to the strongest card."""

# Other names a scorer may type for a rank. 9 is the knight (cavallo), a queen in French decks.
RANK_ALIASES = {"A": 1, "J": 8, "F": 8, "C": 9, "H": 9, "Q": 9, "K": 10, "R": 10}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card, e.g. `1D` (ace of coins). Equal cards have the same rank and suit."""

    rank: int
    suit: Suit
    code: str = field(init=False)
    points: int = field(init=False)
    strength: int = field(init=False)
    """Taking power in the standard ranking, 1 (the two) to 10 (the ace)."""
    bit: int = field(init=False, repr=False)
    """A distinct power of two, so that sets of cards can be kept as integers."""

    def __post_init__(self) -> None:
        if type(self.rank) is not int or self.rank not in RANKS or not isinstance(self.suit, Suit):
            raise InvalidCard.because(
                gettext_noop("there is no card of rank %(rank)r and suit %(suit)r"),
                rank=self.rank,
                suit=self.suit,
            )
        object.__setattr__(self, "code", f"{self.rank}{self.suit}")
        object.__setattr__(self, "points", POINTS_BY_RANK.get(self.rank, 0))
        object.__setattr__(self, "strength", STRENGTH_ORDER.index(self.rank) + 1)
        object.__setattr__(self, "bit", 1 << (SUITS.index(self.suit) * len(RANKS) + self.rank - 1))

    # By `bit`, which stands for rank and suit: cheaper than comparing tuples, and replays
    # compare cards on every play.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self.bit == other.bit

    def __hash__(self) -> int:
        return self.bit

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


FULL_DECK = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""The 40 cards in canonical order: coins, cups, swords, batons; ace to king."""
CARDS_BY_BIT = {card.bit: card for card in FULL_DECK}


def bits_of(cards: Iterable[Card]) -> int:
    """A set of cards as one integer: the sum of their `bit`."""
    return sum(card.bit for card in cards)


def cards_of(bits: int) -> tuple[Card, ...]:
    """The cards of a bit set, in canonical order."""
    cards = []
    while bits:
        lowest = bits & -bits
        cards.append(CARDS_BY_BIT[lowest])
        bits ^= lowest
    return tuple(cards)


def _spellings(card: Card) -> list[str]:
    rank_spellings = [str(card.rank)]
    rank_spellings += [alias for alias, rank in RANK_ALIASES.items() if rank == card.rank]
    return [f"{rank}{card.suit}" for rank in rank_spellings]


_CARDS_BY_SPELLING = {spelling: card for card in FULL_DECK for spelling in _spellings(card)}


def parse_card(text: object) -> Card:
    """Read a card code (`1D`, `10S`) or a friendly alias (`AD`, `KS`, `FC`, `QS`, `cs`)."""
    card = _CARDS_BY_SPELLING.get(text.upper()) if isinstance(text, str) else None
    if card is None:
        raise InvalidCard.because(
            gettext_noop(
                "%(text)r is not a card: write a rank 1-10 (or A, J/F, C/H/Q, K/R) "
                "followed by a suit D, C, S or B, e.g. '1D' or '10S'"
            ),
            text=text,
        )
    return card


_RANK_NAMES = {1: "ace", 8: "jack", 9: "knight", 10: "king"}
_FRENCH_RANK_NAMES = {**_RANK_NAMES, 9: "queen"}
_SUIT_NAMES = {Suit.COINS: "coins", Suit.CUPS: "cups", Suit.SWORDS: "swords", Suit.BATONS: "batons"}
_FRENCH_SUIT_NAMES = {
    Suit.COINS: "diamonds",
    Suit.CUPS: "hearts",
    Suit.SWORDS: "spades",
    Suit.BATONS: "clubs",
}


def card_name(card: Card, deck_names: DeckNames = "italian") -> str:
    """A display name such as 'knight of swords' (Italian) or 'queen of spades' (French)."""
    french = deck_names == "french"
    rank_names = _FRENCH_RANK_NAMES if french else _RANK_NAMES
    suit_names = _FRENCH_SUIT_NAMES if french else _SUIT_NAMES
    return f"{rank_names.get(card.rank, str(card.rank))} of {suit_names[card.suit]}"
