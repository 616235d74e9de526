"""Printable sheets for the evening (issue 12 §3): a round's pairings by table, for the wall, and
a score sheet per match of the round, with its sides, the seats in playing order and a grid for
the round points. HTML with print CSS, turned into PDF by WeasyPrint
(docs/decisions/0030-exports-and-archives.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.errors import TournamentError
from tournaments.models import Fixture, FixtureStatus, Tournament
from tournaments.selectors import public
from tournaments.state import TournamentSettings

SPARE_ROWS = 2
"""Rows beyond the rounds a match can need, for tied rounds (60-60), which are played again."""


@dataclass(frozen=True)
class Seat:
    number: int
    """In playing order, from 1 (the API counts from 0)."""
    side: str
    player: str


def rounds_of(tournament: Tournament) -> list[tuple[str, int]]:
    """Every (stage, round) with live matches, in the order they began."""
    seen: dict[tuple[str, int], None] = {}
    fixtures = Fixture.objects.filter(tournament=tournament).exclude(status=FixtureStatus.RESET)
    for stage, number in fixtures.order_by("id").values_list("stage", "round"):
        seen.setdefault((stage, number), None)
    return list(seen)


def current_round(tournament: Tournament) -> tuple[str, int] | None:
    """The first round that still has a match to play; the last one once all are played."""
    rounds = rounds_of(tournament)
    open_rounds = set(
        Fixture.objects.filter(tournament=tournament)
        .exclude(status__in=[FixtureStatus.RESET, FixtureStatus.FINISHED])
        .values_list("stage", "round")
    )
    for found in rounds:
        if found in open_rounds:
            return found
    return rounds[-1] if rounds else None


def seats_of(sides: list[dict[str, Any]], table_size: int) -> list[Seat]:
    """The seats in playing order: partners sit opposite, so the sides take turns (two sides:
    seats 1, 3, 5 the first side's players in order, 2, 4, 6 the second's; three sides of one
    player each: seats 1, 2, 3)."""
    seats = []
    # At tables of three, a table of two (the field forces one) has two seats.
    for seat in range(len(sides) if table_size == 3 else table_size):
        side = sides[seat % len(sides)]
        players = side["players"]
        index = seat // len(sides)
        seats.append(
            Seat(
                number=seat + 1,
                side=side["name"],
                player=str(players[index]) if index < len(players) else "",
            )
        )
    return seats


def grid_rows(settings: TournamentSettings) -> int:
    """Rows for the round points: every round a match can need, and spare rows for ties."""
    if settings.scoring == "points" and settings.rounds:
        return settings.rounds + SPARE_ROWS
    return 2 * settings.best_of - 1 + SPARE_ROWS


def round_sheet(
    *, tournament_id: UUID, stage: str | None, round_number: int | None
) -> dict[str, Any]:
    """The round's matches by table (matches without a table last), and what both sheets show
    about the tournament. Without a stage and round: the current round."""
    tournament = Tournament.objects.get(id=tournament_id)
    if stage is None or round_number is None:
        found = current_round(tournament)
        stage, round_number = found if found is not None else ("", 0)
    settings = TournamentSettings.from_dict(tournament.settings)
    matches = [
        row
        for row in public.tournament_fixtures_named(tournament_id=tournament_id)
        if row["stage"] == stage and row["round"] == round_number
    ]
    matches.sort(key=lambda row: (row["table"] is None, row["table"] or 0))
    for match in matches:
        match["seats"] = seats_of(match["sides"], settings.table_size)
    return {
        "tournament": tournament,
        "stage": stage,
        "round": round_number,
        "rounds": rounds_of(tournament),
        "matches": matches,
        "settings": settings,
        "grid": range(1, grid_rows(settings) + 1),
        "printed_at": timezone.now(),
    }


def evening_round(
    *, tournament_id: UUID, round_number: int, stage: str | None = None
) -> dict[str, Any]:
    """Round `round_number` as the evening plays it, for its score sheets (decision record
    0049): of `stage` when given; otherwise of every stage where that round still has a match
    to play (the groups play their round side by side), or, once it is played everywhere, of
    every stage that has it. Its matches by table (matches without a table last), with what
    `round_sheet` says about the tournament; no match: `RoundNotFound`."""
    tournament = Tournament.objects.get(id=tournament_id)
    settings = TournamentSettings.from_dict(tournament.settings)
    numbered = [
        row
        for row in public.tournament_fixtures_named(tournament_id=tournament_id)
        if row["round"] == round_number and (stage is None or row["stage"] == stage)
    ]
    playing = {row["stage"] for row in numbered if row["status"] != FixtureStatus.FINISHED}
    matches = [row for row in numbered if not playing or row["stage"] in playing]
    if not matches:
        raise RoundNotFound.because(
            gettext_noop("the tournament has no match in round %(round)s"), round=round_number
        )
    matches.sort(key=lambda row: (row["table"] is None, row["table"] or 0))
    for match in matches:
        match["seats"] = seats_of(match["sides"], settings.table_size)
    return {
        "tournament": tournament,
        "stage": ", ".join(dict.fromkeys(row["stage"] for row in matches)),
        "round": round_number,
        "rounds": rounds_of(tournament),
        "matches": matches,
        "settings": settings,
        "grid": range(1, grid_rows(settings) + 1),
        "printed_at": timezone.now(),
    }


class RoundNotFound(TournamentError):
    code = "round_not_found"


PAIRINGS = "pairings"
SCORE_SHEETS = "score_sheets"
SHEETS = (PAIRINGS, SCORE_SHEETS)


def sheet_html(kind: str, context: dict[str, Any]) -> str:
    return render_to_string(f"tournaments/sheets/{kind}.html", context)


def sheet_pdf(html: str, *, base_url: str) -> bytes:
    """The HTML drawn as PDF. WeasyPrint is imported here, where it is used: it loads Pango
    when imported, which nothing else needs."""
    from weasyprint import HTML

    written: bytes = HTML(string=html, base_url=base_url).write_pdf()
    return written
