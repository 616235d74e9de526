"""The public pages of a tournament at tables of three (decision record 0031), through Django's
test client: three entrants a table and their places, standings by places with fractional match
points, the bracket's boxes of three, the projector view and a player's opponents."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from tests.factories.tournaments import ThreesTournamentFactory
from tests.tournaments.builders import win_by_points
from tests.tournaments.pages.builders import ready_fixtures
from tournaments.models import Entrant, Fixture
from tournaments.projections import consumer

pytestmark = pytest.mark.django_db


def first_round_played(entrants: int = 5, **options: object) -> uuid.UUID:
    """A Swiss at tables of three whose first round is played: at the table of three the first
    two seats share first place (50, 50, 20), at a table of two the first seat wins."""
    tournament_id = ThreesTournamentFactory.create(
        format="swiss", entrants=entrants, swiss_rounds=2, **options
    ).id
    for fixture in ready_fixtures(tournament_id):
        win_by_points(fixture.match_id, [50, 50, 20] if fixture.third_id else [80, 40])
    consumer.consume()
    return tournament_id


def page(client: Client, tournament_id: uuid.UUID, language: str = "en") -> str:
    response = client.get(f"/tournaments/{tournament_id}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def fixture_row(html: str, fixture: Fixture) -> str:
    found = re.search(rf'<tr data-match="{fixture.match_id}"[^>]*>(.*?)</tr>', html, re.S)
    assert found is not None
    return found.group(1)


def cells(html: str, column: str) -> list[str]:
    """The standings' values in a column, best first."""
    columns = re.findall(r'<th scope="col" class="num" data-column="(\w+)"', html)
    rows = re.findall(r"<tr data-entrant=\"\d+\" data-rank=\"\d+\">(.*?)</tr>", html, re.S)
    values = [re.findall(r'<td class="num">([^<]*)</td>', row)[1:] for row in rows]
    return [row[columns.index(column)] for row in values]


def test_a_table_of_three_shows_its_three_entrants_their_places_and_round_wins(
    client: Client,
) -> None:
    tournament_id = first_round_played()
    three = Fixture.objects.get(tournament_id=tournament_id, round=1, third__isnull=False)
    two = Fixture.objects.get(tournament_id=tournament_id, round=1, third__isnull=True)

    html = page(client, tournament_id)

    assert '<th scope="col" colspan="3" class="seats">At the table</th>' in html
    assert "Home" not in html
    row = fixture_row(html, three)
    assert re.findall(r'<td class="seat[^"]*" data-place="(\d)"', row) == ["1", "1", "3"]
    named = re.findall(r'/players/\d+/"><bdi>([^<]+)</bdi></a>', row)
    assert [e.name for e in three.seated] == named
    assert "0\u20130\u20130" in row  # one round by points, no round won outright
    assert '0\u20130\u20130<span class="visually-hidden"> (the table of ' in row
    table_of_two = fixture_row(html, two)
    assert re.findall(r'data-place="(\d)"', table_of_two) == ["1", "2"]
    assert table_of_two.count('class="seat empty"') == 1
    assert "1\u20130" in table_of_two


def test_the_standings_at_three_count_places_and_show_shared_points_as_fractions(
    client: Client,
) -> None:
    tournament_id = first_round_played()

    html = page(client, tournament_id)
    italian = page(client, tournament_id, "it")

    columns = re.findall(r'<th scope="col" class="num" data-column="(\w+)"', html)
    assert columns[:4] == ["played", "first", "second", "third"]
    assert columns[4:6] == ["match_points", "placings"]
    assert "won" not in columns
    # Two shared first place at the table of three: 2 + 1 points split, 1.5 each.
    assert sorted(cells(html, "match_points")) == ["0", "0", "1.5", "1.5", "2"]
    assert sorted(cells(italian, "match_points")) == ["0", "0", "1,5", "1,5", "2"]
    assert sorted(cells(html, "first")) == ["0", "0", "1", "1", "1"]
    assert "1/0" in cells(html, "placings")
    assert "after 3rd" in html
    assert "2 for first, 1 for second, 0 for third, 2 for a bye" in html


