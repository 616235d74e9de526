"""Cards: the 40-card Italian deck (also named as French cards), the French eights and nines of
the 48-card six-player deck, codes, spellings, strength and points.

Canonical codes (events, storage, answers) are the rank and an Italian suit letter: `1D` is the
ace of coins (diamonds in French), `8S` the jack of swords (spades), `9C` the knight of cups
(queen of hearts), `10B` the king of batons (clubs). The French eight and nine, which an Italian
deck lacks, are ranks 11 and 12 (`11B` is the eight of clubs, `12C` the nine of hearts).

A scorer at a table of French cards types French letters instead (`parse_card(text, "french")`):
suits C (clubs = batons), D (diamonds = coins), H (hearts = cups), S (spades = swords); ranks
A or 1 to 9, J, Q, K; 8 and 9 are the pip cards of the 48-card deck.
"""

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
"""Ranks of the 40-card deck: 1 to 7, then the jack (8), the knight or queen (9), the king (10)."""
FRENCH_EIGHT = 11
FRENCH_NINE = 12
EXTRA_RANKS = (FRENCH_EIGHT, FRENCH_NINE)
"""The French eight and nine, used only by the 48-card six-player deck (worth no points)."""
ALL_RANKS = RANKS + EXTRA_RANKS
POINTS_BY_RANK = {1: 11, 3: 10, 10: 4, 9: 3, 8: 2}
STRENGTH_ORDER = (2, 4, 5, 6, 7, FRENCH_EIGHT, FRENCH_NINE, 8, 9, 10, 3, 1)
"""Ranks from the weakest to the strongest card: the French eight and nine take between the
seven and the jack, as their faces say (the rule texts do not rank them)."""

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
    """Taking power in the standard ranking, 1 (the two) to 12 (the ace); only the order counts."""
    bit: int = field(init=False, repr=False)
    """A distinct power of two, so that sets of cards can be kept as integers."""

    def __post_init__(self) -> None:
        rank = self.rank
        if type(rank) is not int or rank not in ALL_RANKS or not isinstance(self.suit, Suit):
            raise InvalidCard.because(
                gettext_noop("there is no card of rank %(rank)r and suit %(suit)r"),
                rank=self.rank,
                suit=self.suit,
            )
        object.__setattr__(self, "code", f"{self.rank}{self.suit}")
        object.__setattr__(self, "points", POINTS_BY_RANK.get(self.rank, 0))
        object.__setattr__(self, "strength", STRENGTH_ORDER.index(self.rank) + 1)
        object.__setattr__(self, "bit", 1 << _bit_index(rank, self.suit))

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


def _bit_index(rank: int, suit: Suit) -> int:
    # The 40 cards keep bits 0-39 (suit by suit, ace to king); the French eights and nines follow.
    if rank in RANKS:
        return SUITS.index(suit) * len(RANKS) + rank - 1
    return len(SUITS) * len(RANKS) + SUITS.index(suit) * len(EXTRA_RANKS) + rank - FRENCH_EIGHT


