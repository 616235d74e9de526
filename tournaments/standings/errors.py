"""Standings errors, each with a stable code (the API reports it) and a detail."""

from collections.abc import Mapping
from typing import ClassVar, Self


def gettext_noop(message: str) -> str:
    """Mark a message template for translation (Django's makemessages extracts every call of a
    function of this name); this package is pure, so the API translates it later."""
    return message


class StandingsError(ValueError):
    """An input the standings cannot be computed from."""

    code: ClassVar[str] = "standings_error"

    def __init__(
        self,
        detail: str,
        *,
        template: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.template = template
        self.params: dict[str, object] = dict(params or {})

    @classmethod
    def because(cls, template: str, /, **params: object) -> Self:
        """The error explained by `template % params`: `detail` in English, and the API says it
        in the request's language (decision record 0022)."""
        return cls(template % params, template=template, params=params)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


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
