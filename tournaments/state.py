"""What a tournament is, folded from its stream: settings, entrants, fixtures and results.

Pure (standard library only): the stream (`tournaments.stream`) folds events into these values and
decides commands from them; the plan, the formats and the standings read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class TournamentPhase(StrEnum):
    """Where a tournament is (the row's `TournamentStatus` names the same values)."""

    REGISTRATION = "registration"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


class FixturePhase(StrEnum):
    """What a fixture row says (the row's `FixtureStatus` names the same values)."""

    READY = "ready"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    RESET = "reset"


class MatchPhase(StrEnum):
    """The statuses of a match (the match row's `MatchStatus`) that a fixture follows."""

    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


FORMATS = (
    "single_elimination",
    "double_elimination",
    "round_robin",
    "swiss",
    "groups_then_knockout",
)


@dataclass(frozen=True)
class Registration:
    """How players sign themselves up (issue 26, decision record 0053): closed by default, so
    a tournament created without it behaves as before."""

    open: bool = False
    closes_at: str | None = None
    """ISO datetime after which no application is taken; None: until the start."""
    cap: int | None = None
    """The most active entrants; None: no cap."""
    waitlist: bool = False
    """Over the cap, an application waits (True) or is refused (`tournament_full`)."""
    approval: bool = False
    """Every application waits for the organizer's approval (pending)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "open": self.open,
            "closes_at": self.closes_at,
            "cap": self.cap,
            "waitlist": self.waitlist,
            "approval": self.approval,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Registration:
        return cls(**(data or {}))

    def accepts(self, now: datetime) -> bool:
        return self.open and (
            self.closes_at is None or now < datetime.fromisoformat(self.closes_at)
        )


class ApplicationPhase(StrEnum):
    """Where an application to play is (issue 26 §1)."""

    PENDING = "pending"
    WAITLISTED = "waitlisted"
    ENTERED = "entered"
    DECLINED = "declined"


@dataclass(frozen=True)
class TournamentSettings:
    """Everything fixed when the tournament is created."""

    format: str
    table_size: int
    best_of: int = 3
    scoring: str = "rounds"
    rounds: int | None = None
    variant: dict[str, Any] = field(default_factory=dict)
    swiss_rounds: int | None = None
    group_size: int | None = None
    advance_per_group: int = 2
    legs: int = 1
    third_place: bool = False
    grand_final_reset: bool = True
    tables: int | None = 1
    """The venue's tables, numbered from 1. None (created "by need", decision record 0049): as
    many as the entrants registered need until the start, which records the first round's need
    (`TablesChanged`); the organizer changes them with `ChangeTables` at any time."""
    match_minutes: int = 30
    no_show_minutes: int | None = None
    """The no-show rule: minutes after a match is scheduled before a side that has not checked
    in forfeits to one that has. None (the default): the rule is off, no deadline is set."""
    automatic_rounds: bool = True
    tiebreaks: tuple[str, ...] | None = None
    level_knockout: str | None = "deciding_round"
    """How a knockout match that ends level (scoring by points) gets its winner (decision
    record 0029): `deciding_round` (one more round), `higher_seed` (the higher seed goes
    through) or `organizer` (the organizer decides, with a reason). None: a tournament created
    before the rule, whose level knockout matches end without a winner (the organizer can
    still decide them)."""
    cut_ties_by_rule: bool = True
    """Ties at a group's qualification cut follow `level_knockout` (a playoff, the seed or the
    organizer: decision record 0029, amended). False: a tournament created before that rule,
    whose cut ties went to the seed and whose knockout may be drawn already."""
    placing_scoring: dict[str, Any] | None = None
    """At tables of three: match points per place, `{"places": [1st, 2nd, 3rd], "bye": n,
    "forfeit": n}` (decision record 0031); None: the default 2 / 1 / 0, bye 2, forfeit 0."""
    seeding: str | None = None
    """`rating`: started with no seeding fixed, the tournament is seeded by its players'
    ratings (decision record 0036); None or `given`: by the seeds given at registration."""
    registration: Registration = Registration()
    """Players' sign-up (decision record 0053); closed by default."""
    accelerated: bool = False
    """A Swiss paired with the Baku acceleration (decision record 0059): virtual points for
    the top half of a field of 32 or more in the first rounds, for the pairing only."""
    avoid_same_group: str | None = None
    """Who must not meet (decision record 0057): entrants of one group kept apart in the
    first round (`first_round`) or in every Swiss round (`always`); None: not at all."""
    avoid_same_group_strength: str = "strict"
    """`strict`: never (a Swiss round that cannot avoid it is refused); `soft`: as few as
    possible, after rematches."""
    late_entry_until_round: int | None = None
    """Swiss: an entrant may be registered after the start while the next round to draw is at
    most this one (decision record 0058); None: no registration after the start."""
    late_entry_points: str = "zero"
    """Swiss: what a late entrant scores for each round it missed: `zero` or `bye` (a bye's
    match points)."""
    max_requested_byes: int = 1
    """Swiss: how many rounds an entrant may ask to sit out (decision record 0058)."""
    requested_bye_points: int | None = None
    """Swiss: the match points of a requested bye; None: half a win's (of a 1st place's at
    tables of three), rounded down."""
    silent_final_rounds: int = 0
    """A Swiss's last rounds whose results and standings only the organizers read until they
    reveal them (`ResultsRevealed`, decision record 0060); 0: none."""

    def to_dict(self) -> dict[str, Any]:
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values["tiebreaks"] = None if self.tiebreaks is None else list(self.tiebreaks)
        if self.placing_scoring is None:
            del values["placing_scoring"]  # the payloads of two-sided tournaments unchanged
        if self.seeding is None:
            del values["seeding"]  # the payloads recorded before seeding by rating unchanged
        if self.registration == Registration():
            del values["registration"]  # the payloads recorded before sign-up unchanged
        else:
            values["registration"] = self.registration.to_dict()
        if not self.accelerated:
            del values["accelerated"]  # the payloads recorded before acceleration unchanged
        if self.avoid_same_group is None and self.avoid_same_group_strength == "strict":
            # The payloads recorded before the groups unchanged.
            del values["avoid_same_group"], values["avoid_same_group_strength"]
        for name, default in ARBITER_DEFAULTS.items():
            if values[name] == default:
                del values[name]  # the payloads recorded before decision 0058 unchanged
        if not self.silent_final_rounds:
            del values["silent_final_rounds"]  # the payloads recorded before silent rounds
        return values

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        values = dict(data)
        if values.get("tiebreaks") is not None:
            values["tiebreaks"] = tuple(values["tiebreaks"])
        values.setdefault("level_knockout", None)
        values.setdefault("cut_ties_by_rule", False)
        values["registration"] = Registration.from_dict(values.get("registration"))
        return cls(**values)

    @property
    def match_rules(self) -> dict[str, Any]:
        """What every match of the tournament is created with."""
        return {
            "table_size": self.table_size,
            "best_of": self.best_of,
            "scoring": self.scoring,
            "rounds": self.rounds,
            "variant": self.variant or None,
        }


