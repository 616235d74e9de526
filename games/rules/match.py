"""Matches: a series of rounds at one table, won by round wins (best of) or by total points."""

from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from common.explained import gettext_noop
from games.rules.errors import (
    InvalidMatchFormat,
    InvalidPoints,
    MatchAlreadyFinished,
)
from games.rules.outcome import RoundOutcome
from games.rules.tables import Table

Scoring = Literal["best_of", "points"]
SCORINGS: tuple[str, ...] = get_args(Scoring)
Decider = Literal["none", "round"]
DECIDERS: tuple[str, ...] = get_args(Decider)
BEST_OF = (1, 3, 5)


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """`best_of` 1, 3 or 5: the first side to win 1, 2 or 3 rounds; tied rounds are replayed.
    `points`: exactly `rounds` rounds are played (ties included); most total points wins.
    `decider` (points only, decision record 0029): `none`, a match level after its rounds ends
    without a winner; `round`, it goes on with a deciding round, whose winner wins the match (a
    tied deciding round is replayed, as in a best-of match).
    """

    scoring: Scoring = "best_of"
    rounds: int = 3
    decider: Decider = "none"

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise InvalidMatchFormat.because(
                gettext_noop("scoring must be one of %(scorings)s, not %(scoring)r"),
                scorings=SCORINGS,
                scoring=self.scoring,
            )
        if type(self.rounds) is not int or self.rounds < 1:
            raise InvalidMatchFormat.because(
                gettext_noop("a match has at least one round, not %(rounds)r"), rounds=self.rounds
            )
        if self.scoring == "best_of" and self.rounds not in BEST_OF:
            raise InvalidMatchFormat.because(
                gettext_noop("a match is best of %(best_of)s, not %(rounds)s"),
                best_of=BEST_OF,
                rounds=self.rounds,
            )
        if self.decider not in DECIDERS:
            raise InvalidMatchFormat.because(
                gettext_noop("decider must be one of %(deciders)s, not %(decider)r"),
                deciders=DECIDERS,
                decider=self.decider,
            )
        if self.decider != "none" and self.scoring != "points":
            raise InvalidMatchFormat.because(
                gettext_noop(
                    "a deciding round is for matches scored by points: a best-of match is "
                    "always won"
                )
            )

    @classmethod
    def best_of(cls, rounds: int) -> "MatchFormat":
        return cls("best_of", rounds)

    @classmethod
    def fixed_rounds(cls, rounds: int, decider: Decider = "none") -> "MatchFormat":
        return cls("points", rounds, decider)

    @property
    def wins_needed(self) -> int:
        return self.rounds // 2 + 1

    def to_dict(self) -> dict[str, Any]:
        """`decider` only when there is one: formats recorded before it read as `none`."""
        data: dict[str, Any] = {"scoring": self.scoring, "rounds": self.rounds}
        if self.decider != "none":
            data["decider"] = self.decider
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MatchFormat":
        return cls(data["scoring"], data["rounds"], data.get("decider", "none"))


@dataclass(frozen=True, slots=True)
class RoundRecord:
    number: int
    """1 for the first round of the match; replays of tied rounds get their own numbers."""
    dealer: int
    outcome: RoundOutcome
    counts: bool
    """False for a tied round of a best-of match, or a tied deciding round: it is replayed
    and does not count."""
    replay_of: int | None = None
    """The number of the tied round this round replays."""
    replayed_by: int | None = None
    """The number of the round that replays this tied round."""


@dataclass(frozen=True, slots=True)
class MatchState:
    table: Table
    format: MatchFormat
    first_dealer: int
    records: tuple[RoundRecord, ...] = ()

    def __post_init__(self) -> None:
        self.table.check_seat_exists(self.first_dealer)

    @property
    def next_dealer(self) -> int:
        """Each round is dealt by the seat after the previous dealer (replays of ties too)."""
        return (self.first_dealer + len(self.records)) % self.table.size

    @property
    def round_wins(self) -> tuple[int, ...]:
        winners = [record.outcome.winning_side for record in self.records if record.counts]
        return tuple(winners.count(side) for side in range(self.table.side_count))

    @property
    def total_points(self) -> tuple[int, ...]:
        totals = [0] * self.table.side_count
        for record in self.records:
            for side, points in enumerate(record.outcome.points):
                totals[side] += points
        return tuple(totals)

    @property
    def fixed_rounds_level(self) -> bool:
        """A match scored by points whose rounds are all played and whose totals are level."""
        return (
            self.format.scoring == "points"
            and len(self.records) >= self.format.rounds
            and RoundOutcome.from_points(self.total_points_of_fixed_rounds).winning_side is None
        )

    @property
    def total_points_of_fixed_rounds(self) -> tuple[int, ...]:
        totals = [0] * self.table.side_count
        for record in self.records[: self.format.rounds]:
            for side, points in enumerate(record.outcome.points):
                totals[side] += points
        return tuple(totals)

    @property
    def deciding_rounds(self) -> tuple[RoundRecord, ...]:
        """The rounds played after the fixed rounds of a level match (ties replayed)."""
        if self.format.scoring != "points":
            return ()
        return self.records[self.format.rounds :]

    @property
    def decided_by_round(self) -> RoundRecord | None:
        """The deciding round that was won, if any."""
        return next((record for record in self.deciding_rounds if record.counts), None)

    @property
    def deciding_round_due(self) -> bool:
        """Level after the fixed rounds, with a deciding round, and no deciding round won yet."""
        return (
            self.format.decider == "round"
            and self.fixed_rounds_level
            and self.decided_by_round is None
        )

    @property
    def is_finished(self) -> bool:
        if self.format.scoring == "points":
            return len(self.records) >= self.format.rounds and not self.deciding_round_due
        return max(self.round_wins) >= self.format.wins_needed

    @property
    def winner(self) -> int | None:
        """The winning side of a finished match; None while it goes on or if it ends level."""
        if not self.is_finished:
            return None
        if self.format.scoring == "best_of":
            return RoundOutcome.from_points(self.round_wins).winning_side
        decided = self.decided_by_round
        if decided is not None:
            return decided.outcome.winning_side
        return RoundOutcome.from_points(self.total_points_of_fixed_rounds).winning_side

    def check_round_may_start(self) -> None:
        if self.is_finished:
            raise MatchAlreadyFinished.because(
                gettext_noop("the match is over: no more rounds are played")
            )

    def record_round(self, outcome: RoundOutcome) -> "MatchState":
        """The match after a finished round (played card by card or entered as points)."""
        self.check_round_may_start()
        check_outcome_names_every_side(outcome, self.table)
        number = len(self.records) + 1
        previous = self.records[-1] if self.records else None
        replay_of = previous.number if previous is not None and not previous.counts else None
        deciding = self.deciding_round_due
        counts = not (outcome.is_tie and (self.format.scoring == "best_of" or deciding))
        record = RoundRecord(number, self.next_dealer, outcome, counts, replay_of)
        earlier = self.records
        if previous is not None and replay_of is not None:
            earlier = (*earlier[:-1], replace(previous, replayed_by=number))
        return replace(self, records=(*earlier, record))


def check_outcome_names_every_side(outcome: RoundOutcome, table: Table) -> None:
    if len(outcome.points) != table.side_count:
        raise InvalidPoints.because(
            gettext_noop("a table of %(size)s has %(sides)s sides, not %(given)s"),
            size=table.size,
            sides=table.side_count,
            given=len(outcome.points),
        )


def start_match(
    *, table_size: int, match_format: MatchFormat = MatchFormat(), first_dealer: int = 0
) -> MatchState:
    return MatchState(Table(table_size), match_format, first_dealer)
