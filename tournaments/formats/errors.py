"""Format errors: each one an organizer can trigger, with a stable code and a human detail.

Errors that must never happen (a bracket that contradicts itself) are plain `AssertionError`s;
these classes are for input the caller should report back to the user.
"""

from collections.abc import Mapping
from typing import ClassVar, Self


def gettext_noop(message: str) -> str:
    """Mark a message template for translation (Django's makemessages extracts every call of a
    function of this name); this package is pure, so the API translates it later."""
    return message


class FormatError(ValueError):
    """An input a tournament format cannot be built or advanced from."""

    code: ClassVar[str] = "format_error"

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


class TooFewEntrants(FormatError):
    code = "too_few_entrants"


class DuplicateEntrant(FormatError):
    code = "duplicate_entrant"


class InvalidEntrant(FormatError):
    code = "invalid_entrant"


class InvalidFormatOption(FormatError):
    """A count or option outside its range (legs, groups, qualifiers, rounds)."""

    code = "invalid_format_option"


class UnknownSlot(FormatError):
    code = "unknown_slot"


class SlotNotPlayable(FormatError):
    """A result for a slot whose entrants are not both known, a bye, or an unneeded reset."""

    code = "slot_not_playable"


class WinnerNotInSlot(FormatError):
    code = "winner_not_in_slot"


class InvalidStandings(FormatError):
    code = "invalid_standings"


class SwissRoundOutOfRange(FormatError):
    code = "swiss_round_out_of_range"
