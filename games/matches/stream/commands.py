"""Match commands, in the imperative: what a table (or the organizer) asks of a match."""

from dataclasses import dataclass, field

from common.fingerprints import counted_as
from games.matches.stream.events import SideRef
from games.rules.cards import Card
from games.rules.match import MatchFormat
from games.rules.variants import Variant


def _dealt_by_server(deck: tuple[Card, ...] | None) -> bool:
    return deck is not None


@dataclass(frozen=True, slots=True)
class CreateMatch:
    table_size: int
    match_format: MatchFormat
    sides: tuple[SideRef, ...]
    variant: Variant
    first_dealer: int = 0


@dataclass(frozen=True, slots=True)
class StartNextRound:
    """`briscola` may be None for a table that will enter only the round's points.

    A round dealt by the server gives the shuffled `deck` (every card of the table's deck, in
    dealing order) and no briscola: the deck turns it up.
    """

    briscola: Card | None
    dealer: int | None = None
    deck: tuple[Card, ...] | None = field(default=None, metadata=counted_as(_dealt_by_server))
    """A server deal shuffles afresh on every request: a retried start is the same command
    (answered with the first deal), so only whether the server dealt makes two starts differ."""


@dataclass(frozen=True, slots=True)
class PlayCardInRound:
    round: int
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PlayCardsInRound:
    """Several cards of one round at once (an offline queue, a score sheet typed in after the
    game): each is checked against the round as the cards before it left it, and all are
    recorded, or none (the failing card's index in `plays` is on the error as `play_index`)."""

    round: int
    plays: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class EnterRoundPoints:
    round: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UndoLastPlay:
    round: int


@dataclass(frozen=True, slots=True)
class CorrectCard:
    round: int
    play_index: int
    card: Card


@dataclass(frozen=True, slots=True)
class CorrectCardAfterRound:
    """The organizer corrects a card of a finished round, for `reason` (decision record 0048):
    the play at `play_index` was `card`. Every card of a finished round was played, so the play
    that recorded `card` takes the corrected play's card: the two plays exchange their cards,
    and the round's tricks, winners and points follow from the cards."""

    round: int
    play_index: int
    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class VoidRound:
    round: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class RuleRoundResult:
    """The organizer rules on a finished round's result: its points are `points`, for `reason`
    (a settled dispute, a miscount). The round's cards, if any, stay as they were played."""

    round: int
    points: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    """Confirming withdraws the side's dispute, if it had one."""

    side: int


@dataclass(frozen=True, slots=True)
class DisputeResult:
    """A side says the recorded result is wrong: a flag for the organizer, who corrects or voids
    rounds as usual. The result itself does not change."""

    side: int
    reason: str


@dataclass(frozen=True, slots=True)
class ForfeitMatch:
    side: int
    """The side that forfeits."""
    reason: str = ""


RoundCommand = (
    StartNextRound
    | PlayCardInRound
    | PlayCardsInRound
    | EnterRoundPoints
    | UndoLastPlay
    | CorrectCard
    | CorrectCardAfterRound
    | VoidRound
    | RuleRoundResult
)
"""The commands that start a round or enter into one."""
ResultCommand = ConfirmResult | DisputeResult | ForfeitMatch
"""The commands about the match's result."""
MatchCommand = CreateMatch | RoundCommand | ResultCommand
