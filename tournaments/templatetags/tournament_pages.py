"""Names on the public tournament pages, in the page's language: formats, statuses, stages and
the standings' columns with what each one means."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models import FixtureStatus, Format, TournamentStatus
from tournaments.pages.labels import decided_by_text, place_text
from tournaments.standings.placing_results import PlacingScoring

register = template.Library()

NOT_APPLICABLE = "\N{EN DASH}"
DEFAULT_PLACE_POINTS = PlacingScoring().places
DEFAULT_BYE_POINTS = PlacingScoring().bye

FORMATS: dict[str, Any] = {
    Format.SINGLE_ELIMINATION: _("Single elimination"),
    Format.DOUBLE_ELIMINATION: _("Double elimination"),
    Format.ROUND_ROBIN: _("Round robin"),
    Format.SWISS: _("Swiss"),
    Format.GROUPS_THEN_KNOCKOUT: _("Groups then knockout"),
}
TOURNAMENT_STATUSES: dict[str, Any] = {
    TournamentStatus.REGISTRATION: _("Registration open"),
    TournamentStatus.IN_PROGRESS: pgettext_lazy("tournament", "In progress"),
    TournamentStatus.FINISHED: pgettext_lazy("tournament", "Finished"),
}
MATCH_STATUSES: dict[str, Any] = {
    FixtureStatus.READY: pgettext_lazy("match", "Waiting to start"),
    FixtureStatus.IN_PROGRESS: pgettext_lazy("match", "Playing"),
    FixtureStatus.FINISHED: pgettext_lazy("match", "Finished"),
}
STAGES = {
    "main": _("Bracket"),
    "third_place": _("Third place"),
    "winners": _("Winners' bracket"),
    "losers": _("Losers' bracket"),
    "grand_final": _("Grand final"),
    "league": _("Round robin"),
    "swiss": _("Swiss rounds"),
}
OUTCOMES = {
    "won": pgettext_lazy("outcome", "Won"),
    "lost": pgettext_lazy("outcome", "Lost"),
    "tied": pgettext_lazy("outcome", "Tied"),
}

# (abbreviation, name, what it means) of the standings' columns and tie-breaks.
COLUMNS = {
    "played": (pgettext_lazy("column", "P"), _("Played"), _("Matches played")),
    "won": (pgettext_lazy("column", "W"), _("Won"), _("Matches won")),
    "tied": (pgettext_lazy("column", "T"), _("Tied"), _("Matches tied")),
    "lost": (pgettext_lazy("column", "L"), _("Lost"), _("Matches lost")),
    "match_points": (
        pgettext_lazy("column", "MP"),
        _("Match points"),
        _("Match points: 2 for a win or a bye, 1 for a tie, 0 for a loss"),
    ),
    "head_to_head": (
        pgettext_lazy("column", "H2H"),
        _("Head to head"),
        _("Head to head: match points in the matches between the entrants tied on points"),
    ),
    "round_wins_difference": (
        pgettext_lazy("column", "RD"),
        _("Round difference"),
        _("Round difference: rounds won minus rounds lost"),
    ),
    "card_points_difference": (
        pgettext_lazy("column", "CPD"),
        _("Card points difference"),
        _("Card points difference: card points taken minus card points conceded"),
    ),
    "buchholz": (
        pgettext_lazy("column", "Bu"),
        _("Buchholz"),
        _("Buchholz: the sum of the match points of every opponent met"),
    ),
    "median_buchholz": (
        pgettext_lazy("column", "MBu"),
        _("Median Buchholz"),
        _("Median Buchholz: Buchholz without the best and the worst opponent"),
    ),
    "sonneborn_berger": (
        pgettext_lazy("column", "SB"),
        _("Sonneborn-Berger"),
        _(
            "Sonneborn-Berger: the match points of the opponents beaten, plus half of those "
            "of the opponents tied with"
        ),
    ),
    "seed": (
        pgettext_lazy("column", "Seed"),
        _("Seed"),
        _("Seed: the lower seed ranks first"),
    ),
    # Tables of three (decision record 0031).
    "byes": (
        pgettext_lazy("column", "Bye"),
        _("Byes"),
        _("Byes: rounds sat out (a bye earns match points, like a first place by default)"),
    ),
    "first": (pgettext_lazy("column", "1st"), _("First places"), _("Tables finished first")),
    "second": (pgettext_lazy("column", "2nd"), _("Second places"), _("Tables finished second")),
    "third": (pgettext_lazy("column", "3rd"), _("Third places"), _("Tables finished third")),
    "placings": (
        pgettext_lazy("column", "Pl"),
        _("Placings"),
        _("Placings: most first places, then most second places"),
    ),
    "card_points_margin": (
        pgettext_lazy("column", "CPM"),
        _("Card points margin"),
        _("Card points margin: own card points minus the table's average, summed over tables"),
    ),
    "round_wins_margin": (
        pgettext_lazy("column", "RM"),
        _("Round margin"),
        _("Round margin: rounds won minus the table's average, summed over tables"),
    ),
    "opponents_score": (
        pgettext_lazy("column", "Opp"),
        _("Opponents' score"),
        _("Opponents' score: the average match points of the opponents met"),
    ),
}
PLACE_POINTS_HELP = _(
    "Match points per place at a table: %(first)s for first, %(second)s for second, %(third)s "
    "for third, %(bye)s for a bye (places shared, points shared)"
)
"""At tables of three, the match points column explains the tournament's own scale."""
AT_THREE = {
    "head_to_head": _(
        "Head to head: at the tables the tied entrants shared, how many of them each one "
        "finished above, minus below"
    ),
}


