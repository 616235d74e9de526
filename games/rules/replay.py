"""Running rounds: start, play, replay a list of plays, undo. All of it is a fold over events."""

from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce

from common.explained import gettext_noop
from games.rules.cards import Card, cards_of
from games.rules.commands import Command, PlayCard, StartRound
from games.rules.errors import NothingToUndo, RuleViolation
from games.rules.events import RoundEvent
from games.rules.round import decide, evolve
from games.rules.round_state import RoundState
from games.rules.tricks import Play


def fold_events(events: Iterable[RoundEvent], state: RoundState | None = None) -> RoundState:
    """The state after `events` (the first one a RoundDealt when `state` is None)."""
    folded = reduce(evolve, events, state)
    if folded is None:
        raise ValueError("no events to fold")
    return folded


def handle(state: RoundState | None, command: Command) -> tuple[list[RoundEvent], RoundState]:
    """Decide a command and apply its events: the events to store and the new state."""
    events = decide(state, command)
    return events, fold_events(events, state)


def start_round(command: StartRound) -> RoundState:
    return handle(None, command)[1]


def play_card(state: RoundState, play: Play) -> RoundState:
    return handle(state, PlayCard(play.seat, play.card))[1]


def decide_card(state: RoundState, play: Play) -> tuple[RoundEvent, ...]:
    """What `play` records on `state`, or the RuleViolation that refuses it: the card laid, and
    the trick it completes (its winner and points), the stock it empties, the round it ends.
    `fold_events(decide_card(state, play), state)` is `play_card(state, play)`: a caller that
    keeps the events applies the play later without the rules judging it again."""
    return tuple(decide(state, PlayCard(play.seat, play.card)))


@dataclass(frozen=True, slots=True)
class Rejection:
    """The first play of a list that the rules refuse (0-based index) and why."""

    play_index: int
    violation: RuleViolation


@dataclass(frozen=True, slots=True)
class ReplayResult:
    state: RoundState
    """The state after the last legal play."""
    rejection: Rejection | None

    @property
    def is_legal(self) -> bool:
        return self.rejection is None


def replay_round(start: StartRound, plays: Iterable[Play]) -> ReplayResult:
    """Replay plays from the start; stops at the first illegal one. Raises if the start is illegal.

    Also answers "would this corrected list of plays still replay legally?".
    """
    return replay_plays(start_round(start), plays)


def replay_plays(state: RoundState, plays: Iterable[Play]) -> ReplayResult:
    for index, play in enumerate(plays):
        try:
            state = play_card(state, play)
        except RuleViolation as violation:
            return ReplayResult(state, Rejection(index, violation))
    return ReplayResult(state, None)


def start_command_of(state: RoundState) -> StartRound:
    """The command that started this round (to replay it from the beginning)."""
    started = state.setup.started
    return StartRound(
        table_size=started.table_size,
        dealer=started.dealer,
        briscola=started.briscola,
        variant=started.variant,
        deck=started.deck,
    )


def undo_last_play(state: RoundState) -> RoundState:
    """The state without the last card played, rebuilt by replaying the others from the start."""
    plays = state.plays
    if not plays:
        raise NothingToUndo.because(gettext_noop("no card has been played in this round"))
    return replay_round(start_command_of(state), plays[:-1]).state


def legal_cards(state: RoundState) -> tuple[Card, ...]:
    """The cards the seat on turn may play, in canonical order; () once the round is over.

    A dealt round: its hand. A physical round: every card not yet played that no other seat is
    known to hold, the face-up briscola only for the seat that drew it, and only the briscola
    when that seat is down to its last card. `decide` accepts exactly these.
    """
    seat = state.seat_on_turn
    if seat is None:
        return ()
    known = state.known_hand_bits(seat)
    if state.is_dealt or known.bit_count() >= state.plays_left(seat):
        return cards_of(known)
    held_by_others = 0
    for other in state.table.seats:
        if other != seat:
            held_by_others |= state.known_hand_bits(other)
    undrawn = 0 if state.stock_is_empty else state.briscola.bit
    return cards_of(state.table.deck_bits & ~state.played & ~held_by_others & ~undrawn)