ARBITER_DEFAULTS: dict[str, Any] = {
    "late_entry_until_round": None,
    "late_entry_points": "zero",
    "max_requested_byes": 1,
    "requested_bye_points": None,
}
"""The late-entry and bye settings (decision record 0058) left out of a payload at their
defaults."""
LATE_ENTRY_POINTS = ("zero", "bye")


def tables_needed(*, entrants: int, table_size: int) -> int:
    """The tables a round of `entrants` needs: two entrants a table (three at tables of three),
    rounded up (an odd one out has a table too, never one too few), at least one."""
    per_table = 3 if table_size == 3 else 2
    return max(1, -(-entrants // per_table))


@dataclass(frozen=True)
class EntrantRecord:
    seed: int | None = None
    checked_in: bool = False
    withdrawn: bool = False
    late: bool = False
    fixed_table: int | None = None
    """The table the entrant always plays at (reduced mobility, decision record 0059)."""
    group: str | None = None
    """Its group (a club, a family, a bar's team: decision record 0057); None: none."""
    from_round: int | None = None
    """A late entrant (decision record 0058): the first Swiss round it was drawn in."""
    missed: str | None = None
    """A late entrant's rounds before `from_round` score `zero` or a `bye` each."""
    paused: bool = False
    """Left out of the Swiss draws until it returns (decision record 0058)."""


@dataclass(frozen=True)
class Fixture:
    """A match the tournament created for one of its pairings or bracket slots."""

    id: str
    match_id: str
    home: int
    away: int
    stage: str
    round: int
    table: int | None = None
    scheduled_at: str | None = None
    deadline: str | None = None
    sequence: int = 0
    """Its place among every fixture the tournament created (reset ones included)."""
    called_at: str | None = None
    """When its match was called to its table: the no-show clock runs from then."""
    third: int | None = None
    """At tables of three (decision record 0031): the third entrant at the table."""

    @property
    def entrants(self) -> tuple[int, ...]:
        """The entrants at the table, in seat order (home, away and, at three, the third)."""
        if self.third is None:
            return (self.home, self.away)
        return (self.home, self.away, self.third)


@dataclass(frozen=True)
class Result:
    """The outcome of a fixture's match, as the tournament recorded it (per entrant, in the
    fixture's seat order: home first)."""

    winner: int | None
    rounds: tuple[int, ...] = (0, 0)
    points: tuple[int, ...] = (0, 0)
    forfeit: bool = False
    decided_by: str | None = None
    """A level knockout match's winner not won at the table: `higher_seed` or `organizer`."""
    places: tuple[int, ...] | None = None
    """At tables of three: each entrant's place (1st, 2nd, 3rd; shared places repeat, a
    competition ranking), aligned with the fixture's entrants. None at two-sided tables."""
    forfeited_by: int | None = None
    """At tables of three: the entrant who forfeited (the others are placed by their play)."""

    def to_dict(self) -> dict[str, Any]:
        recorded: dict[str, Any] = {
            "winner": self.winner,
            "rounds": list(self.rounds),
            "points": list(self.points),
            "forfeit": self.forfeit,
        }
        if self.decided_by is not None:
            recorded["decided_by"] = self.decided_by
        if self.places is not None:
            recorded["places"] = list(self.places)
        if self.forfeited_by is not None:
            recorded["forfeited_by"] = self.forfeited_by
        return recorded


@dataclass(frozen=True)
class SwissPairing:
    number: int
    pairings: tuple[tuple[str, tuple[int, ...]], ...]
    """(fixture id, entrants in seat order): two entrants, or three at tables of three."""
    bye: int | None
    requested: tuple[int, ...] = ()
    """Entrants who sat the round out by their request (a requested bye, decision 0058)."""
    absent: tuple[int, ...] = ()
    """Entrants left out of the draw because they were paused (absent, no points)."""


@dataclass(frozen=True)
class CheckInWindow:
    """When entrants may check in. Never opened: at any time (the window is optional)."""

    opened_at: str | None = None
    closes_at: str | None = None
    closed_at: str | None = None

    def accepts(self, now: datetime) -> bool:
        if self.opened_at is None:
            return self.closed_at is None
        if self.closed_at is not None:
            return False
        return self.closes_at is None or now < datetime.fromisoformat(self.closes_at)


@dataclass(frozen=True)
class TournamentState:
    name: str
    settings: TournamentSettings
    entrants: dict[int, EntrantRecord] = field(default_factory=dict)
    seeding: tuple[int, ...] | None = None
    seeding_method: str | None = None
    order: tuple[int, ...] | None = None
    """The entrants in seed order, frozen when the tournament started."""
    fixtures: dict[str, Fixture] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)
    swiss_rounds: tuple[SwissPairing, ...] = ()
    finished: bool = False
    resets: int = 0
    """How many fixtures were reset so far: new matches for a slot get a new generation."""
    retired: tuple[Fixture, ...] = ()
    """The fixtures that were reset, in the order they were: their matches stay in the log."""
    check_in: CheckInWindow = CheckInWindow()
    group_places: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """The organizer's order of the entrants tied at a group's qualification cut, by group
    label (`GroupPlacesDecided`, decision record 0029)."""
    applications: dict[int, ApplicationPhase] = field(default_factory=dict)
    """Players' applications to play, by application id (decision record 0053)."""
    waiting: tuple[int, ...] = ()
    """The waiting list: application ids, first promoted first."""
    entrant_of_application: dict[int, int] = field(default_factory=dict)
    requested_byes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """The Swiss rounds each entrant asked to sit out, by entrant (decision record 0058)."""
    late_entrants: tuple[int, ...] = ()
    """Entrants registered after the start, in registration order (decision record 0058)."""

    @property
    def field_order(self) -> tuple[int, ...]:
        """Everyone who started, in seed order, then the late entrants in their order."""
        return (*(self.order or ()), *self.late_entrants)

    results_revealed: bool = False
    """The organizer revealed the silent final rounds' results (decision record 0060)."""

    @property
    def entered_count(self) -> int:
        return len(self.active_entrants)

    @property
    def room(self) -> bool:
        """Whether one more entrant fits under the sign-up cap."""
        cap = self.settings.registration.cap
        return cap is None or self.entered_count < cap

    @property
    def started(self) -> bool:
        return self.order is not None

    @property
    def status(self) -> TournamentPhase:
        if self.finished:
            return TournamentPhase.FINISHED
        return TournamentPhase.IN_PROGRESS if self.started else TournamentPhase.REGISTRATION

    @property
    def active_entrants(self) -> tuple[int, ...]:
        return tuple(e for e, record in self.entrants.items() if not record.withdrawn)

    @property
    def tables(self) -> int:
        """The tables in force: the number set (at creation, by the organizer, or at the start
        for a tournament created by need), or before the start of a tournament created by need,
        what its active entrants need now."""
        if self.settings.tables is not None:
            return self.settings.tables
        return tables_needed(
            entrants=len(self.active_entrants), table_size=self.settings.table_size
        )

    def fixture_of_match(self, match_id: str) -> Fixture | None:
        """The live fixture whose match this is (None for a reset fixture's match)."""
        for fixture in self.fixtures.values():
            if fixture.match_id == match_id:
                return fixture
        return None

    def fixture_status(self, fixture: Fixture, match_status: str) -> FixturePhase:
        """What a fixture row says: `reset`, `finished` once a result is recorded (unless its
        match is being played again after a correction), `in_progress` while its match is being
        played (or finished, its result not yet recorded), else `ready`."""
        live = self.fixtures.get(fixture.id)
        if live is None or live.match_id != fixture.match_id:
            return FixturePhase.RESET
        if match_status == MatchPhase.IN_PROGRESS:
            return FixturePhase.IN_PROGRESS
        if fixture.id in self.results:
            return FixturePhase.FINISHED
        if match_status == MatchPhase.FINISHED:
            return FixturePhase.IN_PROGRESS
        return FixturePhase.READY
