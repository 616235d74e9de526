import pytest
from django.test import Client
from django.urls import reverse

from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import check_in, ready_fixtures, win_by_points
from tournaments.models import Entrant, TournamentView
from tournaments.projections import consumer
from tournaments.services import scheduling
from tournaments.services import scheduling as tournament_scheduling
from tournaments.tasks import running

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name",
    [
        "tournaments_tournament_changelist",
        "tournaments_tournament_add",
        "tournaments_entrant_changelist",
        "tournaments_entrant_add",
        "tournaments_fixture_changelist",
        "games_match_changelist",
    ],
)
def test_the_organizers_pages_load_for_a_superuser(admin_client: Client, name: str) -> None:
    TournamentFactory.create(started=True)

    assert admin_client.get(reverse(f"admin:{name}")).status_code == 200


def test_a_tournaments_page_shows_its_standings_and_its_bracket(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    first = ready_fixtures(tournament_id)[0]
    win_by_points(first.match_id)
    consumer.consume()

    response = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament_id])
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert "Standings" in page
    assert "Bracket" in page
    assert next(row["name"] for row in response.context["standings"]) == first.home.name
    (stage,) = response.context["bracket"]
    assert [column["title"] for column in stage["rounds"]] == ["Semi-finals", "Final"]
    played = next(m for m in stage["rounds"][0]["matches"] if m["key"] == first.key)
    assert [side["won"] for side in played["sides"]] == [True, False]
    assert first.home.name in page
    assert "to be decided" in page
    assert f"?q={tournament_id}" in page
    assert f"/api/v1/tournaments/{tournament_id}/bracket/" in page
    fixture_page = admin_client.get(played["url"])
    assert [f.key for f in fixture_page.context["cl"].result_list] == [first.key]


def test_a_tournament_without_a_view_gets_one_when_its_page_is_opened(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4, swiss_rounds=2, started=True
    ).id
    TournamentView.objects.filter(tournament_id=tournament_id).delete()

    response = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament_id])
    )

    assert response.status_code == 200
    assert TournamentView.objects.filter(tournament_id=tournament_id).exists()
    assert len(response.context["standings"]) == 4
    assert response.context["bracket"][0]["rounds"][0]["title"] == "Round 1"


def test_derived_rows_are_read_only_in_the_admin(admin_client: Client) -> None:
    """An entrant's page is the form of its corrections instead (test_entrant_corrections.py)."""
    tournament_id = TournamentFactory.create(started=True).id
    entrant = Entrant.objects.filter(tournament_id=tournament_id)[0]
    fixture = ready_fixtures(tournament_id)[0]
    pages = [
        reverse("admin:tournaments_tournament_change", args=[tournament_id]),
        reverse("admin:tournaments_fixture_change", args=[fixture.pk]),
        reverse("admin:games_match_change", args=[fixture.match_id]),
    ]

    for page in pages:
        viewed = admin_client.get(page)
        assert viewed.status_code == 200
        assert not viewed.context["has_change_permission"]
        assert admin_client.post(page, {"name": "Tampered"}).status_code == 403
    assert admin_client.get(reverse("admin:games_match_add")).status_code == 403
    assert admin_client.get(reverse("admin:tournaments_fixture_add")).status_code == 403
    for delete in [
        reverse("admin:tournaments_tournament_delete", args=[tournament_id]),
        reverse("admin:tournaments_entrant_delete", args=[entrant.pk]),
    ]:
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Entrant.objects.filter(pk=entrant.pk).exists()


def test_a_matchs_page_shows_its_rounds_and_links_to_its_events(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id)

    response = admin_client.get(reverse("admin:games_match_change", args=[fixture.match_id]))

    page = response.content.decode()
    assert f"?q={fixture.match_id}" in page
    assert f"/api/v1/matches/{fixture.match_id}/rounds/1/replay/" in page
    (rounds,) = response.context["inline_admin_formsets"]
    assert len(rounds.formset.forms) == 1


def test_matches_are_found_by_a_sides_name_or_by_their_id(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    url = reverse("admin:games_match_changelist")

    def found(term: str) -> list[object]:
        response = admin_client.get(url, {"q": term})
        return [match.id for match in response.context["cl"].result_list]

    assert fixture.match_id in found(fixture.home.name)
    assert found(str(fixture.match_id)) == [fixture.match_id]
    assert found("nobody plays here") == []


def test_a_tournaments_page_links_each_tables_printable_card(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True
    ).id

    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    links = [(card["svg"], card["pdf"]) for card in page.context["table_cards"]]

    assert links == [
        (
            f"/api/v1/tournaments/{tournament_id}/tables/{table}/card/",
            f"/api/v1/tournaments/{tournament_id}/tables/{table}/card/?format=pdf",
        )
        for table in (1, 2)
    ]
    assert f'href="{links[1][1]}"' in page.content.decode()
    card = admin_client.get(links[1][0])
    assert card.status_code == 200
    assert card.content.startswith(b"<svg")


def test_a_tournaments_page_lists_its_overdue_matches(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, no_show_minutes=0, started=True
    ).id
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    first, second = ready_fixtures(tournament_id)
    check_in(tournament_id, second.home_id)  # one side present: forfeited, not overdue
    for fixture in (first, second):
        scheduling.fixture_call(match_id=fixture.match_id, actor=ORGANIZER)
    running.catch_up_all()
    consumer.consume()

    response = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament_id])
    )

    assert [key for key, _ in response.context["overdue"]] == [first.key]
    assert "data-overdue" in response.content.decode()
