"""Tables: seats in playing order, sides, and the deck each table size plays with."""

from dataclasses import dataclass, field

from common.explained import gettext_noop
from games.rules.cards import FRENCH_EIGHTS_AND_NINES, FULL_DECK, Card, bits_of
from games.rules.errors import InvalidSeat, InvalidTableSize, InvalidVariant
from games.rules.variants import DEFAULT_THREE_WINNER, DEFAULT_VARIANT, Variant

TABLE_SIZES = (2, 3, 4, 6)


def deck_for(size: int, variant: Variant) -> tuple[Card, ...]:
    """40 cards; 39 at three players (a two removed); 36 at six players (no twos), or 48 with
    French cards and `six_player_deck=48` (the twos kept, the eights and nines added)."""
    if size == 3:
        return tuple(card for card in FULL_DECK if card != variant.removed_card_for_three)
    if size == 6 and variant.six_player_deck == 48:
        return FULL_DECK + FRENCH_EIGHTS_AND_NINES
    if size == 6:
        return tuple(card for card in FULL_DECK if card.rank != 2)
    return FULL_DECK


@dataclass(frozen=True, slots=True)
class Table:
    """A table of `size` seats numbered 0..size-1 in playing order.

    Sides: seat % 2 at tables of 2, 4 and 6 (partners sit opposite); the seat itself at 3.
    """

    size: int
    variant: Variant = DEFAULT_VARIANT
    deck: tuple[Card, ...] = field(init=False, compare=False, repr=False)
    deck_bits: int = field(init=False, compare=False, repr=False)
    side_by_seat: tuple[int, ...] = field(init=False, compare=False, repr=False)
    tricks_per_round: int = field(init=False, compare=False, repr=False)
    drawing_tricks: int = field(init=False, compare=False, repr=False)
    """How many tricks are followed by a draw; the stock is empty after the last of them."""

    def __post_init__(self) -> None:
        check_table_size_is_supported(self.size)
        check_hand_size_suits_table(self.size, self.variant)
        check_three_winner_suits_table(self.size, self.variant)
        deck = deck_for(self.size, self.variant)
        dealt = self.size * self.variant.hand_size
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "deck_bits", bits_of(deck))
        object.__setattr__(self, "side_by_seat", tuple(map(self.side_of, self.seats)))
        object.__setattr__(self, "tricks_per_round", len(deck) // self.size)
        object.__setattr__(self, "drawing_tricks", (len(deck) - dealt) // self.size)

    @property
    def seats(self) -> range:
        return range(self.size)

    @property
    def side_count(self) -> int:
        return 3 if self.size == 3 else 2

    @property
    def has_partners(self) -> bool:
        return self.size > 3

    def side_of(self, seat: int) -> int:
        return seat if self.size == 3 else seat % 2

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.size

    def seat_before(self, seat: int) -> int:
        return (seat - 1) % self.size

    def holds(self, card: Card) -> bool:
        return bool(self.deck_bits & card.bit)

    def check_seat_exists(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.size:
            raise InvalidSeat.because(
                gettext_noop(
                    "seat %(seat)r does not exist at a table of %(size)s: seats are 0 to %(last)s"
                ),
                seat=seat,
                size=self.size,
                last=self.size - 1,
            )


def check_table_size_is_supported(size: int) -> None:
    if type(size) is not int or size not in TABLE_SIZES:
        raise InvalidTableSize.because(
            gettext_noop("Briscola is played at tables of %(sizes)s, not %(size)r"),
            sizes=TABLE_SIZES,
            size=size,
        )


def check_hand_size_suits_table(size: int, variant: Variant) -> None:
    if variant.hand_size == 9 and size != 2:
        raise InvalidVariant.because(
            gettext_noop("hands of 9 cards (bisca dos 9) are for two players only")
        )


def check_three_winner_suits_table(size: int, variant: Variant) -> None:
    """Who wins a round at three is a choice only at three: with two sides and 120 points the
    side with the most points is the side with 61 or more (decision record 0031)."""
    if variant.three_winner != DEFAULT_THREE_WINNER and size != 3:
        raise InvalidVariant.because(
            gettext_noop(
                "three_winner %(rule)r is for tables of three, not %(size)s players: with two "
                "sides the most points and at least 61 are the same rule"
            ),
            rule=variant.three_winner,
            size=size,
        )