@register.filter
def format_label(value: str) -> Any:
    return FORMATS.get(value, value)


@register.filter
def tournament_status_label(value: str) -> Any:
    return TOURNAMENT_STATUSES.get(value, value)


@register.filter
def match_status_label(value: str) -> Any:
    return MATCH_STATUSES.get(value, value)


@register.filter
def stage_label(value: str) -> Any:
    if value in STAGES:
        return STAGES[value]
    if value == "knockout":
        return _("Knockout")
    return _("Group %(name)s") % {"name": value}


@register.filter
def decided_by_label(value: str | None) -> Any:
    return decided_by_text(value)


@register.filter
def outcome_label(value: str) -> Any:
    return OUTCOMES.get(value, value)


@register.filter
def column_abbr(name: str) -> Any:
    return COLUMNS.get(name, (name, name, name))[0]


@register.filter
def column_name(name: str) -> Any:
    return COLUMNS.get(name, (name, name, name))[1]


@register.filter
def column_help(name: str, tournament: Any = None) -> Any:
    """The column's explanation; at tables of three (`tournament` a Tournament, or its table
    size) the match points column gives the tournament's points per place."""
    table_size = getattr(tournament, "table_size", tournament)
    if table_size == 3 and name == "match_points":
        settings = getattr(tournament, "settings", None) or {}
        scoring = settings.get("placing_scoring") or {}
        first, second, third = scoring.get("places") or DEFAULT_PLACE_POINTS
        bye = scoring.get("bye", DEFAULT_BYE_POINTS)
        return PLACE_POINTS_HELP % {
            "first": first,
            "second": second,
            "third": third,
            "bye": bye,
        }
    if table_size == 3 and name in AT_THREE:
        return AT_THREE[name]
    return COLUMNS.get(name, (name, name, name))[2]


def shown_number(value: Any) -> Any:
    """A whole float without its ".0"; a fraction (a shared place's 1.5, 4/3) to two
    decimals at most, left a float so the template localizes it (1,5 in Italian)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


@register.filter
def tiebreak_value(row: dict[str, Any], name: str) -> Any:
    """A standings row's value of the tie-break `name`; a dash when it does not apply."""
    value = row.get("tiebreaks", {}).get(name)
    if value is None:
        return NOT_APPLICABLE
    if isinstance(value, list):  # a count-back: first places, second places, ...
        return "/".join(str(part) for part in value)
    return shown_number(value)


@register.filter
def item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key)


@register.filter
def item_at(sequence: list[Any] | None, index: int) -> Any:
    """The item at `index`; None past the end or when there is no sequence (no places yet)."""
    if not sequence:
        return None
    return sequence[index] if 0 <= index < len(sequence) else None


@register.filter
def place_label(place: int | None) -> Any:
    """A place at a table: 1st, 2nd, 3rd (1°, 2°, 3° in Italian)."""
    return place_text(place)
