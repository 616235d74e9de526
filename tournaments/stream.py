"""The tournament stream: the facts a tournament records, and the state folded from them.

Pure (standard library only). Events carry ids, never names. The Django services decide what to
append (with the help of `tournaments.plan`); every read model is a fold of these events plus the
results of the match streams.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

TOURNAMENT_CREATED = "TournamentCreated"
ENTRANT_REGISTERED = "EntrantRegistered"
ENTRANT_CHECKED_IN = "EntrantCheckedIn"
ENTRANT_WITHDREW = "EntrantWithdrew"
ENTRANTS_SEEDED = "EntrantsSeeded"
TOURNAMENT_STARTED = "TournamentStarted"
SWISS_ROUND_PAIRED = "SwissRoundPaired"
FIXTURE_CREATED = "FixtureCreated"
MATCH_SCHEDULED = "MatchScheduled"
RESULT_RECORDED = "ResultRecorded"
FIXTURE_RESET = "FixtureReset"
TOURNAMENT_FINISHED = "TournamentFinished"

FORMATS = (
    "single_elimination",
    "double_elimination",
    "round_robin",
    "swiss",
    "groups_then_knockout",
)


@dataclass(frozen=True)
class TournamentEvent:
    type: str
    payload: dict[str, Any]


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
    tables: int = 1
    match_minutes: int = 30
    no_show_minutes: int | None = None
    """The no-show rule: minutes after a match is scheduled before a side that has not checked
    in forfeits to one that has. None (the default): the rule is off, no deadline is set."""
    automatic_rounds: bool = True
    tiebreaks: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values["tiebreaks"] = None if self.tiebreaks is None else list(self.tiebreaks)
        return values

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        values = dict(data)
        if values.get("tiebreaks") is not None:
            values["tiebreaks"] = tuple(values["tiebreaks"])
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


@dataclass(frozen=True)
class EntrantRecord:
    seed: int | None = None
    checked_in: bool = False
    withdrawn: bool = False
    late: bool = False


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

    @property
    def entrants(self) -> tuple[int, int]:
        return (self.home, self.away)


@dataclass(frozen=True)
class Result:
    """The outcome of a fixture's match, as the tournament recorded it (home first)."""

    winner: int | None
    rounds: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    forfeit: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "rounds": list(self.rounds),
            "points": list(self.points),
            "forfeit": self.forfeit,
        }


@dataclass(frozen=True)
class SwissPairing:
    number: int
    pairings: tuple[tuple[str, int, int], ...]
    """(fixture id, home, away)."""
    bye: int | None


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

    @property
    def started(self) -> bool:
        return self.order is not None

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "in_progress" if self.started else "registration"

    @property
    def active_entrants(self) -> tuple[int, ...]:
        return tuple(e for e, record in self.entrants.items() if not record.withdrawn)

    def fixture_of_match(self, match_id: str) -> Fixture | None:
        for fixture in self.fixtures.values():
            if fixture.match_id == match_id:
                return fixture
        return None


def no_show_forfeiter(state: TournamentState, fixture: Fixture) -> int | None:
    """The side (0 home, 1 away) that forfeits `fixture` for not showing up once its deadline
    has passed: only with the no-show rule on, and only when one side checked in and the other
    did not. None when nobody forfeits (rule off, both present, or both absent: then the match
    is overdue, for the organizer to settle)."""
    if state.settings.no_show_minutes is None or fixture.deadline is None:
        return None
    home, away = (state.entrants.get(e, EntrantRecord()).checked_in for e in fixture.entrants)
    if home == away:
        return None
    return 1 if home else 0


def evolve(state: TournamentState | None, event: TournamentEvent) -> TournamentState:
    payload = event.payload
    if event.type == TOURNAMENT_CREATED:
        return TournamentState(
            name=payload["name"], settings=TournamentSettings.from_dict(payload["settings"])
        )
    if state is None:
        raise ValueError(f"{event.type} before {TOURNAMENT_CREATED}")
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown tournament event {event.type!r}")
    return handler(state, payload)


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state


def _with_entrant(state: TournamentState, entrant: int, **changes: Any) -> TournamentState:
    entrants = dict(state.entrants)
    entrants[entrant] = replace(entrants.get(entrant, EntrantRecord()), **changes)
    return replace(state, entrants=entrants)


def _registered(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(
        state, payload["entrant"], seed=payload.get("seed"), late=payload.get("late", False)
    )


def _checked_in(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(state, payload["entrant"], checked_in=True)


def _withdrew(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return _with_entrant(state, payload["entrant"], withdrawn=True)


def _seeded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, seeding=tuple(payload["order"]), seeding_method=payload["method"])


def _started(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, order=tuple(payload["order"]))


def _swiss_paired(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    pairing = SwissPairing(
        number=payload["round"],
        pairings=tuple((p[0], p[1], p[2]) for p in payload["pairings"]),
        bye=payload["bye"],
    )
    return replace(state, swiss_rounds=(*state.swiss_rounds, pairing))


def _fixture_created(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture = Fixture(
        id=payload["fixture"],
        match_id=payload["match_id"],
        home=payload["home"],
        away=payload["away"],
        stage=payload["stage"],
        round=payload["round"],
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _scheduled(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture = replace(
        state.fixtures[payload["fixture"]],
        table=payload["table"],
        scheduled_at=payload["scheduled_at"],
        deadline=payload["deadline"],
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _result_recorded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    result = Result(
        winner=payload["winner"],
        rounds=(payload["rounds"][0], payload["rounds"][1]),
        points=(payload["points"][0], payload["points"][1]),
        forfeit=payload["forfeit"],
    )
    return replace(state, results={**state.results, payload["fixture"]: result})


def _fixture_reset(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    fixture_id = payload["fixture"]
    fixtures = {k: v for k, v in state.fixtures.items() if k != fixture_id}
    results = {k: v for k, v in state.results.items() if k != fixture_id}
    return replace(state, fixtures=fixtures, results=results, resets=state.resets + 1)


def _finished(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    return replace(state, finished=True)


_HANDLERS = {
    ENTRANT_REGISTERED: _registered,
    ENTRANT_CHECKED_IN: _checked_in,
    ENTRANT_WITHDREW: _withdrew,
    ENTRANTS_SEEDED: _seeded,
    TOURNAMENT_STARTED: _started,
    SWISS_ROUND_PAIRED: _swiss_paired,
    FIXTURE_CREATED: _fixture_created,
    MATCH_SCHEDULED: _scheduled,
    RESULT_RECORDED: _result_recorded,
    FIXTURE_RESET: _fixture_reset,
    TOURNAMENT_FINISHED: _finished,
}
