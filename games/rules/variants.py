"""Variants: the options a tournament may choose, each with the classic rule as its default."""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, get_args

from common.explained import gettext_noop
from games.rules.cards import RANKS, Card, DeckNames, parse_card
from games.rules.errors import InvalidCard, InvalidVariant

HAND_SIZES = (3, 9)
DECK_NAMES: tuple[str, ...] = get_args(DeckNames)
FACE_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""Ranks from the weakest to the strongest when the three ranks as a plain three."""
_FACE_STRENGTH = {rank: FACE_ORDER.index(rank) + 1 for rank in RANKS}
TWO_OF_BATONS = parse_card("2B")


@dataclass(frozen=True, slots=True)
class Variant:
    """Options of a round.

    hand_size: 3, or 9 for the two-player "bisca dos 9".
    three_ranks_as_three: the three takes between the two and the four (still worth 10 points).
    removed_card_for_three: the card left out at a three-player table (worth no points).
    deck_names: "italian" or "french"; changes display names only.
    """

    hand_size: int = 3
    three_ranks_as_three: bool = False
    removed_card_for_three: Card = TWO_OF_BATONS
    deck_names: DeckNames = "italian"

    def __post_init__(self) -> None:
        check_variant_is_valid(self)

    def strength_of(self, card: Card) -> int:
        """Taking power of a card, 1 (weakest) to 10 (the ace)."""
        return _FACE_STRENGTH[card.rank] if self.three_ranks_as_three else card.strength

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_size": self.hand_size,
            "three_ranks_as_three": self.three_ranks_as_three,
            "removed_card_for_three": self.removed_card_for_three.code,
            "deck_names": self.deck_names,
        }

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
    removed = variant.removed_card_for_three
    if not isinstance(removed, Card) or removed.points:
        raise InvalidVariant.because(
            gettext_noop(
                "removed_card_for_three must be a card worth no points, not %(removed)r, "
                "so that the deck still holds 120 points"
            ),
            removed=removed,
        )
    if variant.deck_names not in DECK_NAMES:
        raise InvalidVariant.because(
            gettext_noop("deck_names must be one of %(names)s, not %(name)r"),
            names=DECK_NAMES,
            name=variant.deck_names,
        )


DEFAULT_VARIANT = Variant()