def test_the_match_points_help_gives_the_tournament_s_own_points_per_place(
    client: Client,
) -> None:
    tournament_id = first_round_played(placing_scoring={"places": [3, 1, 0], "bye": 3})

    html = page(client, tournament_id)

    assert "3 for first, 1 for second, 0 for third, 3 for a bye" in html
    assert sorted(cells(html, "match_points")) == ["0", "0", "2", "2", "3"]


def test_byes_get_a_column_when_the_field_leaves_one_entrant_out(client: Client) -> None:
    tournament_id = first_round_played(entrants=4)

    html = page(client, tournament_id)

    columns = re.findall(r'<th scope="col" class="num" data-column="(\w+)"', html)
    assert columns[:5] == ["played", "byes", "first", "second", "third"]
    # The first round's bye, and the second's: it counts once the round is paired.
    assert sorted(cells(html, "byes")) == ["0", "0", "1", "1"]


def test_the_bracket_of_a_knockout_at_three_draws_three_names_a_box_with_their_places(
    client: Client,
) -> None:
    # Five in nine lines: seed 1 walks over, seeds 2-5 and 3-4 play tables of two, the
    # three winners meet at the final table.
    tournament_id = ThreesTournamentFactory.create(format="single_elimination", entrants=5).id
    for _ in range(2):
        for fixture in ready_fixtures(tournament_id):
            win_by_points(fixture.match_id, [70, 40, 10] if fixture.third_id else [80, 40])
        consumer.consume()

    html = page(client, tournament_id)

    svg = html[html.index("<svg") : html.index("</svg>")]
    boxes = re.findall(r'<g class="bracket-match[^"]*" data-key="([^"]+)">(.*?)</g>', svg, re.S)
    names = {key: re.findall(r'font-weight="\d+">([^<]+)</text>', box) for key, box in boxes}
    assert sorted(len(found) for found in names.values()) == [1, 2, 2, 3]
    (final,) = [key for key, found in names.items() if len(found) == 3]
    assert sorted(names[final]) == ["Player 1", "Player 2", "Player 3"]
    box = dict(boxes)[final]
    assert re.findall(r'class="bracket-place">([^<]+)<', box) == ["1st", "2nd", "3rd"]
    assert 'height="64"' in box  # a third line in the box


def test_the_projector_view_at_three_seats_three_entrants_and_counts_first_places(
    client: Client,
) -> None:
    tournament_id = ThreesTournamentFactory.create(format="swiss", entrants=6, swiss_rounds=2).id

    html = client.get(f"/tournaments/{tournament_id}/screen/").content.decode()

    rows = re.findall(r'<tr data-match="[^"]+"[^>]*>(.*?)</tr>', html, re.S)
    assert len(rows) == 2
    for row in rows:
        assert len(re.findall(r"<td><bdi>[^<]+</bdi></td>", row)) == 3
    assert '<th scope="col" colspan="3">At the table</th>' in html
    assert 'data-column="first"' in html


def test_a_player_at_three_sees_both_opponents_and_the_place(client: Client) -> None:
    tournament_id = first_round_played()
    three = Fixture.objects.select_related("home", "away", "third").get(
        tournament_id=tournament_id, round=1, third__isnull=False
    )
    entrant = Entrant.objects.get(id=three.home_id)
    player = entrant.players.get()

    html = client.get(f"/players/{player.id}/").content.decode()

    row = fixture_row(html, three)
    others = [e.name for e in three.seated if e.id != entrant.id]
    assert ", ".join(f"<bdi>{name}</bdi>" for name in others) in row
    assert "Opponents" in html
    assert 'data-place="1"' in row
    assert "1st" in row
