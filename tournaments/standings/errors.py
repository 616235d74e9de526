"""Standings errors, each with a stable code (the API reports it) and a detail."""

from typing import ClassVar


class StandingsError(ValueError):
    """An input the standings cannot be computed from."""

    code: ClassVar[str] = "standings_error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


class UnknownTiebreak(StandingsError):
    """An organizer asked for a tie-break this package does not define."""

    code = "unknown_tiebreak"

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown tie-break {name!r}; known tie-breaks: {', '.join(known)}")
        self.name = name


class DuplicateTiebreak(StandingsError):
    code = "duplicate_tiebreak"


class InvalidStandingsConfig(StandingsError):
    code = "invalid_standings_config"


class InvalidResult(StandingsError):
    code = "invalid_result"


class UnknownEntrant(StandingsError):
    code = "unknown_entrant"


class DuplicateEntrant(StandingsError):
    code = "duplicate_entrant"
