import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.admin.builders import TOURNAMENT_FORM, add_tournament
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def test_the_add_form_creates_the_tournament_through_the_service(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    response = add_tournament(admin_client)

    tournament = Tournament.objects.get(name="Coppa di primavera")
    assert response.status_code == 302
    assert response.url == reverse("admin:tournaments_tournament_change", args=[tournament.id])
    (created,) = read_stream(stream_id=tournament.id)
    assert created.event_type == "TournamentCreated"
    assert (created.metadata.actor_id, created.metadata.device) == (admin_user.pk, "admin")
    settings = created.payload["settings"]
    assert (settings["format"], settings["table_size"], settings["swiss_rounds"]) == ("swiss", 4, 5)
    assert (settings["tables"], settings["no_show_minutes"]) == (6, 15)
    assert settings["automatic_rounds"]
    assert not settings["third_place"]
    assert settings["level_knockout"] == "higher_seed"
    assert tournament.tables.count() == 6


def test_the_add_form_sets_who_must_not_meet(admin_client: Client) -> None:
    add_tournament(admin_client, avoid_same_group="always", avoid_same_group_strength="soft")

    tournament = Tournament.objects.get(name="Coppa di primavera")
    settings = tournament.settings
    assert (settings["avoid_same_group"], settings["avoid_same_group_strength"]) == (
        "always",
        "soft",
    )


def test_the_add_form_shows_what_the_service_refuses_and_creates_nothing(
    admin_client: Client,
) -> None:
    response = add_tournament(admin_client, scoring="points", rounds="")

    assert response.status_code == 200
    assert "scoring by points needs the number of rounds" in response.content.decode()
    assert not Tournament.objects.filter(name=TOURNAMENT_FORM["name"]).exists()


def test_a_tournament_scored_by_points_is_created_without_best_of(
    admin_client: Client,
) -> None:
    response = add_tournament(
        admin_client, scoring="points", rounds="4", best_of="", level_knockout="deciding_round"
    )

    assert response.status_code == 302
    settings = Tournament.objects.get(name=TOURNAMENT_FORM["name"]).settings
    assert (settings["scoring"], settings["rounds"]) == ("points", 4)


def test_a_tournament_scored_by_rounds_with_best_of_left_blank_is_best_of_three(
    admin_client: Client,
) -> None:
    response = add_tournament(admin_client, best_of="")

    assert response.status_code == 302
    assert Tournament.objects.get(name=TOURNAMENT_FORM["name"]).settings["best_of"] == 3


def test_the_add_form_hides_best_of_when_scoring_by_points(admin_client: Client) -> None:
    page = admin_client.get(reverse("admin:tournaments_tournament_add")).content.decode()

    assert "tournaments/admin_scoring.js" in page
    assert "field-best_of" in page


def test_the_add_form_lists_every_option_of_a_tournament(admin_client: Client) -> None:
    form = admin_client.get(reverse("admin:tournaments_tournament_add")).context["adminform"].form

    placing = {"first_place_points", "second_place_points", "third_place_points", "bye_points"}
    sign_up = {"sign_up_open", "sign_up_cap", "sign_up_waitlist", "sign_up_approval"}
    apart = {"avoid_same_group", "avoid_same_group_strength"}
    late = {
        "late_entry_until_round",
        "late_entry_points",
        "max_requested_byes",
        "requested_bye_points",
    }
    assert set(TOURNAMENT_FORM) | {"rounds", "group_size", "third_place", "forfeit_points"} | (
        placing
    ) | {"club", "silent_final_rounds"} | sign_up | late | apart | {"accelerated"} == set(
        form.fields
    )


def test_adding_an_entrant_registers_it_through_the_service(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=0, table_size=4
    ).id
    url = reverse("admin:tournaments_entrant_add")

    page = admin_client.get(url, {"tournament": str(tournament_id)})
    response = admin_client.post(
        url,
        {"tournament": str(tournament_id), "name": "I Leoni", "players": "Ada ; Bruno", "seed": ""},
    )

    assert page.context["adminform"].form.initial["tournament"] == str(tournament_id)
    entrant = Entrant.objects.get(tournament_id=tournament_id)
    assert response.status_code == 302
    assert [str(player) for player in entrant.players.order_by("entrantplayer__position")] == [
        "Ada",
        "Bruno",
    ]
    assert read_stream(stream_id=tournament_id)[-1].event_type == "EntrantRegistered"


def test_saving_an_entrant_returns_to_its_tournament_s_page(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=0).id

    response = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament_id), "name": "Rossi", "players": ""},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse(
        "admin:tournaments_tournament_change", args=[tournament_id]
    )


def test_save_and_add_another_keeps_the_tournament_on_the_next_form(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=0).id
    url = reverse("admin:tournaments_entrant_add")

    response = admin_client.post(
        url, {"tournament": str(tournament_id), "name": "Rossi", "_addanother": "1"}
    )
    following = admin_client.get(response["Location"])

    assert response.status_code == 302
    assert response["Location"] == f"{url}?tournament={tournament_id}"
    assert following.context["adminform"].form.initial["tournament"] == str(tournament_id)
    assert "Rossi was added." in [str(message) for message in following.context["messages"]]


def test_save_and_add_another_tournament_opens_an_empty_form(admin_client: Client) -> None:
    response = add_tournament(admin_client, _addanother="1")

    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_tournament_add")


def test_an_entrant_the_service_refuses_is_an_error_on_the_form(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=0, table_size=4
    ).id

    response = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament_id), "name": "Solo", "players": "Ada"},
    )

    assert response.status_code == 200
    assert "needs 2 player(s); this one has 1" in response.content.decode()
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


@pytest.mark.parametrize("table_size", [2, 3])
def test_a_single_added_without_players_plays_under_the_entrant_s_name(
    admin_client: Client, table_size: int
) -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=0, table_size=table_size
    ).id

    response = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament_id), "name": "Giulia Rossi", "players": "", "seed": ""},
    )

    assert response.status_code == 302
    entrant = Entrant.objects.get(tournament_id=tournament_id)
    assert [str(player) for player in entrant.players.all()] == ["Giulia Rossi"]


def test_a_pair_added_without_players_is_asked_for_their_names(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=0, table_size=4
    ).id

    response = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament_id), "name": "I Leoni", "players": " "},
    )

    assert response.status_code == 200
    assert "give the names of its 2 players" in response.content.decode()
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


def test_a_started_tournament_is_not_offered_for_new_entrants(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id

    response = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament_id), "name": "Late", "players": "Late"},
    )

    assert response.status_code == 200
    assert "tournament" in response.context["adminform"].form.errors
