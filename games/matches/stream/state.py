"""The state folded from a match's events: its setup, its rounds, and what follows from them
(the rules' record, replays of ties, the dealer, the winner). Nothing here is ever typed in."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from common.explained import gettext_noop
from games.matches.stream.errors import InvalidSide, PointsAlreadyEntered, RoundNotFound
from games.matches.stream.events import CardCorrectedAfterRound, SideRef
from games.rules.cards import Card
from games.rules.commands import StartRound
from games.rules.errors import MatchAlreadyFinished, MissingBriscola
from games.rules.match import MatchFormat, MatchState, start_match
from games.rules.outcome import RoundOutcome
from games.rules.round_state import RoundState
from games.rules.tables import Table
from games.rules.tricks import Play
from games.rules.variants import Variant

MatchStatus = Literal["not_started", "in_progress", "finished"]
RoundStatus = Literal["in_progress", "finished", "voided"]


@dataclass(frozen=True, slots=True)
class MatchSetup:
    table: Table
    match_format: MatchFormat
    sides: tuple[SideRef, ...]
    first_dealer: int

    @property
    def variant(self) -> Variant:
        return self.table.variant


@dataclass(frozen=True, slots=True)
class MatchRound:
    number: int
    """1 for the first round started in the match; voided rounds keep their numbers."""
    dealer: int
    leader: int
    briscola: Card | None
    cards: RoundState | None
    """The card-by-card state; None when the round was started without a briscola."""
    entered: RoundOutcome | None = None
    """The outcome a scorer entered as points only."""
    voided: bool = False
    void_reason: str = ""
    ruled: RoundOutcome | None = None
    """The outcome the organizer ruled (decision record 0045): it stands over the cards' or
    the entered points'."""
    ruling_reason: str = ""
    corrections: tuple[CardCorrectedAfterRound, ...] = ()
    """The organizer's corrections of the finished round's cards, in order (decision record
    0048): its plays are as corrected; these say what each was and why."""

    @property
    def plays(self) -> tuple[Play, ...]:
        return () if self.cards is None else self.cards.plays

    @property
    def is_dealt(self) -> bool:
        """Dealt by the server: every hand is known, and every card must come from one."""
        return self.cards is not None and self.cards.is_dealt

    @property
    def outcome(self) -> RoundOutcome | None:
        if self.ruled is not None:
            return self.ruled
        if self.entered is not None:
            return self.entered
        return None if self.cards is None else self.cards.outcome

    @property
    def status(self) -> RoundStatus:
        if self.voided:
            return "voided"
        return "in_progress" if self.outcome is None else "finished"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result as it stands: what a side confirms or disputes (decision record 0044)."""

    finished: bool
    winner: int | None
    rounds: tuple[tuple[int, tuple[int, ...]], ...]
    """Each round the record counts so far (not voided, finished), as its number and points."""
    forfeited_by: int | None = None


@dataclass(frozen=True, slots=True)
class ResultMark:
    """A side's confirmation or dispute, of the result it was recorded against."""

    side: int
    result: MatchResult
    version: int
    """The stream version of the event that recorded it."""
    standing: bool = True
    """False once withdrawn (a dispute, by confirming) or once the result changed."""
    reason: str = ""
    """A dispute's reason, as its event recorded it; a confirmation has none."""


