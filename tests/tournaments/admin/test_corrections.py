"""Correcting entrants in the organizer's console: the entrant's page edits its name, players
and seed with a reason, and the tournament's page has a Seeds form sent as one reseed. Both go
through the services (events by the organizer, device `admin`); refusals show on the form."""

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.eventstore.api import RecordedEvent, read_stream
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import Entrant, Player
from tournaments.services import registration as tournament_registration
from tournaments.services import running

pytestmark = pytest.mark.django_db


def entrant_page(entrant: Entrant) -> str:
    return reverse("admin:tournaments_entrant_change", args=[entrant.pk])


def tournament_page(tournament_id: uuid.UUID) -> str:
    return reverse("admin:tournaments_tournament_change", args=[tournament_id])


def seeds_url(tournament_id: uuid.UUID) -> str:
    return reverse("admin:tournaments_tournament_seeds", args=[tournament_id])


def entrant_named(tournament_id: uuid.UUID, name: str) -> Entrant:
    return Entrant.objects.get(tournament_id=tournament_id, name=name)


def events(tournament_id: uuid.UUID) -> list[RecordedEvent]:
    return list(read_stream(stream_id=tournament_id))


def correction(entrant: Entrant, **fields: Any) -> dict[str, Any]:
    """The entrant's page as it is filled in, with `fields` changed."""
    players = list(entrant.players.order_by("entrantplayer__position"))
    form = {"name": entrant.name, "seed": "" if entrant.seed is None else entrant.seed}
    form |= {f"player_{seat}": player.name for seat, player in enumerate(players, start=1)}
    return form | fields


def messages_of(client: Client, response: Any) -> list[str]:
    page = client.get(response["Location"]) if response.status_code == 302 else response
    return [str(message) for message in page.context["messages"]]


