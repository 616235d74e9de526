"""Variants: the options a tournament may choose, each with the classic rule as its default."""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from common.explained import gettext_noop
from games.rules.cards import ALL_RANKS, FRENCH_EIGHT, FRENCH_NINE, Card, DeckNames, parse_card
from games.rules.errors import InvalidCard, InvalidVariant, RemovedCardMustBeATwo

HAND_SIZES = (3, 9)
DECK_NAMES: tuple[str, ...] = get_args(DeckNames)
SIX_PLAYER_DECKS = (36, 48)
ThreeWinner = Literal["most_points", "at_least_61"]
THREE_WINNERS: tuple[str, ...] = get_args(ThreeWinner)
DEFAULT_THREE_WINNER: ThreeWinner = "most_points"
FACE_ORDER = (2, 3, 4, 5, 6, 7, FRENCH_EIGHT, FRENCH_NINE, 8, 9, 10, 1)
"""Ranks from the weakest to the strongest when the three ranks as a plain three."""
_FACE_STRENGTH = {rank: FACE_ORDER.index(rank) + 1 for rank in ALL_RANKS}
TWO_OF_BATONS = parse_card("2B")
DEFAULT_REMOVED_CARD = TWO_OF_BATONS


@dataclass(frozen=True, slots=True)
class Variant:
    """Options of a round.

    hand_size: 3, or 9 for the two-player "bisca dos 9".
    three_ranks_as_three: the three takes between the two and the four (still worth 10 points).
    removed_card_for_three: the two left out at a three-player table (default the two of batons,
        the two of clubs in French).
    deck_names: "italian" or "french": display names, and the suit letters a scorer types.
    six_player_deck: 36 (the twos removed) or, with French cards only, 48 (the twos kept and the
        eights and nines added). Other table sizes ignore it.
    three_winner: who wins a round at a table of three (decision record 0031): "most_points"
        (the side with the most points, ties for the most tie) or "at_least_61" (the side with
        61 points or more; a round in which nobody reaches 61 has no winner, like a tie).
        Refused at other table sizes (`check_three_winner_suits_table`).
    """

    hand_size: int = 3
    three_ranks_as_three: bool = False
    removed_card_for_three: Card = TWO_OF_BATONS
    deck_names: DeckNames = "italian"
    six_player_deck: int = 36
    three_winner: ThreeWinner = DEFAULT_THREE_WINNER

    def __post_init__(self) -> None:
        check_variant_is_valid(self)

    def strength_of(self, card: Card) -> int:
        """Taking power of a card, 1 (weakest) to 12 (the ace); only the order counts."""
        return _FACE_STRENGTH[card.rank] if self.three_ranks_as_three else card.strength

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON; `six_player_deck` only when not 36 and `three_winner` only when
        not "most_points", so that the variants (and the events) recorded before they existed
        are written exactly as they were."""
        data: dict[str, Any] = {
            "hand_size": self.hand_size,
            "three_ranks_as_three": self.three_ranks_as_three,
            "removed_card_for_three": self.removed_card_for_three.code,
            "deck_names": self.deck_names,
        }
        if self.six_player_deck != DEFAULT_SIX_PLAYER_DECK:
            data["six_player_deck"] = self.six_player_deck
        if self.three_winner != DEFAULT_THREE_WINNER:
            data["three_winner"] = self.three_winner
        return data

    @classmethod
    def from_recorded(cls, data: object) -> "Variant":
        """Read a variant from an event or a stored match: as `from_dict`, but a removed card
        that is not a two (any zero-point card was accepted before decision 0002's amendment)
        is kept, so that every recorded stream folds as it did."""
        if not isinstance(data, Mapping) or "removed_card_for_three" not in data:
            return cls.from_dict(data)
        removed = _read_removed_card(data["removed_card_for_three"])
        variant = cls.from_dict({**data, "removed_card_for_three": DEFAULT_REMOVED_CARD.code})
        if removed.points:  # never accepted: the deck would not hold 120 points
            check_removed_card_is_a_two(removed)
        object.__setattr__(variant, "removed_card_for_three", removed)  # frozen: set once, here
        return variant

    @classmethod
    def from_dict(cls, data: object) -> "Variant":
        """Read a variant; missing keys take their default, unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise InvalidVariant.because(
                gettext_noop("a variant is a JSON object, not %(data)r"), data=data
            )
        unknown = sorted(set(data) - VARIANT_KEYS)
        if unknown:
            raise InvalidVariant.because(
                gettext_noop("unknown options %(unknown)s; known: %(known)s"),
                unknown=unknown,
                known=sorted(VARIANT_KEYS),
            )
        options = dict(data)
        removed = options.get("removed_card_for_three")
        if removed is not None:
            options["removed_card_for_three"] = _read_removed_card(removed)
        return cls(**options)


DEFAULT_SIX_PLAYER_DECK = 36
VARIANT_KEYS = frozenset(field.name for field in fields(Variant))


def _read_removed_card(text: object) -> Card:
    try:
        return parse_card(text)
    except InvalidCard as error:
        raise InvalidVariant.because(
            gettext_noop("removed_card_for_three: %(reason)s"), reason=error
        ) from error


def check_variant_is_valid(variant: Variant) -> None:
    hand_size = variant.hand_size
    if type(hand_size) is not int or hand_size not in HAND_SIZES:
        raise InvalidVariant.because(
            gettext_noop("hand_size must be one of %(sizes)s, not %(size)r"),
            sizes=HAND_SIZES,
            size=hand_size,
        )
    if not isinstance(variant.three_ranks_as_three, bool):
        raise InvalidVariant.because(gettext_noop("three_ranks_as_three must be true or false"))
    check_removed_card_is_a_two(variant.removed_card_for_three)
    if variant.deck_names not in DECK_NAMES:
        raise InvalidVariant.because(
            gettext_noop("deck_names must be one of %(names)s, not %(name)r"),
            names=DECK_NAMES,
            name=variant.deck_names,
        )

    six_player_deck = variant.six_player_deck
    if type(six_player_deck) is not int or six_player_deck not in SIX_PLAYER_DECKS:
        raise InvalidVariant.because(
            gettext_noop("six_player_deck must be one of %(decks)s, not %(deck)r"),
            decks=SIX_PLAYER_DECKS,
            deck=six_player_deck,
        )
    if six_player_deck == 48 and variant.deck_names != "french":
        raise InvalidVariant.because(
            gettext_noop(
                "six_player_deck 48 adds the eights and nines of a French deck: "
                'it needs deck_names "french"'
            )
        )
    if variant.three_winner not in THREE_WINNERS:
        raise InvalidVariant.because(
            gettext_noop("three_winner must be one of %(rules)s, not %(rule)r"),
            rules=THREE_WINNERS,
            rule=variant.three_winner,
        )


def check_removed_card_is_a_two(removed: object) -> None:
    """The rule texts leave out a two at three players (usually the two of batons/clubs)."""
    if not isinstance(removed, Card) or removed.rank != 2:
        raise RemovedCardMustBeATwo.because(
            gettext_noop(
                "removed_card_for_three must be a two (2D, 2C, 2S or 2B; default 2B), "
                "not %(removed)s"
            ),
            removed=removed,
        )


DEFAULT_VARIANT = Variant()
