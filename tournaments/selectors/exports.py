"""The tournament as files for other programs: the standings as CSV (a spreadsheet) and the
schedule as iCalendar (a calendar). Reads only, from the same selectors the API answers with, so
a file says what the JSON says (docs/decisions/0030-exports-and-archives.md)."""

from __future__ import annotations

import csv
import io
import unicodedata
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.utils.translation import gettext
from icalendar import Calendar, Event

from common.text import LINE_BREAKING_CATEGORIES, spreadsheet_cell
from tournaments.models import Tournament
from tournaments.selectors import fixtures as fixtures_selectors
from tournaments.selectors import projected, public

STANDING_COLUMNS = (
    "rank",
    "entrant",
    "name",
    "players",
    "match_points",
    "played",
    "won",
    "tied",
    "lost",
    "rounds_won",
    "rounds_lost",
    "points_for",
    "points_against",
)
"""The CSV's first columns, named as the JSON standings' fields; the tie-breaks follow, each
under its configured name."""
PLACING_COLUMNS = (
    "rank",
    "entrant",
    "name",
    "players",
    "match_points",
    "played",
    "byes",
    "first",
    "second",
    "third",
    "rounds_won",
    "points_for",
)
"""The same at tables of three: the places (`placings` in the JSON) one column each."""

PLAYERS_SEPARATOR = " / "

PRODUCT_ID = "-//briscola-tournaments//schedule//IT"


def standings_csv(*, tournament_id: UUID, as_public: bool = False) -> str:
    """The overall standings, best first: a header row and one row per entrant (only the header
    before the start). The players are in seat order, separated by ` / `. `as_public`: as the
    public reads them while the last rounds are silent (decision record 0060)."""
    rows = projected.tournament_standings(tournament_id=tournament_id, public=as_public)
    players = public.entrant_player_names(tournament_id=tournament_id)
    tiebreaks: list[str] = []
    for row in rows:
        tiebreaks += [name for name in row["tiebreaks"] if name not in tiebreaks]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    columns: tuple[str, ...] = STANDING_COLUMNS
    if rows and "placings" in rows[0]:  # tables of three (decision record 0031)
        columns = PLACING_COLUMNS
    writer.writerow([spreadsheet_cell(name) for name in (*columns, *tiebreaks)])
    for row in rows:
        named = PLAYERS_SEPARATOR.join(players.get(row["entrant"], []))
        values: dict[str, Any] = row | {"players": named}
        if "placings" in row:
            values |= dict(zip(("first", "second", "third"), row["placings"], strict=True))
        cells = [values[column] for column in columns] + [
            blank_if_none(row["tiebreaks"].get(name)) for name in tiebreaks
        ]
        # A name such as `=HYPERLINK(...)` is shown as written, never run as a formula.
        writer.writerow([spreadsheet_cell(cell) for cell in cells])
    return out.getvalue()


def blank_if_none(value: object) -> object:
    return "" if value is None else value


def calendar_text(text: str) -> str:
    """A text for a calendar property, which icalendar escapes: each line break of any kind (a
    lone carriage return too, which it would write as it is and so end the property) as a
    newline, written `\\n`, and any other control character as a space."""
    joined = "\n".join(text.splitlines())
    return "".join(
        " "
        if character != "\n" and unicodedata.category(character) in LINE_BREAKING_CATEGORIES
        else character
        for character in joined
    )


def schedule_ical(*, tournament_id: UUID) -> bytes:
    """One VEVENT per match with a start time (replaced matches left out): its table, its sides'
    names, its start and the tournament's `match_minutes`. The stamp is the tournament's last
    change, so the same tournament always gives the same file."""
    tournament = Tournament.objects.get(id=tournament_id)
    fixtures = fixtures_selectors.tournament_fixtures(tournament_id=tournament_id)
    minutes = int(tournament.settings.get("match_minutes", 30))
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", calendar_text(tournament.name))
    for fixture in fixtures:
        if fixture.scheduled_at is None:
            continue
        event = Event()
        event.add("uid", f"{fixture.match_id}@briscola-tournaments")
        event.add("dtstamp", tournament.updated_at)
        event.add("dtstart", fixture.scheduled_at)
        event.add("duration", timedelta(minutes=minutes))
        event.add(
            "summary",
            calendar_text(" \N{EN DASH} ".join(entrant.name for entrant in fixture.seated)),
        )
        if fixture.table is not None:
            event.add("location", gettext("Table %(table)s") % {"table": fixture.table})
        event.add(
            "description",
            calendar_text(
                gettext("%(tournament)s, stage %(stage)s, round %(round)s (%(key)s)")
                % {
                    "tournament": tournament.name,
                    "stage": fixture.stage,
                    "round": fixture.round,
                    "key": fixture.key,
                }
            ),
        )
        event.add("categories", [calendar_text(tournament.name)])
        event.add("x-briscola-match", str(fixture.match_id))
        event.add("x-briscola-status", fixture.status)
        calendar.add_component(event)
    written: bytes = calendar.to_ical()
    return written