FULL_DECK = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""The 40 cards in canonical order: coins, cups, swords, batons; ace to king."""
FRENCH_EIGHTS_AND_NINES = tuple(Card(rank, suit) for suit in SUITS for rank in EXTRA_RANKS)
"""The 8 cards a six-player table of French cards may add instead of removing the twos."""
ALL_CARDS = FULL_DECK + FRENCH_EIGHTS_AND_NINES
CARDS_BY_BIT = {card.bit: card for card in ALL_CARDS}


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
    """Italian-letter spellings: the canonical code and the rank aliases (40 cards only)."""
    if card.rank in EXTRA_RANKS:
        return [card.code]
    rank_spellings = [str(card.rank)]
    rank_spellings += [alias for alias, rank in RANK_ALIASES.items() if rank == card.rank]
    return [f"{rank}{card.suit}" for rank in rank_spellings]


FRENCH_SUIT_LETTERS = {"C": Suit.BATONS, "D": Suit.COINS, "H": Suit.CUPS, "S": Suit.SWORDS}
"""French suit letter -> canonical suit: clubs are batons, diamonds coins, hearts cups, spades
swords (the same pairs as the French display names)."""
FRENCH_RANK_SPELLINGS = {
    **{str(rank): rank for rank in range(1, 8)},
    "A": 1,
    "8": FRENCH_EIGHT,
    "9": FRENCH_NINE,
    "J": 8,
    "Q": 9,
    "K": 10,
}
_CARDS_BY_SPELLING: dict[str, dict[str, Card]] = {
    "italian": {spelling: card for card in ALL_CARDS for spelling in _spellings(card)},
    "french": {
        f"{rank_text}{suit_letter}": Card(rank, suit)
        for rank_text, rank in FRENCH_RANK_SPELLINGS.items()
        for suit_letter, suit in FRENCH_SUIT_LETTERS.items()
    },
}


def parse_card(text: object, deck_names: DeckNames = "italian") -> Card:
    """Read a card as a scorer types it with the suit letters of `deck_names`.

    Italian letters (the default) read canonical codes (`1D`, `10S`, `11B`) and aliases (`AD`,
    `KS`, `FC`, `QS`, `cs`); French letters read `AH` (ace of hearts = `1C`), `QS`, `8C`.
    """
    french = deck_names == "french"
    spelled = text.upper() if isinstance(text, str) else ""
    card = _CARDS_BY_SPELLING["french" if french else "italian"].get(spelled)
    if card is not None:
        return card
    if french and spelled.endswith("B") and spelled in _CARDS_BY_SPELLING["italian"]:
        raise InvalidCard.because(
            gettext_noop(
                "%(text)r has the Italian suit letter B, but this table plays with French cards: "
                "write a suit C (clubs), D (diamonds), H (hearts) or S (spades), e.g. 'AC'"
            ),
            text=text,
        )
    if not french and spelled.endswith("H") and spelled in _CARDS_BY_SPELLING["french"]:
        raise InvalidCard.because(
            gettext_noop(
                "%(text)r has the French suit letter H, but this table plays with Italian cards: "
                "write a suit D (coins), C (cups), S (swords) or B (batons), e.g. '1C'"
            ),
            text=text,
        )
    if french:
        raise InvalidCard.because(
            gettext_noop(
                "%(text)r is not a card of a French deck: write a rank A or 1-9, J, Q, K "
                "followed by a suit C, D, H or S, e.g. 'AH' or 'QS'"
            ),
            text=text,
        )
    raise InvalidCard.because(
        gettext_noop(
            "%(text)r is not a card: write a rank 1-10 (or A, J/F, C/H/Q, K/R) "
            "followed by a suit D, C, S or B, e.g. '1D' or '10S'"
        ),
        text=text,
    )


def card_text(card: Card, deck_names: DeckNames = "italian") -> str:
    """How a scorer writes `card` with the suit letters of `deck_names` (the inverse of
    `parse_card`): the canonical code in Italian letters, e.g. `AH` for `1C` in French ones."""
    if deck_names != "french":
        return card.code
    rank_text = {1: "A", 8: "J", 9: "Q", 10: "K", FRENCH_EIGHT: "8", FRENCH_NINE: "9"}
    suit_letter = {suit: letter for letter, suit in FRENCH_SUIT_LETTERS.items()}[card.suit]
    return f"{rank_text.get(card.rank, str(card.rank))}{suit_letter}"


PIP_OF_RANK = {FRENCH_EIGHT: 8, FRENCH_NINE: 9}
"""The number printed on the French eight and nine."""
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
    rank_name = rank_names.get(card.rank) or str(PIP_OF_RANK.get(card.rank, card.rank))
    return f"{rank_name} of {suit_names[card.suit]}"
