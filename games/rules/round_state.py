"""A round's state between two plays: what stays fixed for the round (`RoundSetup`) and what the
plays so far have left (`RoundState`). `games.rules.round` decides and evolves it."""

from dataclasses import dataclass, field
from typing import NamedTuple

from games.rules.cards import Card, Suit, cards_of
from games.rules.dealing import HandBits, stock_of
from games.rules.events import RoundDealt
from games.rules.outcome import RoundOutcome
from games.rules.tables import Table
from games.rules.tricks import Play, Trick
from games.rules.variants import Variant

Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """What stays fixed for a whole round, shared by all its states."""

    started: RoundDealt
    table: Table = field(init=False)
    stock: tuple[Card, ...] = field(init=False)
    """Dealt rounds: the undealt cards in drawing order, briscola last. Empty for physical ones."""

    def __post_init__(self) -> None:
        started = self.started
        table = Table(started.table_size, started.variant)
        stock = () if started.deck is None else stock_of(started.deck, table)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "stock", stock)


class RoundState(NamedTuple):
    """A round between two plays. Immutable: `evolve` returns a new state.

    A NamedTuple rather than a frozen dataclass: a new state is built for every event, and a tuple
    is built over twice as fast, which shows in replays.
    """

    setup: RoundSetup
    leader: int
    """The seat leading the current trick."""
    trick: tuple[Play, ...]
    """Cards on the table in the current, unfinished trick."""
    tricks: tuple[Trick, ...]
    played: int
    """The cards played so far, as the sum of their `Card.bit`."""
    points: tuple[int, ...]
    """Points per side from completed tricks."""
    hand_bits: HandBits | None
    """Dealt rounds: the cards each seat holds (index = seat) as bit sets; None if physical."""
    briscola_holder: int | None
    """The seat that drew the face-up briscola; None until the stock is empty."""
    outcome: RoundOutcome | None

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def variant(self) -> Variant:
        return self.setup.table.variant

    @property
    def dealer(self) -> int:
        return self.setup.started.dealer

    @property
    def briscola(self) -> Card:
        return self.setup.started.briscola

    @property
    def trump(self) -> Suit:
        return self.setup.started.briscola.suit

    @property
    def is_dealt(self) -> bool:
        return self.hand_bits is not None

    @property
    def hands(self) -> Hands | None:
        """Dealt rounds: the cards each seat holds (index = seat), in canonical order."""
        return None if self.hand_bits is None else tuple(map(cards_of, self.hand_bits))

    @property
    def is_finished(self) -> bool:
        return self.outcome is not None

    @property
    def seat_on_turn(self) -> int | None:
        if self.outcome is not None:
            return None
        return (self.leader + len(self.trick)) % self.setup.table.size

    @property
    def stock_is_empty(self) -> bool:
        return self.briscola_holder is not None

    @property
    def partners_may_show_hands(self) -> bool:
        """Team tables only: once the last card is drawn partners may see each other's hands."""
        return self.stock_is_empty and self.table.has_partners

    @property
    def cards_in_stock(self) -> int:
        """Cards still to be drawn, the face-up briscola included."""
        return max(self.table.drawing_tricks - len(self.tricks), 0) * self.table.size

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every card played so far, in order."""
        return (*(play for trick in self.tricks for play in trick.plays), *self.trick)

    def is_played(self, card: Card) -> bool:
        return bool(self.played & card.bit)

    def plays_left(self, seat: int) -> int:
        """The cards `seat` still has to play this round, the current trick included."""
        in_trick = any(play.seat == seat for play in self.trick)
        return self.table.tricks_per_round - len(self.tricks) - in_trick

    def known_hand_bits(self, seat: int) -> int:
        """The cards the core knows `seat` holds: its whole hand in a dealt round; in a physical
        one, the face-up briscola once that seat has drawn it and until it is played."""
        if self.hand_bits is not None:
            return self.hand_bits[seat]
        if seat == self.briscola_holder and not self.is_played(self.briscola):
            return self.briscola.bit
        return 0
