"""The organizer's admin at tables of three (decision record 0031): the add form offers the
table size and the match points per place, the console shows three entrants a table and the
standings by places, the fixtures show the third entrant, and a level knockout table can send
its third entrant through."""

import re
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse

from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.admin.builders import act, add_tournament
from tests.tournaments.builders import event_types, events_after, ready_fixtures
from tournaments.models import Fixture, Tournament
from tournaments.projections import consumer
from tournaments.services import running, scheduling
from tournaments.services import running as tournament_running

pytestmark = pytest.mark.django_db

FIXTURES = "tournaments_fixture"


def started_at_three(format: str = "swiss", entrants: int = 5, **options: object) -> UUID:
    tournament_id = TournamentFactory.create(
        format=format, entrants=entrants, table_size=3, **options
    ).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    return tournament_id


def play_by_points(fixture: Fixture, points: list[int]) -> None:
    match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=fixture.match_id, round_number=1, points=points, actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)


def play_first_round(tournament_id: UUID) -> list[Fixture]:
    """The table of three finishes 1st-2nd-3rd in seat order, the table of two home first."""
    fixtures = ready_fixtures(tournament_id)
    for fixture in fixtures:
        play_by_points(fixture, [60, 40, 20] if fixture.third_id else [80, 40])
    consumer.consume()
    return fixtures


def console(client: Client, tournament_id: UUID) -> str:
    response = client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_add_form_offers_tables_of_three(admin_client: Client) -> None:
    form = admin_client.get(reverse("admin:tournaments_tournament_add")).context["adminform"].form

    assert 3 in [value for value, _ in form.fields["table_size"].choices]
    assert {
        "first_place_points",
        "second_place_points",
        "third_place_points",
        "bye_points",
        "forfeit_points",
    } <= set(form.fields)


@pytest.mark.usefixtures("admin_user")
def test_a_tournament_at_tables_of_three_is_added_with_its_match_points_per_place(
    admin_client: Client,
) -> None:
    response = add_tournament(
        admin_client,
        table_size="3",
        first_place_points="3",
        second_place_points="1",
        third_place_points="0",
        bye_points="3",
    )

    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Coppa di primavera")
    assert tournament.table_size == 3
    assert tournament.settings["placing_scoring"]["places"] == [3, 1, 0]
    assert tournament.settings["placing_scoring"]["bye"] == 3
    assert tournament.settings["placing_scoring"].get("forfeit", 0) == 0


def test_a_tournament_at_tables_of_three_left_blank_takes_the_default_match_points(
    admin_client: Client,
) -> None:
    response = add_tournament(admin_client, table_size="3")

    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Coppa di primavera")
    assert tournament.table_size == 3
    assert tournament.settings.get("placing_scoring") in (
        None,
        {"places": [2, 1, 0], "bye": 2, "forfeit": 0},
    )


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {
                "table_size": "3",
                "first_place_points": "0",
                "second_place_points": "1",
                "third_place_points": "2",
            },
            "a better place never earns fewer match points",
        ),
        (
            {"table_size": "3", "first_place_points": "3"},
            "Give the match points of all three places",
        ),
        ({"table_size": "2", "bye_points": "1"}, "tables of three"),
        ({"table_size": "3", "format": "double_elimination"}, "double"),
    ],
)
def test_match_points_per_place_the_service_refuses_are_errors_on_the_add_form(
    admin_client: Client, changes: dict[str, str], said: str
) -> None:
    response = add_tournament(admin_client, **changes)

    assert response.status_code == 200
    assert said in response.content.decode()
    assert not Tournament.objects.filter(name="Coppa di primavera").exists()


def test_the_console_lists_each_table_of_three_with_its_three_entrants(
    admin_client: Client,
) -> None:
    tournament_id = started_at_three(entrants=5, swiss_rounds=2)
    scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    three, two = sorted(ready_fixtures(tournament_id), key=lambda f: -len(f.entrant_ids))

    html = console(admin_client, tournament_id)

    names = [e.name for e in three.seated]
    assert len(names) == 3
    assert " \u2013 ".join(names) in html
    assert " \u2013 ".join(e.name for e in two.seated) in html


def test_the_console_standings_at_three_count_places_and_byes_not_wins_and_losses(
    admin_client: Client,
) -> None:
    tournament_id = started_at_three(entrants=5, swiss_rounds=2)
    play_first_round(tournament_id)

    html = console(admin_client, tournament_id)

    standings = html[html.index('id="standings"') : html.index('id="bracket"')]
    assert '<th class="num">1st</th>' in standings
    assert "Tied" not in standings
    rows = re.findall(r'<tr data-entrant="(\d+)">(.*?)</tr>', standings, re.S)
    assert len(rows) == 5
    placings = [re.findall(r'data-column="placing">(\d+)<', row) for _, row in rows]
    assert sorted(tuple(int(n) for n in p) for p in placings) == sorted(
        [(1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 1)]
    )
    # The count-back is shown as "firsts/seconds", not as a Python list.
    assert "[1, 0]" not in standings
    assert "1/0" in standings
    bracket = html[html.index('id="bracket"') :]
    # The table of three shows each place; the table of two its winner.
    assert sorted(re.findall(r'data-place="(\d)"', bracket)) == ["1", "2", "3"]


def test_the_fixture_list_and_page_show_the_third_entrant_and_the_places(
    admin_client: Client,
) -> None:
    tournament_id = started_at_three(entrants=5, swiss_rounds=2)
    fixtures = play_first_round(tournament_id)
    three = next(f for f in fixtures if f.third_id is not None)
    three.refresh_from_db()
    assert three.third is not None

    listing = admin_client.get(
        reverse(f"admin:{FIXTURES}_changelist"), {"tournament__id__exact": str(tournament_id)}
    ).content.decode()
    page = admin_client.get(reverse(f"admin:{FIXTURES}_change", args=[three.pk])).content.decode()

    assert "column-third" in listing
    assert three.third.name in listing
    assert three.third.name in page
    seated = three.seated
    assert f"{seated[0].name}: 1st, {seated[1].name}: 2nd, {seated[2].name}: 3rd" in page


@pytest.mark.usefixtures("admin_user")
def test_a_level_knockout_table_of_three_can_send_its_third_entrant_through(
    admin_client: Client,
) -> None:
    tournament_id = started_at_three(
        "single_elimination", 3, scoring="points", rounds=1, level_knockout="organizer"
    )
    (fixture,) = ready_fixtures(tournament_id)
    assert fixture.third_id is not None
    play_by_points(fixture, [20, 50, 50])
    before = len(event_types(tournament_id))

    _, said = act(
        admin_client,
        FIXTURES,
        "decide_level",
        [fixture.pk],
        apply="1",
        winner="third",
        reason="sorteggio",
    )

    decided = events_after(tournament_id, before)
    assert decided[0].event_type == "LevelMatchDecided"
    assert decided[0].payload["winner"] == fixture.third_id
    assert said == [f"{fixture.key}: the third side goes through."]


def test_a_two_sided_match_has_no_third_entrant_to_send_through(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination",
        entrants=2,
        scoring="points",
        rounds=1,
        level_knockout="organizer",
    ).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (fixture,) = ready_fixtures(tournament_id)
    play_by_points(fixture, [60, 60])
    before = len(event_types(tournament_id))

    _, said = act(
        admin_client, FIXTURES, "decide_level", [fixture.pk], apply="1", winner="third", reason="x"
    )

    assert said == [f"{fixture.key} has no third side."]
    assert len(event_types(tournament_id)) == before
