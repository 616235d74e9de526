"""Reading lists of entrants to register at once, into `ImportedEntrant`s for
`registration.entrants_register`: a file of `name,players,seed[,group[,fixed_table]]` lines (a
header line optional, the players of a pair or trio separated by `;`, the seed and the fixed
table blank or a whole number from 1, the group a label or blank), and a pasted list of `Name` or
`Name; Player 1, Player 2` lines with an optional seed (`Name; 3`) and group in brackets
(`Name; [Circolo Aurora]`). Players left blank or out: a single named as the entrant (the
service decides)."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from common.exceptions import translated_detail
from common.parsing import ascii_int
from tournaments.errors import InvalidEntrant, InvalidName
from tournaments.services import names
from tournaments.services.registration import ImportedEntrant
from tournaments.stream.entrant_checks import check_group_label

PLAYER_SEPARATOR = ";"
CSV_COLUMNS = ("name", "players", "seed", "group", "fixed_table")
"""The last two are optional: the entrant's group (decision record 0057) and fixed table (0059),
each blank for none."""
MAX_SEED = 2**31 - 1
"""The largest seed the seed column holds."""
PASTED_FIELD_SEPARATOR = ";"
PASTED_PLAYER_SEPARATOR = ","
GROUP_OPENS, GROUP_CLOSES = "[", "]"
"""A pasted line's group, as a field of its own: `[Circolo Aurora]`."""


def split_players(text: str) -> tuple[list[str], str]:
    players = [name.strip() for name in text.split(PLAYER_SEPARATOR)]
    if not all(players):
        return players, _("players are names separated by '%(separator)s'; none may be empty") % {
            "separator": PLAYER_SEPARATOR
        }
    return players, ""


def parse_entrant_lines(text: str) -> tuple[list[ImportedEntrant], list[str]]:
    """The entrants of a `name,players,seed` file and an error per bad line (with its number).

    A first line naming the columns is skipped; blank lines are ignored; the seed may be blank.
    Names given twice and seeds held twice are for the service to say, as for a pasted list.
    """
    lines: list[ImportedEntrant] = []
    errors: list[str] = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            cells = [cell.strip() for cell in row]
            number = reader.line_num
            if not any(cells):
                continue
            if number == 1 and tuple(cell.lower() for cell in cells) in (
                CSV_COLUMNS,
                CSV_COLUMNS[:4],
                CSV_COLUMNS[:3],
                CSV_COLUMNS[:2],
            ):
                continue
            entrant, problem = parse_entrant_line(number, cells)
            if entrant is None:
                errors.append(
                    _("line %(line)s: %(refusal)s") % {"line": number, "refusal": problem}
                )
                continue
            lines.append(entrant)
    except csv.Error as exc:
        errors.append(
            _("line %(line)s: not readable as CSV (%(error)s)")
            % {"line": reader.line_num, "error": exc}
        )
    if not lines and not errors:
        errors.append(_("the file has no entrants"))
    return lines, errors


def parse_entrant_line(number: int, cells: list[str]) -> tuple[ImportedEntrant | None, str]:
    if len(cells) not in (2, 3, 4, 5):
        return None, _("expected the columns %(columns)s, found %(count)s column(s)") % {
            "columns": ",".join(CSV_COLUMNS),  # the last two are optional
            "count": len(cells),
        }
    name, players_text, seed_text, group, table_text = (*cells, "", "", "")[:5]
    if not name:
        return None, _("the name is empty")
    players: list[str] | None = None
    if players_text:
        players, problem = split_players(players_text)
        if problem:
            return None, problem
    seed, problem = parse_seed(seed_text)
    if problem:
        return None, problem
    fixed_table = None
    if table_text:
        # Which tables the venue has is for the service to say (`invalid_fixed_table`).
        fixed_table = ascii_int(table_text, minimum=1, maximum=MAX_SEED)
        if fixed_table is None:
            return None, _("the fixed table is a whole number from 1, not %(given)s") % {
                "given": repr(table_text[:40])
            }
    problem = names_problem(name, players, group)
    if problem:
        return None, problem
    return ImportedEntrant(number, name, players, seed, group or None, fixed_table=fixed_table), ""


def names_problem(name: str, players: list[str] | None, group: str | None = None) -> str:
    """Why the tables cannot hold one of the names or the group (decision records 0041,
    0057), or ""."""
    try:
        for given in (name, *(players or ())):
            names.check_name_given(given)
        check_group_label(group)
    except (InvalidEntrant, InvalidName) as refused:
        return translated_detail(refused)
    return ""


def parse_seed(text: str) -> tuple[int | None, str]:
    """A seed: blank (none) or a whole number from 1 (ASCII digits, up to MAX_SEED)."""
    if not text:
        return None, ""
    seed = ascii_int(text, minimum=1, maximum=MAX_SEED)
    if seed is None:
        return None, _("the seed is a whole number from 1, not %(given)s") % {
            "given": repr(text[:40])
        }
    return seed, ""


def parse_pasted_lines(text: str) -> tuple[list[ImportedEntrant], list[str]]:
    """The entrants of a pasted list, one per line, and an error per bad line (with its number).

    A line is `Name`, `Name; Player 1, Player 2` or either with a seed as a field of its own
    (`Name; 3`, `Name; Player 1, Player 2; 3`): a field of digits only is the seed. Blank lines
    are ignored. Names given twice and seeds held twice are for the service to say.
    """
    lines: list[ImportedEntrant] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        entrant, problem = parse_pasted_line(number, line)
        if entrant is None:
            errors.append(_("line %(line)s: %(refusal)s") % {"line": number, "refusal": problem})
        else:
            lines.append(entrant)
    if not lines and not errors:
        errors.append(_("the list has no entrants"))
    return lines, errors


def parse_pasted_line(number: int, line: str) -> tuple[ImportedEntrant | None, str]:
    name, *fields = (field.strip() for field in line.split(PASTED_FIELD_SEPARATOR))
    if not name:
        return None, _("the name is empty")
    players: list[str] | None = None
    seed: int | None = None
    group: str | None = None
    for field in filter(None, fields):
        if field.startswith(GROUP_OPENS) and field.endswith(GROUP_CLOSES):
            if group is not None:
                return None, _("more than one group")
            group, problem = field[1:-1].strip() or None, ""
        elif field.isascii() and field.isdigit():
            if seed is not None:
                return None, _("more than one seed")
            seed, problem = parse_seed(field)
        elif players is not None:
            return None, _("the players once, after the name: Name; Player 1, Player 2; seed")
        else:
            players = [player.strip() for player in field.split(PASTED_PLAYER_SEPARATOR)]
            problem = "" if all(players) else _("players are names separated by ','; none is empty")
        if problem:
            return None, problem
    problem = names_problem(name, players, group)
    if problem:
        return None, problem
    return ImportedEntrant(number, name, players, seed, group), ""
