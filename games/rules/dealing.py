"""Dealing and drawing in a dealt round, from a deck order recorded by the service.

Convention: one card at a time round the table, starting at the leader (the seat after the
dealer) and going in playing order, until each seat holds `hand_size` cards: deck card i goes to
seat (leader + i) % size. The next card is the face-up briscola; it goes under the stock and is
drawn last. After each trick its winner draws first, then the other seats in playing order.
Hands are kept as bit sets (the sum of their cards' `Card.bit`), one per seat.
"""

from collections.abc import Sequence

from games.rules.cards import Card, bits_of
from games.rules.tables import Table

HandBits = tuple[int, ...]


def dealt_count(table: Table) -> int:
    return table.size * table.variant.hand_size


def briscola_of(deck: Sequence[Card], table: Table) -> Card:
    """The card turned up after the hands are dealt."""
    return deck[dealt_count(table)]


def hands_dealt(deck: Sequence[Card], table: Table, leader: int) -> HandBits:
    size, dealt = table.size, dealt_count(table)
    return tuple(bits_of(deck[(seat - leader) % size : dealt : size]) for seat in table.seats)


def stock_of(deck: Sequence[Card], table: Table) -> tuple[Card, ...]:
    """The undealt cards in drawing order: the rest of the deck, then the briscola."""
    dealt = dealt_count(table)
    return (*deck[dealt + 1 :], deck[dealt])


def hands_after_draw(
    hand_bits: HandBits, stock: Sequence[Card], trick_number: int, winner: int
) -> HandBits:
    """After trick t (from 1) the winner draws the next card of the stock, then each seat."""
    size = len(hand_bits)
    drawn = stock[(trick_number - 1) * size : trick_number * size]
    by_seat = {(winner + turn) % size: card.bit for turn, card in enumerate(drawn)}
    return tuple(bits | by_seat[seat] for seat, bits in enumerate(hand_bits))
