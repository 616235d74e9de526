"""The tournament's events: one frozen dataclass per fact the tournament records.

Events carry ids, never names (decision 0018). They meet the event store as a type string and
a JSON payload only through `encode` and `decode` (the payloads as they were always stored);
everything else reads their typed fields.

`decode` reads a payload at its event's current schema version (`schema_version`, 1 unless
the class says otherwise): the store's upcasters (`tournaments.stream.upcasters`) fill what
older payloads lack, so a key every version-2 payload carries is read strictly. A key read with
a default here is one the current schema writes only when set (a late entry, a third side, a
result's decider...), never a key older payloads lack (decision record 0063).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, get_args

from common.events import EventCodec
from tournaments.state import Registration, TournamentSettings
from tournaments.stream.fixture_events import (
    FixtureCreated,
    FixtureReset,
    LevelMatchDecided,
    MatchCalled,
    MatchScheduled,
    ResultRecorded,
    SwissRoundPaired,
)

TOURNAMENT_CREATED = "TournamentCreated"
ENTRANT_REGISTERED = "EntrantRegistered"
ENTRANT_CHECKED_IN = "EntrantCheckedIn"
ENTRANT_WITHDREW = "EntrantWithdrew"
ENTRANTS_SEEDED = "EntrantsSeeded"
TOURNAMENT_STARTED = "TournamentStarted"
TOURNAMENT_FINISHED = "TournamentFinished"
CHECK_IN_OPENED = "CheckInOpened"
CHECK_IN_CLOSED = "CheckInClosed"
ENTRANT_CORRECTED = "EntrantCorrected"
ENTRANTS_RESEEDED = "EntrantsReseeded"
GROUP_PLACES_DECIDED = "GroupPlacesDecided"
TABLES_CHANGED = "TablesChanged"
REGISTRATION_CHANGED = "RegistrationChanged"
ENTRANT_APPLIED = "EntrantApplied"
APPLICATION_APPROVED = "ApplicationApproved"
APPLICATION_DECLINED = "ApplicationDeclined"
APPLICATION_WAITLISTED = "ApplicationWaitlisted"
APPLICATION_PROMOTED = "ApplicationPromoted"
WAITING_LIST_REORDERED = "WaitingListReordered"
BYE_REQUESTED = "ByeRequested"
BYE_CANCELLED = "ByeCancelled"
ENTRANT_PAUSED = "EntrantPaused"
ENTRANT_RETURNED = "EntrantReturned"
RESULTS_REVEALED = "ResultsRevealed"


@dataclass(frozen=True)
class TournamentCreated:
    type: ClassVar[str] = TOURNAMENT_CREATED
    schema_version: ClassVar[int] = 2
    name: str
    settings: TournamentSettings
    club: int | None = None
    public: bool = True

    def to_payload(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "settings": self.settings.to_dict(),
            "club": self.club,
            "public": self.public,
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> TournamentCreated:
        return cls(
            name=payload["name"],
            settings=TournamentSettings.from_dict(payload["settings"]),
            club=payload["club"],
            public=payload["public"],
        )


@dataclass(frozen=True)
class EntrantRegistered:
    type: ClassVar[str] = ENTRANT_REGISTERED
    schema_version: ClassVar[int] = 2
    entrant: int
    seed: int | None = None
    late: bool = False
    """Recorded only when true (by earlier versions)."""
    players: tuple[int, ...] = ()
    """The player ids in seat order (the ratings read them, decision record 0036); empty in
    the events recorded before, whose players are in the name rows only."""
    application: int | None = None
    """The player's application it entered by (decision record 0053); None: the organizer
    registered it."""
    fixed_table: int | None = None
    """The table it always plays at (decision record 0059); written only when set."""
    group: str | None = None
    """Its group label (decision record 0057); recorded only when set."""
    from_round: int | None = None
    """Registered after the start of a Swiss (decision record 0058, with `late`): the first
    round it is drawn in."""
    missed: str | None = None
    """What it scores for each round before `from_round`: `zero` or `bye`."""

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"entrant": self.entrant, "seed": self.seed}
        if self.late:
            payload["late"] = True
        if self.players:
            payload["players"] = list(self.players)
        if self.application is not None:
            payload["application"] = self.application
        if self.fixed_table is not None:
            payload["fixed_table"] = self.fixed_table
        if self.group is not None:
            payload["group"] = self.group
        if self.from_round is not None:
            payload["from_round"] = self.from_round
            payload["missed"] = self.missed
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantRegistered:
        return cls(
            payload["entrant"],
            payload["seed"],
            payload.get("late", False),
            tuple(payload.get("players", ())),
            payload.get("application"),
            payload.get("fixed_table"),
            payload.get("group"),
            payload.get("from_round"),
            payload.get("missed"),
        )


@dataclass(frozen=True)
class EntrantCheckedIn:
    type: ClassVar[str] = ENTRANT_CHECKED_IN
    entrant: int

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantCheckedIn:
        return cls(payload["entrant"])


@dataclass(frozen=True)
class EntrantWithdrew:
    type: ClassVar[str] = ENTRANT_WITHDREW
    schema_version: ClassVar[int] = 2
    entrant: int
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantWithdrew:
        return cls(payload["entrant"], payload["reason"])


@dataclass(frozen=True)
class EntrantsSeeded:
    type: ClassVar[str] = ENTRANTS_SEEDED
    schema_version: ClassVar[int] = 2
    order: tuple[int, ...]
    method: str
    random_seed: int | None = None

    def to_payload(self) -> dict[str, Any]:
        return {"order": list(self.order), "method": self.method, "random_seed": self.random_seed}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantsSeeded:
        return cls(tuple(payload["order"]), payload["method"], payload["random_seed"])


@dataclass(frozen=True)
class TournamentStarted:
    type: ClassVar[str] = TOURNAMENT_STARTED
    order: tuple[int, ...]

    def to_payload(self) -> dict[str, Any]:
        return {"order": list(self.order)}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> TournamentStarted:
        return cls(tuple(payload["order"]))


@dataclass(frozen=True)
class TournamentFinished:
    type: ClassVar[str] = TOURNAMENT_FINISHED

    def to_payload(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> TournamentFinished:  # noqa: ARG003 - every event is read from a payload
        return cls()


@dataclass(frozen=True)
class CheckInOpened:
    type: ClassVar[str] = CHECK_IN_OPENED
    opened_at: str
    closes_at: str | None

    def to_payload(self) -> dict[str, Any]:
        return {"opened_at": self.opened_at, "closes_at": self.closes_at}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> CheckInOpened:
        return cls(payload["opened_at"], payload["closes_at"])


@dataclass(frozen=True)
class CheckInClosed:
    type: ClassVar[str] = CHECK_IN_CLOSED
    closed_at: str

    def to_payload(self) -> dict[str, Any]:
        return {"closed_at": self.closed_at}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> CheckInClosed:
        return cls(payload["closed_at"])


@dataclass(frozen=True)
class EntrantCorrected:
    """An entrant's name and/or players corrected in the name rows: which fields changed and,
    when the players changed, their ids in seat order (a renamed player keeps their id; a
    replaced one gets a new id)."""

    type: ClassVar[str] = ENTRANT_CORRECTED
    schema_version: ClassVar[int] = 2
    entrant: int
    changed: tuple[str, ...]
    reason: str
    players: tuple[int, ...] | None = None
    fixed_table: int | None = None
    """The new fixed table (None: none) when `changed` names `fixed_table` (decision record
    0059); written only then."""
    group: str | None = None
    """When `changed` holds `group`: the new group label (None: no group), before the start
    only (decision record 0057)."""

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"entrant": self.entrant, "changed": list(self.changed)}
        if self.players is not None:
            payload["players"] = list(self.players)
        if "fixed_table" in self.changed:
            payload["fixed_table"] = self.fixed_table
        if "group" in self.changed:
            payload["group"] = self.group
        payload["reason"] = self.reason
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantCorrected:
        players = payload.get("players")
        return cls(
            entrant=payload["entrant"],
            changed=tuple(payload["changed"]),
            reason=payload["reason"],
            players=None if players is None else tuple(players),
            fixed_table=payload.get("fixed_table"),
            group=payload.get("group"),
        )


@dataclass(frozen=True)
class EntrantsReseeded:
    """The seeds that changed (None: no seed). A seeding order fixed earlier (EntrantsSeeded)
    gives way to the seeds, its positions kept as seeds."""

    type: ClassVar[str] = ENTRANTS_RESEEDED
    schema_version: ClassVar[int] = 2
    seeds: tuple[tuple[int, int | None], ...]
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {"seeds": [[entrant, seed] for entrant, seed in self.seeds], "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantsReseeded:
        seeds = tuple((int(entrant), seed) for entrant, seed in payload["seeds"])
        return cls(seeds, payload["reason"])


@dataclass(frozen=True)
class GroupPlacesDecided:
    """The organizer ordered the entrants of a group tied at its qualification cut (`order`:
    entrant ids, best first), under the organizer's rule (decision 0029, amended)."""

    type: ClassVar[str] = GROUP_PLACES_DECIDED
    schema_version: ClassVar[int] = 2
    group: str
    order: tuple[int, ...]
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {"group": self.group, "order": list(self.order), "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> GroupPlacesDecided:
        return cls(payload["group"], tuple(payload["order"]), payload["reason"])


@dataclass(frozen=True)
class TablesChanged:
    """The venue's tables became `tables` (None: as many as the entrants need, until the
    start), set `by` the organizer (`organizer`) or counted at the start of a tournament
    created by need (`first_round`: the first round's need, decision record 0049)."""

    type: ClassVar[str] = TABLES_CHANGED
    schema_version: ClassVar[int] = 2
    tables: int | None
    by: str = "organizer"

    def to_payload(self) -> dict[str, Any]:
        return {"tables": self.tables, "by": self.by}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> TablesChanged:
        return cls(payload["tables"], payload["by"])


@dataclass(frozen=True)
class RegistrationChanged:
    """The sign-up settings became `registration` (decision record 0053)."""

    type: ClassVar[str] = REGISTRATION_CHANGED
    registration: Registration

    def to_payload(self) -> dict[str, Any]:
        return {"registration": self.registration.to_dict()}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> RegistrationChanged:
        return cls(Registration.from_dict(payload["registration"]))


@dataclass(frozen=True)
class EntrantApplied:
    """A player applied to play, bringing `players` players: the names and the contact are in
    the application's row only (decision record 0018)."""

    type: ClassVar[str] = ENTRANT_APPLIED
    application: int
    players: int

    def to_payload(self) -> dict[str, Any]:
        return {"application": self.application, "players": self.players}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantApplied:
        return cls(payload["application"], payload["players"])


@dataclass(frozen=True)
class ApplicationApproved:
    type: ClassVar[str] = APPLICATION_APPROVED
    application: int

    def to_payload(self) -> dict[str, Any]:
        return {"application": self.application}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ApplicationApproved:
        return cls(payload["application"])


@dataclass(frozen=True)
class ApplicationDeclined:
    type: ClassVar[str] = APPLICATION_DECLINED
    schema_version: ClassVar[int] = 2
    application: int
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"application": self.application, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ApplicationDeclined:
        return cls(payload["application"], payload["reason"])


@dataclass(frozen=True)
class ApplicationWaitlisted:
    """The application joined the end of the waiting list."""

    type: ClassVar[str] = APPLICATION_WAITLISTED
    application: int

    def to_payload(self) -> dict[str, Any]:
        return {"application": self.application}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ApplicationWaitlisted:
        return cls(payload["application"])


@dataclass(frozen=True)
class ApplicationPromoted:
    """The application left the waiting list to enter (an `EntrantRegistered` follows), `by`
    a withdrawal (`withdrawal`) or the organizer (`organizer`)."""

    type: ClassVar[str] = APPLICATION_PROMOTED
    schema_version: ClassVar[int] = 2
    application: int
    by: str = "organizer"

    def to_payload(self) -> dict[str, Any]:
        return {"application": self.application, "by": self.by}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ApplicationPromoted:
        return cls(payload["application"], payload["by"])


@dataclass(frozen=True)
class WaitingListReordered:
    type: ClassVar[str] = WAITING_LIST_REORDERED
    order: tuple[int, ...]

    def to_payload(self) -> dict[str, Any]:
        return {"order": list(self.order)}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> WaitingListReordered:
        return cls(tuple(payload["order"]))


@dataclass(frozen=True)
class ByeRequested:
    """The entrant sits out Swiss round `round`, scored as a requested bye (decision 0058);
    `by`: `organizer` or `player`."""

    type: ClassVar[str] = BYE_REQUESTED
    schema_version: ClassVar[int] = 2
    entrant: int
    round: int
    by: str = "organizer"

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "round": self.round, "by": self.by}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ByeRequested:
        return cls(payload["entrant"], payload["round"], payload["by"])


