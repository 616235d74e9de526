"""Standings errors, each with a stable code (the API reports it) and a detail."""

from typing import ClassVar

from common.explained import Explained, gettext_noop


class StandingsError(Explained, ValueError):
    """An input the standings cannot be computed from."""

    code: ClassVar[str] = "standings_error"


class UnknownTiebreak(StandingsError):
    """An organizer asked for a tie-break this package does not define."""

    code = "unknown_tiebreak"

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        template = gettext_noop("unknown tie-break %(name)r; known tie-breaks: %(known)s")
        params = {"name": name, "known": ", ".join(known)}
        super().__init__(template % params, template=template, params=params)
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
