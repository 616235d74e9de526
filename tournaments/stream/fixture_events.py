"""The events of a tournament's fixtures: pairings, fixtures created and reset, tables and
calls, results and the organizer's decision of a level knockout match (`tournaments.stream.events`
holds the others and the codec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from tournaments.state import Result, SwissPairing

SWISS_ROUND_PAIRED = "SwissRoundPaired"
FIXTURE_CREATED = "FixtureCreated"
MATCH_SCHEDULED = "MatchScheduled"
RESULT_RECORDED = "ResultRecorded"
FIXTURE_RESET = "FixtureReset"
MATCH_CALLED = "MatchCalled"
LEVEL_MATCH_DECIDED = "LevelMatchDecided"


@dataclass(frozen=True)
class SwissRoundPaired:
    type: ClassVar[str] = SWISS_ROUND_PAIRED
    pairing: SwissPairing

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "round": self.pairing.number,
            "pairings": [[table_id, *entrants] for table_id, entrants in self.pairing.pairings],
            "bye": self.pairing.bye,
        }
        # Who sat the round out (decision record 0058), only when someone did.
        if self.pairing.requested:
            payload["requested"] = list(self.pairing.requested)
        if self.pairing.absent:
            payload["absent"] = list(self.pairing.absent)
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> SwissRoundPaired:
        pairings = tuple((p[0], tuple(p[1:])) for p in payload["pairings"])
        return cls(
            SwissPairing(
                number=payload["round"],
                pairings=pairings,
                bye=payload["bye"],
                requested=tuple(payload.get("requested", ())),
                absent=tuple(payload.get("absent", ())),
            )
        )


@dataclass(frozen=True)
class FixtureCreated:
    type: ClassVar[str] = FIXTURE_CREATED
    fixture: str
    match_id: str
    home: int
    away: int
    stage: str
    round: int
    third: int | None = None
    """At tables of three only (the payloads of two-sided fixtures have no `third`)."""

    @property
    def entrants(self) -> tuple[int, ...]:
        """In seat order (home, away and, at three, the third)."""
        return (self.home, self.away) if self.third is None else (self.home, self.away, self.third)

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "fixture": self.fixture,
            "match_id": self.match_id,
            "home": self.home,
            "away": self.away,
            "stage": self.stage,
            "round": self.round,
        }
        if self.third is not None:
            payload["third"] = self.third
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> FixtureCreated:
        return cls(
            fixture=payload["fixture"],
            match_id=payload["match_id"],
            home=payload["home"],
            away=payload["away"],
            stage=payload["stage"],
            round=payload["round"],
            third=payload.get("third"),
        )


@dataclass(frozen=True)
class MatchScheduled:
    type: ClassVar[str] = MATCH_SCHEDULED
    schema_version: ClassVar[int] = 2
    fixture: str
    table: int
    scheduled_at: str
    deadline: str | None = None
    """Set only by events recorded before matches were called (issue 11)."""

    def to_payload(self) -> dict[str, Any]:
        return {
            "fixture": self.fixture,
            "table": self.table,
            "scheduled_at": self.scheduled_at,
            "deadline": self.deadline,
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> MatchScheduled:
        return cls(
            payload["fixture"], payload["table"], payload["scheduled_at"], payload["deadline"]
        )


@dataclass(frozen=True)
class MatchCalled:
    type: ClassVar[str] = MATCH_CALLED
    schema_version: ClassVar[int] = 2
    fixture: str
    table: int | None
    called_at: str
    deadline: str | None
    by: str

    def to_payload(self) -> dict[str, Any]:
        return {
            "fixture": self.fixture,
            "table": self.table,
            "called_at": self.called_at,
            "deadline": self.deadline,
            "by": self.by,
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> MatchCalled:
        return cls(
            fixture=payload["fixture"],
            table=payload["table"],
            called_at=payload["called_at"],
            deadline=payload["deadline"],
            by=payload["by"],
        )


@dataclass(frozen=True)
class ResultRecorded:
    type: ClassVar[str] = RESULT_RECORDED
    fixture: str
    result: Result

    def to_payload(self) -> dict[str, Any]:
        return {"fixture": self.fixture, **self.result.to_dict()}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ResultRecorded:
        places = payload.get("places")
        result = Result(
            winner=payload["winner"],
            rounds=tuple(payload["rounds"]),
            points=tuple(payload["points"]),
            forfeit=payload["forfeit"],
            decided_by=payload.get("decided_by"),
            places=None if places is None else tuple(places),
            forfeited_by=payload.get("forfeited_by"),
        )
        return cls(payload["fixture"], result)


@dataclass(frozen=True)
class FixtureReset:
    type: ClassVar[str] = FIXTURE_RESET
    schema_version: ClassVar[int] = 2
    fixture: str
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"fixture": self.fixture, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> FixtureReset:
        return cls(payload["fixture"], payload["reason"])


@dataclass(frozen=True)
class LevelMatchDecided:
    """The organizer named the winner of a knockout match that ended level (decision 0029)."""

    type: ClassVar[str] = LEVEL_MATCH_DECIDED
    schema_version: ClassVar[int] = 2
    fixture: str
    winner: int
    reason: str

    def to_payload(self) -> dict[str, Any]:
        return {"fixture": self.fixture, "winner": self.winner, "reason": self.reason}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> LevelMatchDecided:
        return cls(payload["fixture"], payload["winner"], payload["reason"])


FixtureEvent: TypeAlias = (
    SwissRoundPaired
    | FixtureCreated
    | MatchScheduled
    | MatchCalled
    | ResultRecorded
    | FixtureReset
    | LevelMatchDecided
)
"""The events of the fixtures: pairings, fixtures created and reset, tables and calls, results
and the organizer's decisions."""
