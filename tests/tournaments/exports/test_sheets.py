"""Issue 12 §3: the printable sheets of a round, from the tournament's admin page: the pairings
by table for the wall, and a score sheet per match with its sides, the seats in playing order
and a grid for the round points. PDF through WeasyPrint; the HTML they are drawn from is read
here (`?format=html`)."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.exports.evening import ORGANIZER, club_evening
from tournaments.selectors import sheets
from tournaments.services import registration, running, scheduling

pytestmark = pytest.mark.django_db


def sheet_url(tournament_id: UUID, kind: str, query: str = "") -> str:
    return reverse("admin:tournaments_tournament_sheet", args=[tournament_id, kind]) + query


def pairs_at_tables() -> UUID:
    """Four pairs at two tables of four, scheduled: two matches in the first round."""
    tournament = registration.tournament_create(
        name="Coppia d'Assi",
        format="round_robin",
        table_size=4,
        best_of=3,
        tables=2,
        actor=ORGANIZER,
    )
    for home, partner in [("Ada", "Bice"), ("Carlo", "Dora"), ("Ezio", "Fede"), ("Gino", "Ida")]:
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"{home} e {partner}",
            players=[home, partner],
            actor=ORGANIZER,
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    return tournament.id


def test_the_console_links_the_sheets_of_each_round(admin_client: Client) -> None:
    tournament_id = club_evening()

    page = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament_id])
    ).content.decode()

    assert sheet_url(tournament_id, "pairings", "?stage=league&amp;round=1") in page
    assert sheet_url(tournament_id, "score_sheets", "?stage=league&amp;round=1") in page


def test_the_pairings_list_the_rounds_matches_by_table(admin_client: Client) -> None:
    tournament_id = club_evening()
    url = sheet_url(tournament_id, "pairings", "?stage=league&round=1&format=html")

    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()

    rows = re.findall(
        r'<td class="num">(\d+)</td>\s*<td><bdi>([^<]+)</bdi></td>\s*<td><bdi>([^<]+)</bdi></td>',
        html,
    )
    assert [table for table, _, _ in rows] == sorted(table for table, _, _ in rows)
    assert len(rows) == 2  # five entrants: two matches and a bye
    assert "Turno 1" in html


def test_a_score_sheet_seats_partners_opposite_and_has_a_row_per_possible_round(
    admin_client: Client,
) -> None:
    tournament_id = pairs_at_tables()
    url = sheet_url(tournament_id, "score_sheets", "?format=html")

    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()

    sheets = html.split('data-sheet="score"')[1:]
    assert len(sheets) == 2
    seats = re.findall(r'data-seat="(\d)"><td class="num">\d</td><td>(\w+)</td>', sheets[0])
    assert [name for _, name in seats] in (
        ["Ada", "Carlo", "Bice", "Dora"],
        ["Ada", "Ezio", "Bice", "Fede"],
        ["Ada", "Gino", "Bice", "Ida"],
        ["Carlo", "Ezio", "Dora", "Fede"],
        ["Carlo", "Gino", "Dora", "Ida"],
        ["Ezio", "Gino", "Fede", "Ida"],
    )
    # Best of 3: at most five rounds count, and two spare rows for tied rounds.
    assert sheets[0].count("data-grid-row=") == 7
    assert "Partita" in sheets[0]


def test_the_sheets_are_pdf_documents(admin_client: Client) -> None:
    tournament_id = club_evening()

    for kind in ("pairings", "score_sheets"):
        response = admin_client.get(sheet_url(tournament_id, kind))

        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF-")


def test_only_the_console_s_users_print_sheets(client: Client) -> None:
    tournament_id = club_evening()

    response = client.get(sheet_url(tournament_id, "pairings"))

    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_an_unknown_sheet_is_not_found(admin_client: Client) -> None:
    tournament_id = club_evening()

    assert admin_client.get(sheet_url(tournament_id, "menu")).status_code == 404


@pytest.mark.parametrize(
    ("sides", "table_size", "seated"),
    [
        ([["Ada"], ["Bruno"]], 2, [("A", "Ada"), ("B", "Bruno")]),
        (
            [["Ada", "Bice"], ["Carlo", "Dora"]],
            4,
            [("A", "Ada"), ("B", "Carlo"), ("A", "Bice"), ("B", "Dora")],
        ),
        (
            [["Ada", "Bice", "Cleo"], ["Dino", "Ezio", "Fede"]],
            6,
            [
                ("A", "Ada"),
                ("B", "Dino"),
                ("A", "Bice"),
                ("B", "Ezio"),
                ("A", "Cleo"),
                ("B", "Fede"),
            ],
        ),
        ([["Ada"], ["Bruno"], ["Carla"]], 3, [("A", "Ada"), ("B", "Bruno"), ("C", "Carla")]),
    ],
    ids=["two", "pairs", "trios", "each for himself at three"],
)
def test_seats_in_playing_order_let_the_sides_take_turns(
    sides: list[list[str]], table_size: int, seated: list[tuple[str, str]]
) -> None:
    named = [{"name": "ABC"[index], "players": players} for index, players in enumerate(sides)]

    seats = sheets.seats_of(named, table_size)

    assert [seat.number for seat in seats] == list(range(1, table_size + 1))
    assert [(seat.side, seat.player) for seat in seats] == seated


def a_swiss_at_tables_of_three(**options: Any) -> UUID:
    """Five singles at tables of three, scheduled: a table of three and a table of two."""
    tournament = registration.tournament_create(
        name="Briscola a tre",
        format="swiss",
        table_size=3,
        best_of=3,
        swiss_rounds=2,
        tables=2,
        actor=ORGANIZER,
        **options,
    )
    for name in ("Ada", "Bruno", "Carla", "Dino", "Ezio"):
        registration.entrant_register(
            tournament_id=tournament.id, name=name, players=[name], actor=ORGANIZER
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)
    return tournament.id


def test_the_pairings_at_tables_of_three_seat_three_entrants_a_table_and_two_at_the_table_of_two(
    admin_client: Client,
) -> None:
    tournament_id = a_swiss_at_tables_of_three()
    url = sheet_url(tournament_id, "pairings", "?format=html")

    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()

    assert html.count("<th>Posto ") == 3
    rows = re.findall(r'<tr data-match="[^"]+">(.*?)</tr>', html, re.S)
    assert len(rows) == 2
    named = [re.findall(r"<td><bdi>(\w+)</bdi></td>", row) for row in rows]
    assert sorted(len(names) for names in named) == [2, 3]
    assert sorted(name for names in named for name in names) == [
        "Ada",
        "Bruno",
        "Carla",
        "Dino",
        "Ezio",
    ]
    # The table of two leaves the third seat's column empty: every row has the same cells.
    assert {row.count("<td") for row in rows} == {5}


def test_a_score_sheet_at_three_seats_three_players_in_playing_order_with_three_point_columns(
    admin_client: Client,
) -> None:
    tournament_id = a_swiss_at_tables_of_three()
    url = sheet_url(tournament_id, "score_sheets", "?format=html")

    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()

    sheets_ = html.split('data-sheet="score"')[1:]
    assert len(sheets_) == 2
    three, two = sorted(sheets_, key=lambda sheet: -sheet.count("data-seat="))
    # Each for himself: a seat is a player, no side column.
    seats = re.findall(r'data-seat="(\d)"><td class="num">\d</td><td>(\w+)</td></tr>', three)
    assert [number for number, _ in seats] == ["1", "2", "3"]
    grid = three.split("data-grid>")[1]
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", grid, re.S)
    assert header is not None
    assert [name for _, name in seats] == re.findall(r"<th><bdi>(\w+)</bdi></th>", header.group(1))
    row = re.search(r'<tr data-grid-row="1">(.*?)</tr>', grid, re.S)
    assert row is not None
    assert row.group(1).count("<td") == 1 + 3 + 1  # the round, three sides, the dealer
    assert "ognuno per sé" in three
    assert two.count("data-seat=") == 2
    assert "61" in two


def test_a_score_sheet_at_three_says_61_wins_when_the_tournament_asks_for_it(
    admin_client: Client,
) -> None:
    tournament_id = a_swiss_at_tables_of_three(variant={"three_winner": "at_least_61"})
    url = sheet_url(tournament_id, "score_sheets", "?format=html")

    html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()

    three = max(html.split('data-sheet="score"')[1:], key=lambda sheet: sheet.count("data-seat="))
    assert "nessuno arriva a 61" in three
