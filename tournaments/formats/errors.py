"""Format errors: each one an organizer can trigger, with a stable code and a human detail.

Errors that must never happen (a bracket that contradicts itself) are plain `AssertionError`s;
these classes are for input the caller should report back to the user.
"""

from typing import ClassVar

from common.explained import Explained


class FormatError(Explained, ValueError):
    """An input a tournament format cannot be built or advanced from."""

    code: ClassVar[str] = "format_error"


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


class NoDrawWithoutSameGroup(FormatError):
    """A strict rule keeps entrants of one group apart, and no draw of the round does
    (decision record 0057)."""

    code = "no_draw_without_same_group"