def test_an_entrants_page_is_a_form_of_its_name_players_seed_and_reason(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")

    page = admin_client.get(entrant_page(entrant))

    assert page.status_code == 200
    form = page.context["adminform"].form
    assert list(form.fields) == [
        "name",
        "player_1",
        "replace_1",
        "seed",
        "fixed_table",
        "group",
        "reason",
        "confirm_duplicate_name",
    ]
    assert (form.initial["name"], form.initial["seed"]) == ("Player 1", 1)
    assert form["player_1"].initial == "Player 1"
    html = page.content.decode()
    assert 'type="hidden" name="confirm_duplicate_name"' in html
    assert 'name="_save"' in html
    assert "deletelink" not in html


def test_renaming_on_the_entrants_page_records_a_correction_by_the_organizer(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")

    response = admin_client.post(
        entrant_page(entrant), correction(entrant, name="Giulia Rossi", reason="misspelled")
    )

    assert response.status_code == 302, response.context["adminform"].form.errors
    recorded = events(tournament_id)[-1]
    assert recorded.event_type == "EntrantCorrected"
    assert recorded.payload == {"entrant": entrant.id, "changed": ["name"], "reason": "misspelled"}
    assert (recorded.metadata.actor_id, recorded.metadata.device) == (admin_user.pk, "admin")
    assert recorded.metadata.reason == "misspelled"
    entrant.refresh_from_db()
    assert entrant.name == "Giulia Rossi"
    assert messages_of(admin_client, response) == ["Giulia Rossi: name corrected."]


def test_a_group_is_given_on_the_entrants_page_before_the_start(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")

    response = admin_client.post(
        entrant_page(entrant), correction(entrant, group="Bar Sport", reason="his club")
    )

    assert response.status_code == 302, response.context["adminform"].form.errors
    recorded = events(tournament_id)[-1]
    assert recorded.payload["changed"] == ["group"]
    assert recorded.payload["group"] == "Bar Sport"
    entrant.refresh_from_db()
    assert entrant.group == "Bar Sport"


def test_a_player_is_replaced_and_the_seed_changed_from_the_entrants_page(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 2")
    before = len(events(tournament_id))

    response = admin_client.post(
        entrant_page(entrant),
        correction(entrant, player_1="Ettore", replace_1="on", seed="5", reason="a substitute"),
    )

    assert response.status_code == 302
    recorded = events(tournament_id)[before:]
    assert [e.event_type for e in recorded] == ["EntrantCorrected", "EntrantsReseeded"]
    ettore = Player.objects.get(name="Ettore")
    assert recorded[0].payload["players"] == [ettore.id]
    assert recorded[1].payload == {"seeds": [[entrant.id, 5]], "reason": "a substitute"}
    entrant.refresh_from_db()
    assert entrant.seed == 5
    assert [str(p) for p in entrant.players.all()] == ["Ettore"]
    assert Player.objects.filter(name="Player 2").exists()


def test_a_duplicate_name_shows_a_warning_and_a_box_to_confirm_it(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 2")
    filled = correction(entrant, name="player 1", reason="same name")

    warned = admin_client.post(entrant_page(entrant), filled)
    confirmed = admin_client.post(entrant_page(entrant), filled | {"confirm_duplicate_name": "on"})

    assert warned.status_code == 200
    form = warned.context["adminform"].form
    assert form.errors["name"] == [
        "another entrant of this tournament is already called Player 1: confirm the duplicate "
        "name to register or rename it all the same"
    ]
    assert 'type="checkbox" name="confirm_duplicate_name"' in warned.content.decode()
    assert confirmed.status_code == 302
    entrant.refresh_from_db()
    assert entrant.name == "player 1"


def test_a_seed_another_entrant_holds_is_an_error_on_the_page_and_nothing_is_recorded(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 2")
    before = len(events(tournament_id))

    response = admin_client.post(
        entrant_page(entrant), correction(entrant, name="Bianchi", seed="1", reason="top")
    )

    assert response.status_code == 200
    # The rename and the seed are one change: the error names the entrant as it would be.
    assert response.context["adminform"].form.non_field_errors() == [
        "seed 1 would be held by more than one entrant: Player 1, Bianchi"
    ]
    assert len(events(tournament_id)) == before
    entrant.refresh_from_db()
    assert (entrant.name, entrant.seed) == ("Player 2", 2)


def test_a_correction_without_a_reason_changes_nothing(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    before = len(events(tournament_id))

    response = admin_client.post(entrant_page(entrant), {"name": "Tampered"})

    assert response.status_code == 200
    assert "reason" in response.context["adminform"].form.errors
    assert len(events(tournament_id)) == before
    assert entrant_named(tournament_id, "Player 1").pk == entrant.pk


def test_after_the_start_the_seed_is_fixed_but_names_can_be_corrected(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2, started=True).id
    entrant = entrant_named(tournament_id, "Player 1")
    before = len(events(tournament_id))

    page = admin_client.get(entrant_page(entrant))
    response = admin_client.post(
        entrant_page(entrant), correction(entrant, name="Rossi", seed="9", reason="typo")
    )

    assert page.context["adminform"].form.fields["seed"].disabled
    assert response.status_code == 302
    assert [e.event_type for e in events(tournament_id)[before:]] == ["EntrantCorrected"]
    entrant.refresh_from_db()
    assert (entrant.name, entrant.seed) == ("Rossi", 1)


def test_an_entrant_cannot_be_deleted(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    delete = reverse("admin:tournaments_entrant_delete", args=[entrant.pk])

    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Entrant.objects.filter(pk=entrant.pk).exists()


# The Seeds form of the tournament's page.


def test_the_tournaments_page_lists_every_entrant_with_a_seed_input(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=3).id
    tournament_registration.entrant_withdraw(
        tournament_id=tournament_id,
        entrant_id=entrant_named(tournament_id, "Player 3").id,
        reason="ill",
        actor=ORGANIZER,
    )

    page = admin_client.get(tournament_page(tournament_id))

    form = page.context["seeds_form"]
    assert [(entrant.name, field.initial) for entrant, field in form.rows()] == [
        ("Player 1", 1),
        ("Player 2", 2),
    ]
    html = page.content.decode()
    assert f'action="{seeds_url(tournament_id)}"' in html
    assert html.count('<input type="number" name="seed_') == 2


def test_swapping_two_seeds_on_the_seeds_form_is_one_reseed(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create(entrants=3).id
    first, second, third = (entrant_named(tournament_id, f"Player {n}") for n in (1, 2, 3))
    before = len(events(tournament_id))

    response = admin_client.post(
        seeds_url(tournament_id),
        {
            f"seed_{first.id}": "2",
            f"seed_{second.id}": "1",
            f"seed_{third.id}": "3",
            "reason": "last year's ranking",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == tournament_page(tournament_id)
    (recorded,) = events(tournament_id)[before:]
    assert recorded.event_type == "EntrantsReseeded"
    assert recorded.payload == {
        "seeds": sorted([[first.id, 2], [second.id, 1]]),
        "reason": "last year's ranking",
    }
    assert recorded.metadata.actor_id == admin_user.pk
    seeds = dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("name", "seed"))
    assert seeds == {"Player 1": 2, "Player 2": 1, "Player 3": 3}
    assert messages_of(admin_client, response) == ["Circolo: 2 seed(s) changed."]


def test_a_seeds_form_with_two_entrants_on_one_seed_comes_back_with_the_error(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first, second = (entrant_named(tournament_id, f"Player {n}") for n in (1, 2))
    before = len(events(tournament_id))

    response = admin_client.post(
        seeds_url(tournament_id),
        {f"seed_{first.id}": "1", f"seed_{second.id}": "1", "reason": "oops"},
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert form.non_field_errors() == [
        "seed 1 would be held by more than one entrant: Player 1, Player 2"
    ]
    assert form[f"seed_{second.id}"].value() == "1"
    assert len(events(tournament_id)) == before


def test_a_seeds_form_sent_after_the_start_is_refused_on_the_page(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first, second = (entrant_named(tournament_id, f"Player {n}") for n in (1, 2))
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    page = admin_client.get(tournament_page(tournament_id))
    response = admin_client.post(
        seeds_url(tournament_id),
        {f"seed_{first.id}": "2", f"seed_{second.id}": "1", "reason": "late"},
    )

    assert page.context["seeds_form"] is None
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "seeds can be changed only before the tournament starts"
    ]


def test_the_start_after_the_seeds_form_draws_by_the_new_seeds(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=4).id
    entrants = {n: entrant_named(tournament_id, f"Player {n}") for n in (1, 2, 3, 4)}
    new_seeds = {1: 4, 2: 2, 3: 3, 4: 1}
    admin_client.post(
        seeds_url(tournament_id),
        {f"seed_{entrants[n].id}": str(seed) for n, seed in new_seeds.items()}
        | {"reason": "ranking"},
    )

    admin_client.post(reverse("admin:tournaments_tournament_run", args=[tournament_id, "start"]))

    started_with = next(e for e in events(tournament_id) if e.event_type == "TournamentStarted")
    assert started_with.payload["order"] == [entrants[n].id for n in (4, 2, 3, 1)]


# Registering: a duplicate name is confirmed on the add form and in the CSV import.


def test_adding_an_entrant_named_like_another_asks_for_confirmation(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=1).id
    url = reverse("admin:tournaments_entrant_add")
    form = {"tournament": str(tournament_id), "name": "PLAYER 1", "players": "Other"}

    warned = admin_client.post(url, form)
    confirmed = admin_client.post(url, form | {"confirm_duplicate_name": "on"})

    assert warned.status_code == 200
    assert "already called Player 1" in warned.content.decode()
    assert 'type="checkbox" name="confirm_duplicate_name"' in warned.content.decode()
    assert confirmed.status_code == 302
    assert Entrant.objects.filter(tournament_id=tournament_id).count() == 2


def test_importing_a_name_already_registered_needs_the_box_ticked(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=1).id
    url = reverse("admin:tournaments_tournament_import_entrants", args=[tournament_id])

    def upload(**fields: str) -> Any:
        csv = SimpleUploadedFile("entrants.csv", b"Player 1,Somebody\nVerdi,Verdi\n")
        return admin_client.post(url, {"file": csv, **fields})

    refused = upload()
    imported = upload(confirm_duplicate_names="on")

    assert refused.status_code == 200
    assert "line 1: another entrant of this tournament is already called Player 1" in (
        refused.content.decode()
    )
    assert imported.status_code == 302
    assert Entrant.objects.filter(tournament_id=tournament_id).count() == 3
