"""Commands a scorer (or the service dealing the cards) sends to a round."""

from dataclasses import dataclass

from games.rules.cards import Card
from games.rules.tables import Table
from games.rules.variants import DEFAULT_VARIANT, Variant


@dataclass(frozen=True, slots=True)
class StartRound:
    """Start a round after `dealer` dealt; the seat after the dealer leads.

    A physical round (hands unknown) names the face-up `briscola`. A dealt round gives the whole
    `deck` in dealing order instead (see `RoundSetup`); its briscola follows from the deck, and
    naming it too is allowed if it agrees.
    """

    table_size: int
    dealer: int
    briscola: Card | None = None
    variant: Variant = DEFAULT_VARIANT
    deck: tuple[Card, ...] | None = None

    @classmethod
    def led_by(
        cls,
        *,
        leader: int,
        table_size: int,
        briscola: Card | None = None,
        variant: Variant = DEFAULT_VARIANT,
        deck: tuple[Card, ...] | None = None,
    ) -> "StartRound":
        """Start a round named by the seat that leads rather than by the dealer."""
        table = Table(table_size, variant)
        table.check_seat_exists(leader)
        return cls(table_size, table.seat_before(leader), briscola, variant, deck)


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: Card


Command = StartRound | PlayCard
