"""The tournament stream: the facts a tournament records, and the state folded from them.

Pure (standard library only). Events carry ids, never names. The Django services decide what to
append (with the help of `tournaments.plan`); every read model is a fold of these events plus the
results of the match streams.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from common.explained import Explained, gettext_noop

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


# Entrant corrections.
#
# An organizer renames an entrant, changes its players, or changes seeds before the start. The
# guards below are pure, for the service in tournaments/corrections.py now and for `decide` when
# it comes; the two events carry ids and which fields changed, never names (decision 0018): the
# names are rows, written in the same transaction.

ENTRANT_CORRECTED = "EntrantCorrected"
"""{entrant, changed: ["name", "players"], players: [player ids in seat order] when the players
changed, reason}. A renamed player keeps their id; a replaced one gets a new id."""
ENTRANTS_RESEEDED = "EntrantsReseeded"
"""{seeds: [[entrant, seed or null], ...], reason}. The seeds that changed; the others stay. A
seeding order fixed earlier (EntrantsSeeded) gives way to the seeds, its positions kept as seeds."""
CORRECTED_FIELDS = ("name", "players")


class CorrectionRefused(Explained, ValueError):
    """A correction the tournament cannot take; the service raises it again as the tournament
    error of the same code."""

    code: ClassVar[str] = "invalid_entrant"


class CorrectedEntrantUnknown(CorrectionRefused):
    code = "entrant_not_found"


class SeedsFixedAtStart(CorrectionRefused):
    code = "tournament_started"


class SeedTaken(CorrectionRefused):
    """Two active entrants would hold one seed; `entrants` are their ids, for the service to
    name them."""

    code = "duplicate_seed"
    entrants: tuple[int, ...] = ()


class CorrectionReasonMissing(CorrectionRefused):
    code = "reason_required"


def players_per_entrant(settings: TournamentSettings) -> int:
    """One player per seat of a side: 1, 2 or 3 at tables of 2, 4 or 6."""
    return settings.table_size // 2


def check_reason_given(reason: str) -> str:
    """The reason, trimmed; a correction without one is refused (the log must say why)."""
    trimmed = reason.strip()
    if not trimmed:
        raise CorrectionReasonMissing.because(
            gettext_noop("say why: the reason is recorded with the correction")
        )
    return trimmed


def check_entrant_is_registered(state: TournamentState, entrant: int) -> EntrantRecord:
    record = state.entrants.get(entrant)
    if record is None:
        raise CorrectedEntrantUnknown.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=entrant,
        )
    return record


def check_player_count(state: TournamentState, count: int) -> None:
    needed = players_per_entrant(state.settings)
    if count != needed:
        raise CorrectionRefused.because(
            gettext_noop(
                "an entrant at tables of %(size)s has %(needed)s player(s), not %(given)s"
            ),
            size=state.settings.table_size,
            needed=needed,
            given=count,
        )


def check_seed_is_valid(seed: int | None) -> None:
    if seed is not None and seed < 1:
        raise CorrectionRefused.because(gettext_noop("seeds start at 1"))


def seeds_in_force(state: TournamentState) -> dict[int, int | None]:
    """Each entrant's seed as readers see it: its position in a seeding order fixed before the
    start, else the seed it was given (at registration or by a reseed)."""
    position = {entrant: index for index, entrant in enumerate(state.seeding or (), start=1)}
    return {
        entrant: position.get(entrant, record.seed) for entrant, record in state.entrants.items()
    }


def check_seeds_are_distinct(state: TournamentState, seeds: Mapping[int, int | None]) -> None:
    """No two active entrants hold one seed (withdrawn entrants are not drawn: theirs is free).
    An entrant `seeds` has but the state has not is one about to be registered."""
    holders: dict[int, list[int]] = {}
    for entrant, seed in seeds.items():
        record = state.entrants.get(entrant)
        if seed is not None and (record is None or not record.withdrawn):
            holders.setdefault(seed, []).append(entrant)
    for seed, entrants in sorted(holders.items()):
        if len(entrants) > 1:
            refused = SeedTaken.because(
                gettext_noop("seed %(seed)s would be held by more than one entrant: %(entrants)s"),
                seed=seed,
                entrants=", ".join(f"#{entrant}" for entrant in entrants),
            )
            refused.entrants = tuple(entrants)
            raise refused


NEW_ENTRANT = -1
"""Stands for an entrant not registered yet, among the others' seeds."""


def check_seed_is_free(state: TournamentState, seed: int | None) -> None:
    """A new entrant's seed: valid, and held by no active entrant yet."""
    check_seed_is_valid(seed)
    if seed is not None:
        check_seeds_are_distinct(state, {**seeds_in_force(state), NEW_ENTRANT: seed})


def check_entrant_correction(
    state: TournamentState, *, entrant: int, reason: str, player_count: int | None
) -> str:
    """Whether `entrant` can be renamed or given these many players (any time: names are not
    facts of the draw); the trimmed reason."""
    trimmed = check_reason_given(reason)
    check_entrant_is_registered(state, entrant)
    if player_count is not None:
        check_player_count(state, player_count)
    return trimmed


def entrant_corrected(
    *, entrant: int, changed: Sequence[str], players: Sequence[int] | None, reason: str
) -> list[TournamentEvent]:
    """The event of a correction that changed `changed` (none: nothing to record)."""
    unknown = set(changed) - set(CORRECTED_FIELDS)
    if unknown:
        raise ValueError(f"only {CORRECTED_FIELDS} are corrected, not {sorted(unknown)}")
    if not changed:
        return []
    payload: dict[str, Any] = {
        "entrant": entrant,
        "changed": [name for name in CORRECTED_FIELDS if name in changed],
    }
    if "players" in changed:
        if players is None:
            raise ValueError("a correction of the players records their ids")
        payload["players"] = list(players)
    payload["reason"] = reason
    return [TournamentEvent(ENTRANT_CORRECTED, payload)]


def decide_reseed(
    state: TournamentState, *, seeds: Mapping[int, int | None], reason: str
) -> list[TournamentEvent]:
    """Change seeds before the start, all at once (so two entrants can swap); nothing to record
    when every seed is already so."""
    trimmed = check_reason_given(reason)
    if state.started:
        raise SeedsFixedAtStart.because(
            gettext_noop("seeds can be changed only before the tournament starts")
        )
    if not seeds:
        raise CorrectionRefused.because(gettext_noop("give at least one entrant's seed"))
    for entrant, seed in seeds.items():
        check_entrant_is_registered(state, entrant)
        check_seed_is_valid(seed)
    in_force = seeds_in_force(state)
    changes = {entrant: seed for entrant, seed in seeds.items() if in_force[entrant] != seed}
    if not changes:
        return []
    check_seeds_are_distinct(state, {**in_force, **changes})
    return [
        TournamentEvent(
            ENTRANTS_RESEEDED,
            {
                "seeds": [[entrant, seed] for entrant, seed in sorted(changes.items())],
                "reason": trimmed,
            },
        )
    ]


def _corrected(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    # Names and players are rows (decision 0018): nothing the tournament folds changes.
    return state


def _reseeded(state: TournamentState, payload: dict[str, Any]) -> TournamentState:
    seeds = seeds_in_force(state) | {int(entrant): seed for entrant, seed in payload["seeds"]}
    entrants = {
        entrant: replace(record, seed=seeds.get(entrant, record.seed))
        for entrant, record in state.entrants.items()
    }
    return replace(state, entrants=entrants, seeding=None, seeding_method=None)


_HANDLERS.update({ENTRANT_CORRECTED: _corrected, ENTRANTS_RESEEDED: _reseeded})
