"""The bounds of a tournament's format options, checked once at creation for every caller (the
API, the admin's form, the services), so that no option a club could not mean reaches a stage
(decision record 0041: a Swiss of a billion rounds started).

The bounds are generous for any club evening or open tournament and far below what would make
a pairing, a schedule or a table of rows too big to build. Whether an option suits the entrants
registered (qualifiers per group, rounds of a small Swiss) is for the start to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.explained import gettext_noop
from tournaments.errors import InvalidFormatOption
from tournaments.formats.same_group import MODES, STRENGTHS
from tournaments.state import LATE_ENTRY_POINTS, TournamentSettings


@dataclass(frozen=True)
class Bound:
    least: int
    most: int


MAX_SWISS_ROUNDS = 30
MAX_GROUP_SIZE = 64
MAX_LEGS = 2
MAX_TABLES = 500
MAX_MINUTES = 24 * 60
MAX_ROUNDS = 100

FORMAT_OPTION_BOUNDS = {
    "swiss_rounds": Bound(1, MAX_SWISS_ROUNDS),
    "group_size": Bound(2, MAX_GROUP_SIZE),
    "advance_per_group": Bound(1, MAX_GROUP_SIZE),
    "legs": Bound(1, MAX_LEGS),
    "tables": Bound(1, MAX_TABLES),
    "match_minutes": Bound(1, MAX_MINUTES),
    "no_show_minutes": Bound(0, MAX_MINUTES),
    "rounds": Bound(1, MAX_ROUNDS),
    "late_entry_until_round": Bound(2, MAX_SWISS_ROUNDS),
    "max_requested_byes": Bound(0, MAX_SWISS_ROUNDS),
    "requested_bye_points": Bound(0, 100),
}
"""Each whole-number option and its bounds (an option left as None is not bounded: its
default applies). Rounds: a match's rounds when scoring by points. Legs: once, or home and
away. Tables: the venue's. Minutes: at most a day."""


def check_format_options(settings: TournamentSettings) -> None:
    """Refuse with `invalid_format_option` the first option out of its bounds."""
    check_same_group_options(settings)
    if settings.late_entry_points not in LATE_ENTRY_POINTS:
        raise InvalidFormatOption.because(
            gettext_noop("late_entry_points is one of %(choices)s"),
            choices=", ".join(LATE_ENTRY_POINTS),
        )
    for option, bound in FORMAT_OPTION_BOUNDS.items():
        value = getattr(settings, option)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidFormatOption.because(
                gettext_noop("%(option)s is a whole number"), option=option
            )
        if not bound.least <= value <= bound.most:
            # Without the value: a number of thousands of digits cannot even be written.
            raise InvalidFormatOption.because(
                gettext_noop("%(option)s is a whole number from %(least)s to %(most)s"),
                option=option,
                least=bound.least,
                most=bound.most,
            )
    check_acceleration(settings)
    check_silent_final_rounds(settings)


def check_acceleration(settings: TournamentSettings) -> None:
    """`accelerated` is a yes or no, for a Swiss only (decision record 0059)."""
    if not isinstance(settings.accelerated, bool):
        raise InvalidFormatOption.because(
            gettext_noop("%(option)s is true or false"), option="accelerated"
        )
    if settings.accelerated and settings.format != "swiss":
        raise InvalidFormatOption.because(
            gettext_noop("%(option)s is for a Swiss tournament only"), option="accelerated"
        )


AVOID_SAME_GROUP = (None, *MODES)


def check_same_group_options(settings: TournamentSettings) -> None:
    """Who must not meet (decision record 0057): `avoid_same_group` is null, `first_round` or
    `always`; `avoid_same_group_strength` is `strict` or `soft`."""
    if settings.avoid_same_group not in AVOID_SAME_GROUP:
        raise InvalidFormatOption.because(
            gettext_noop("avoid_same_group is null, 'first_round' or 'always'")
        )
    if settings.avoid_same_group_strength not in STRENGTHS:
        raise InvalidFormatOption.because(
            gettext_noop("avoid_same_group_strength is 'strict' or 'soft'")
        )


def check_silent_final_rounds(settings: TournamentSettings) -> None:
    """A Swiss's last rounds, 0 up to its rounds (decision record 0060); 0 for other formats.
    A Swiss whose rounds are left to the start is bounded by the most a Swiss may have: if it
    has fewer, every round is silent."""
    value = settings.silent_final_rounds
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidFormatOption.because(
            gettext_noop("%(option)s is a whole number"), option="silent_final_rounds"
        )
    if value and settings.format != "swiss":
        raise InvalidFormatOption.because(
            gettext_noop("silent final rounds are a Swiss's last rounds: 0 for a %(format)s"),
            format=settings.format,
        )
    most = settings.swiss_rounds or MAX_SWISS_ROUNDS
    if not 0 <= value <= most:
        raise InvalidFormatOption.because(
            gettext_noop("%(option)s is a whole number from %(least)s to %(most)s"),
            option="silent_final_rounds",
            least=0,
            most=most,
        )
