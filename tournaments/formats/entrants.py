"""Checks shared by every format: entrants are distinct integer ids, at least two of them."""

from collections.abc import Iterable

from common.explained import gettext_noop
from tournaments.formats.errors import (
    DuplicateEntrant,
    InvalidEntrant,
    TooFewEntrants,
)


def check_entrants(entrants: Iterable[int], *, minimum: int = 2) -> tuple[int, ...]:
    """Return the entrants as a tuple, or raise the error the organizer should see."""
    field = tuple(entrants)
    for entrant in field:
        # bool is an int subclass; an id of True is always a caller's mistake.
        if not isinstance(entrant, int) or isinstance(entrant, bool):
            raise InvalidEntrant.because(
                gettext_noop("entrant ids are integers, got %(entrant)r"), entrant=entrant
            )
    if len(field) < minimum:
        raise TooFewEntrants.because(
            gettext_noop("this format needs at least %(minimum)s entrants, got %(given)s"),
            minimum=minimum,
            given=len(field),
        )
    seen: set[int] = set()
    for entrant in field:
        if entrant in seen:
            raise DuplicateEntrant.because(
                gettext_noop("entrant %(entrant)s is listed more than once"), entrant=entrant
            )
        seen.add(entrant)
    return field
