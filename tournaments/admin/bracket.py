"""The bracket and standings on a tournament's console page, drawn from the tournament's view,
and the links to its printable table cards and sheets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.parsing import ascii_int
from games.eventstore.api import last_position
from tournaments.models import (
    Tournament,
    TournamentView,
)
from tournaments.pages.labels import place_text
from tournaments.projections import consumer
from tournaments.projections.rows import tables_of
from tournaments.selectors import sheets
from tournaments.templatetags.tournament_pages import column_name, stage_label


def refresh_view(tournament_id: UUID) -> TournamentView:
    """Recompute one tournament's view now, as the consumer would."""
    position = last_position()
    consumer.project_tournament(tournament_id, position=position)
    return TournamentView.objects.get(tournament_id=tournament_id)


def view_of(tournament: Tournament) -> TournamentView:
    view = TournamentView.objects.filter(tournament=tournament).first()
    return view if view is not None else refresh_view(tournament.id)


def round_title(section: str, number: int, last: int) -> str:
    if section == "main":
        from_the_end = last - number
        names = (_("Final"), _("Semi-finals"), _("Quarter-finals"))
        return names[from_the_end] if from_the_end < len(names) else round_number(number)
    titles = {
        "winners": _("Winners round %(number)s") % {"number": number},
        "losers": _("Losers round %(number)s") % {"number": number},
        "grand_final": _("Grand final") if number == 1 else _("Grand final reset"),
        "third_place": _("Third place"),
    }
    return titles.get(section, round_number(number))


def round_number(number: int) -> str:
    return pgettext("tournament round", "Round %(number)s") % {"number": number}


def bracket_columns(bracket: dict[str, Any]) -> list[dict[str, Any]]:
    """The bracket document as the template draws it: stages of round columns, names resolved."""
    names: dict[str, str] = bracket.get("entrants", {})
    fixtures_url = reverse("admin:tournaments_fixture_changelist")

    def name(entrant: int | None) -> str:
        if entrant is None:
            return pgettext("bracket", "to be decided")
        return names.get(str(entrant), f"#{entrant}")

    stages = []
    for stage in bracket.get("stages", []):
        last_of: dict[str, int] = {}
        for round_ in stage["rounds"]:
            last_of[round_["section"]] = max(last_of.get(round_["section"], 0), round_["number"])
        columns = []
        for round_ in stage["rounds"]:
            matches = [
                {
                    "key": match["key"],
                    "status": match["status"],
                    "table": match["table"],
                    "url": None
                    if match["match_id"] is None
                    else f"{fixtures_url}?match_id={match['match_id']}",
                    "sides": [
                        {
                            "name": name(entrant),
                            "known": entrant is not None,
                            "won": entrant is not None and entrant == match["winner"],
                            "place": place,
                            "place_shown": None if place is None else ordinal(place),
                        }
                        for entrant, place in zip(match["entrants"], places_of(match), strict=True)
                    ],
                }
                for match in round_["matches"]
            ]
            bye = round_.get("bye")
            columns.append(
                {
                    "title": round_title(
                        round_["section"], round_["number"], last_of[round_["section"]]
                    ),
                    "matches": matches,
                    "bye": None if bye is None else name(bye),
                }
            )
        kind = stage_label(stage["kind"])
        title = stage_label(stage["name"])
        stages.append(
            {
                "title": title if stage["kind"] == stage["name"] else f"{title} ({kind})",
                "complete": stage["complete"],
                "rounds": columns,
            }
        )
    return stages


def table_card_links(tournament: Tournament) -> list[dict[str, Any]]:
    """Each table's printable card (tournaments/services/table_cards.py), as SVG and as PDF."""
    tables = tables_of(tournament)
    return [
        {
            "table": table,
            "svg": reverse("api-v1:table-card", args=[tournament.id, table]),
            "pdf": reverse("api-v1:table-card", args=[tournament.id, table]) + "?format=pdf",
        }
        for table in range(1, tables + 1)
    ]


def evening_prints(tournament: Tournament) -> dict[str, Any]:
    """One click to print the evening (decision record 0049): every table's card in one PDF,
    and the current round's score sheets in one PDF (None before the first round)."""
    current = sheets.current_round(tournament)
    return {
        "table_cards": reverse("api-v1:table-cards", args=[tournament.id]) + "?format=pdf",
        "round": None if current is None else current[1],
        "score_sheets": None
        if current is None
        else reverse("api-v1:round-sheets", args=[tournament.id, current[1]]) + "?format=pdf",
    }


def sheet_links(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round's printable sheets (tournaments/selectors/sheets.py): pairings and score sheets,
    PDF."""
    links = []
    for stage, number in sheets.rounds_of(tournament):
        query = f"?{urlencode({'stage': stage, 'round': number})}"
        links.append(
            {
                "stage": stage,
                "round": number,
                **{
                    kind: reverse("admin:tournaments_tournament_sheet", args=[tournament.pk, kind])
                    + query
                    for kind in sheets.SHEETS
                },
            }
        )
    return links


def round_sheet_response(request: HttpRequest, tournament_id: UUID, kind: str) -> HttpResponse:
    """A printable sheet of a round (`?stage=&round=`; the current round without them): PDF, or
    the HTML it is drawn from with `?format=html`."""
    number = request.GET.get("round", "")
    context = sheets.round_sheet(
        tournament_id=tournament_id,
        stage=request.GET.get("stage"),
        round_number=ascii_int(number),
    )
    html = sheets.sheet_html(kind, context)
    if request.GET.get("format") == "html":
        return HttpResponse(html)
    response = HttpResponse(
        sheets.sheet_pdf(html, base_url=request.build_absolute_uri("/")),
        content_type="application/pdf",
    )
    name = f"{kind.replace('_', '-')}-{context['stage']}-{context['round']}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def places_of(match: dict[str, Any]) -> list[int | None]:
    """Each seat's place at a finished table of three (None elsewhere)."""
    places = match.get("places")
    if not places or len(places) != len(match["entrants"]):
        return [None] * len(match["entrants"])
    return list(places)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd (1°, 2°, 3° in Italian)."""
    return place_text(place)


def shown(value: Any) -> Any:
    """A standings value as the console shows it: a count-back as "1/0", a fractional match
    points total with two decimals at most (4/3 as 1.33), a whole number without ".0"."""
    if isinstance(value, list):
        return "/".join(str(part) for part in value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


def standings_table(
    rows: list[dict[str, Any]], order: Sequence[str] | None = None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The tie-break names (the columns after the fixed ones, in the configured `order`; the
    projection's JSON keeps no key order) and the rows with their values."""
    tiebreaks = list(order or (rows[0]["tiebreaks"] if rows else []))
    return [str(column_name(name)) for name in tiebreaks], [
        row
        | {
            "tiebreak_values": [shown(row["tiebreaks"].get(name)) for name in tiebreaks],
            "match_points_shown": shown(row["match_points"]),
        }
        for row in rows
    ]
