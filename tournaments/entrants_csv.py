"""Reading a file of entrants to import: `name,players,seed` lines (a header line optional),
the players of a pair or trio separated by `;`, the seed blank or a whole number from 1."""

from __future__ import annotations

import csv
import io

from common.parsing import ascii_int
from tournaments import names
from tournaments.errors import InvalidEntrant, InvalidName
from tournaments.services.registration import ImportedEntrant

PLAYER_SEPARATOR = ";"
CSV_COLUMNS = ("name", "players", "seed")
MAX_SEED = 2**31 - 1
"""The largest seed the seed column holds."""


def split_players(text: str) -> tuple[list[str], str]:
    players = [name.strip() for name in text.split(PLAYER_SEPARATOR)]
    if not all(players):
        return players, f"players are names separated by '{PLAYER_SEPARATOR}'; none may be empty"
    return players, ""


def parse_entrant_lines(text: str) -> tuple[list[ImportedEntrant], list[str]]:
    """The entrants of a `name,players,seed` file and an error per bad line (with its number).

    A first line naming the columns is skipped; blank lines are ignored; the seed may be blank.
    """
    lines: list[ImportedEntrant] = []
    errors: list[str] = []
    first_line_of: dict[tuple[str, object], int] = {}
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            cells = [cell.strip() for cell in row]
            number = reader.line_num
            if not any(cells):
                continue
            if number == 1 and tuple(cell.lower() for cell in cells) in (
                CSV_COLUMNS,
                CSV_COLUMNS[:2],
            ):
                continue
            entrant, problem = parse_entrant_line(number, cells)
            if entrant is None:
                errors.append(f"line {number}: {problem}")
                continue
            for kind, value in (("name", entrant.name), ("seed", entrant.seed)):
                if value is None:
                    continue
                first = first_line_of.setdefault((kind, value), number)
                if first != number:
                    errors.append(f"line {number}: the {kind} {value} is also on line {first}")
            lines.append(entrant)
    except csv.Error as exc:
        errors.append(f"line {reader.line_num}: not readable as CSV ({exc})")
    if not lines and not errors:
        errors.append("the file has no entrants")
    return lines, errors


def parse_entrant_line(number: int, cells: list[str]) -> tuple[ImportedEntrant | None, str]:
    if len(cells) not in (2, 3):
        return None, f"expected the columns {','.join(CSV_COLUMNS)}, found {len(cells)} column(s)"
    name, players_text, seed_text = (*cells, "")[:3]
    if not name:
        return None, "the name is empty"
    players, problem = split_players(players_text)
    if problem:
        return None, problem
    for given in (name, *players):
        try:
            names.check_name_given(given)
        except (InvalidEntrant, InvalidName) as refused:
            return None, refused.detail
    seed = None
    if seed_text:
        seed = ascii_int(seed_text, minimum=1, maximum=MAX_SEED)
        if seed is None:
            return None, f"the seed is a whole number from 1, not {seed_text[:40]!r}"
    return ImportedEntrant(number, name, players, seed), ""