@dataclass(frozen=True, slots=True)
class MatchAggregate:
    setup: MatchSetup
    rounds: tuple[MatchRound, ...] = ()
    confirmations: tuple[ResultMark, ...] = ()
    """Every confirmation recorded, in order; standing only while the result is the same."""
    disputes: tuple[ResultMark, ...] = ()
    """Every dispute recorded, in order; standing (open) until the side confirms or the result
    changes."""
    forfeited_by: int | None = None
    forfeit_reason: str = ""
    version: int = 0
    """The stream version of the last event folded (a stream's events are numbered from 1)."""

    @property
    def confirmed_by(self) -> frozenset[int]:
        """The sides whose confirmation stands: each is of the current result."""
        return frozenset(mark.side for mark in self.confirmations if mark.standing)

    @property
    def disputed_by(self) -> frozenset[int]:
        """The sides whose dispute of the current result is open."""
        return frozenset(mark.side for mark in self.disputes if mark.standing)

    @property
    def result(self) -> MatchResult:
        record = self.record
        return MatchResult(
            finished=self.forfeited_by is not None or record.is_finished,
            winner=self.winner_of(record),
            rounds=counted_points(self.live_rounds),
            forfeited_by=self.forfeited_by,
        )

    @property
    def table(self) -> Table:
        return self.setup.table

    def round(self, number: int) -> MatchRound:
        if not 1 <= number <= len(self.rounds):
            raise RoundNotFound.because(
                gettext_noop("the match has no round %(round)s"), round=number
            )
        return self.rounds[number - 1]

    @property
    def live_rounds(self) -> tuple[MatchRound, ...]:
        """The rounds that were not voided, in order."""
        return tuple(match_round for match_round in self.rounds if not match_round.voided)

    @property
    def round_in_progress(self) -> MatchRound | None:
        live = self.live_rounds
        return live[-1] if live and live[-1].outcome is None else None

    @property
    def record(self) -> MatchState:
        """The rules' view of the match: the finished, not voided rounds in order."""
        return fold_record(self.setup, self.live_rounds)

    @property
    def replay_of(self) -> dict[int, int]:
        """Round number -> the number of the tied round it replays (a best-of match's rounds,
        and the deciding rounds of a match scored by points)."""
        match_format = self.setup.match_format
        live = self.live_rounds
        return {
            current.number: previous.number
            for index, (previous, current) in enumerate(pairwise(live))
            if previous.outcome is not None
            and previous.outcome.is_tie
            and (match_format.scoring == "best_of" or index >= match_format.rounds)
        }

    @property
    def deciding_round_due(self) -> bool:
        """Level after its fixed rounds, the match goes on with a deciding round (decision
        record 0029): due until one is won."""
        return self.deciding_round_due_of(self.record)

    def deciding_round_due_of(self, record: MatchState) -> bool:
        """`deciding_round_due`, given the record (`self.record`, folded once by the caller)."""
        return self.forfeited_by is None and record.deciding_round_due

    def regulation_points_of(self, record: MatchState) -> tuple[int, ...] | None:
        """A match scored by points: each side's total of the fixed rounds played so far, the
        deciding rounds left out; None for a best-of match (decision record 0045). `record` is
        `self.record`, folded once by the caller."""
        if self.setup.match_format.scoring != "points":
            return None
        return record.total_points_of_fixed_rounds

    def deciding_round_of(self, record: MatchState) -> int | None:
        """The number of the deciding round that won the match, if one did (0029, 0045)."""
        decided = record.decided_by_round
        if decided is None or self.forfeited_by is not None:
            return None
        finished = [r for r in self.live_rounds if r.outcome is not None]
        return finished[decided.number - 1].number

    @property
    def next_dealer(self) -> int:
        """The seat after the last dealer of a round that was not voided (a void is re-dealt)."""
        live = self.live_rounds
        return self.setup.first_dealer if not live else self.table.next_seat(live[-1].dealer)

    @property
    def is_finished(self) -> bool:
        return self.forfeited_by is not None or self.record.is_finished

    @property
    def status(self) -> MatchStatus:
        return self.status_of(self.record)

    def status_of(self, record: MatchState) -> MatchStatus:
        """`status`, given the record (`self.record`, folded once by the caller)."""
        if self.forfeited_by is not None or record.is_finished:
            return "finished"
        return "in_progress" if self.rounds else "not_started"

    @property
    def winner(self) -> int | None:
        return self.winner_of(self.record)

    def winner_of(self, record: MatchState) -> int | None:
        """The winner, given the record (`self.record`, folded once by the caller)."""
        if self.forfeited_by is None:
            return record.winner
        return winner_after_forfeit(record, self.forfeited_by)

    def check_side_exists(self, side: int) -> None:
        if type(side) is not int or not 0 <= side < self.table.side_count:
            raise InvalidSide.because(
                gettext_noop("side must be 0 to %(last)s, not %(side)r"),
                last=self.table.side_count - 1,
                side=side,
            )

    def check_match_goes_on(self) -> None:
        if self.is_finished:
            raise MatchAlreadyFinished.because(gettext_noop("the match is over"))


def fold_record(setup: MatchSetup, live_rounds: Iterable[MatchRound]) -> MatchState:
    record = start_match(
        table_size=setup.table.size,
        match_format=setup.match_format,
        first_dealer=setup.first_dealer,
    )
    for match_round in live_rounds:
        if match_round.outcome is None:
            break
        record = record.record_round(match_round.outcome)
    return record


def counted_points(live_rounds: Iterable[MatchRound]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The number and points of each live round the record counts: up to the first unfinished."""
    counted: list[tuple[int, tuple[int, ...]]] = []
    for match_round in live_rounds:
        if match_round.outcome is None:
            break
        counted.append((match_round.number, match_round.outcome.points))
    return tuple(counted)


def winner_after_forfeit(record: MatchState, forfeited_by: int) -> int | None:
    """The other side wins; at a three-player table the one ahead of the two, if any."""
    others = [side for side in range(record.table.side_count) if side != forfeited_by]
    if len(others) == 1:
        return others[0]
    standing = {side: (record.round_wins[side], record.total_points[side]) for side in others}
    best = max(standing.values())
    ahead = [side for side, score in standing.items() if score == best]
    return ahead[0] if len(ahead) == 1 else None


# Shared by decide and evolve.


def cards_of(match_round: MatchRound) -> RoundState:
    """The round's card-by-card state, for a round that takes cards."""
    if match_round.entered is not None:
        raise PointsAlreadyEntered.because(
            gettext_noop("round %(round)s was scored by points only"), round=match_round.number
        )
    if match_round.cards is None:
        raise MissingBriscola.because(
            gettext_noop("round %(round)s was started without a briscola"), round=match_round.number
        )
    return match_round.cards


def replace_play(plays: Sequence[Play], index: int, card: Card) -> tuple[Play, ...]:
    return (*plays[:index], Play(plays[index].seat, card), *plays[index + 1 :])


def swap_cards(plays: Sequence[Play], index: int, other: int) -> tuple[Play, ...]:
    """The plays with the cards of plays `index` and `other` exchanged, each seat kept."""
    swapped = list(plays)
    swapped[index] = Play(plays[index].seat, plays[other].card)
    swapped[other] = Play(plays[other].seat, plays[index].card)
    return tuple(swapped)


def round_start(
    setup: MatchSetup, dealer: int, briscola: Card | None, deck: tuple[Card, ...] | None = None
) -> StartRound:
    return StartRound(
        table_size=setup.table.size,
        dealer=dealer,
        briscola=briscola,
        variant=setup.variant,
        deck=deck,
    )