@dataclass(frozen=True)
class ByeCancelled:
    type: ClassVar[str] = BYE_CANCELLED
    schema_version: ClassVar[int] = 2
    entrant: int
    round: int
    by: str = "organizer"

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "round": self.round, "by": self.by}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ByeCancelled:
        return cls(payload["entrant"], payload["round"], payload["by"])


@dataclass(frozen=True)
class EntrantPaused:
    """The entrant is absent: left out of the Swiss draws until it returns (decision 0058)."""

    type: ClassVar[str] = ENTRANT_PAUSED
    schema_version: ClassVar[int] = 2
    entrant: int
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantPaused:
        return cls(payload["entrant"], payload["reason"])


@dataclass(frozen=True)
class EntrantReturned:
    type: ClassVar[str] = ENTRANT_RETURNED
    entrant: int

    def to_payload(self) -> dict[str, Any]:
        return {"entrant": self.entrant}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> EntrantReturned:
        return cls(payload["entrant"])


@dataclass(frozen=True)
class ResultsRevealed:
    """The organizer revealed the silent final rounds' results and the standings after them
    (decision record 0060): from now on everybody who reads the tournament reads them."""

    type: ClassVar[str] = RESULTS_REVEALED

    def to_payload(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ResultsRevealed:  # noqa: ARG003 - every event is read from a payload
        return cls()


TournamentEvent: TypeAlias = (
    TournamentCreated
    | EntrantRegistered
    | EntrantCheckedIn
    | EntrantWithdrew
    | EntrantsSeeded
    | TournamentStarted
    | SwissRoundPaired
    | FixtureCreated
    | MatchScheduled
    | ResultRecorded
    | FixtureReset
    | TournamentFinished
    | MatchCalled
    | CheckInOpened
    | CheckInClosed
    | EntrantCorrected
    | EntrantsReseeded
    | LevelMatchDecided
    | GroupPlacesDecided
    | TablesChanged
    | RegistrationChanged
    | EntrantApplied
    | ApplicationApproved
    | ApplicationDeclined
    | ApplicationWaitlisted
    | ApplicationPromoted
    | WaitingListReordered
    | ByeRequested
    | ByeCancelled
    | EntrantPaused
    | EntrantReturned
    | ResultsRevealed
)

EntrantEvent: TypeAlias = (
    EntrantRegistered
    | EntrantCheckedIn
    | CheckInOpened
    | CheckInClosed
    | EntrantWithdrew
    | EntrantsSeeded
    | EntrantCorrected
    | EntrantsReseeded
)
"""The events about the entrants: their entry, check-in, withdrawal, corrections and seeds."""
ByeEvent: TypeAlias = ByeRequested | ByeCancelled | EntrantPaused | EntrantReturned
"""The events by which an entrant sits rounds out and comes back."""
SignUpEvent: TypeAlias = (
    RegistrationChanged
    | EntrantApplied
    | ApplicationApproved
    | ApplicationDeclined
    | ApplicationWaitlisted
    | ApplicationPromoted
    | WaitingListReordered
)
"""The events of the sign-up: the applications and the waiting list."""
CourseEvent: TypeAlias = (
    TournamentStarted | TournamentFinished | TablesChanged | GroupPlacesDecided | ResultsRevealed
)
"""The events of the tournament's course: its start and end, its tables, the places decided in
its groups, the reveal of its silent rounds."""

TOURNAMENT_EVENTS: EventCodec[TournamentEvent] = EventCodec("tournament", get_args(TournamentEvent))
"""How tournament events meet the store."""
EVENT_CLASSES = TOURNAMENT_EVENTS.classes
"""Every event class by its stored type string."""
encode = TOURNAMENT_EVENTS.encode
decode = TOURNAMENT_EVENTS.decode
tournament_event = TOURNAMENT_EVENTS.decode_recorded
"""The typed event of a tournament stream's record, as the store gives it back."""
schema_version_of = TOURNAMENT_EVENTS.schema_version_of
