"""Players' sign-up through the API (issue 26 §1, decision record 0053): `POST registrations/`
open to anyone who may read the tournament, its answers and refusals, the organizer's list and
actions, the contact kept out of every event, the player key stored by its hash, throttling."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.keys import hash_key
from games.eventstore.api import read_stream
from tests.factories.tournaments import ApiTournamentFactory
from tests.tournaments.api.builders import entrant_url, register, tournament_url
from tournaments.models import Application, PlayerKey
from tournaments.projections.rebuild import rebuild_rows, verify_rows
from tournaments.services.signup import application_erase, player_key_find, player_key_revoke

pytestmark = pytest.mark.django_db

OPEN = {"open": True}


def sign_up_tournament(client: APIClient, **registration: Any) -> str:
    created = ApiTournamentFactory.create(
        client=client, format="round_robin", registration={**OPEN, **registration}
    )
    tournament_id: str = created["id"]
    return tournament_id


def payloads(tournament_id: str) -> str:
    """Every event of the tournament, as one JSON text."""
    return json.dumps([event.payload for event in read_stream(stream_id=UUID(tournament_id))])


def apply(client: APIClient, tournament_id: str, name: str, **fields: Any) -> Any:
    return client.post(
        tournament_url(tournament_id, "registrations"), {"name": name, **fields}, format="json"
    )


def test_a_tournament_is_created_closed_to_sign_up_unless_its_registration_says_otherwise(
    organizer: APIClient,
) -> None:
    closed = ApiTournamentFactory.create(client=organizer)
    opened = ApiTournamentFactory.create(
        client=organizer, registration={"open": True, "cap": 8, "waitlist": True}
    )

    assert closed["registration"] == {
        "open": False,
        "closes_at": None,
        "cap": None,
        "waitlist": False,
        "approval": False,
    }
    assert opened["registration"] == {
        "open": True,
        "closes_at": None,
        "cap": 8,
        "waitlist": True,
        "approval": False,
    }


def test_the_organizer_changes_the_registration_before_the_start(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    changed = organizer.patch(
        tournament_url(tournament_id, "registration"),
        {"open": True, "cap": 4, "approval": True},
        format="json",
    )

    assert changed.status_code == 200
    assert changed.json()["registration"]["cap"] == 4
    assert read_stream(stream_id=UUID(tournament_id))[-1].event_type == "RegistrationChanged"
    assert organizer.get(tournament_url(tournament_id)).json()["registration"]["approval"]


def test_anyone_signs_up_while_registration_is_open_and_enters_with_a_player_key(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer)

    response = apply(anonymous, tournament_id, "Rossi", contact="rossi@example.org")

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"entrant", "status", "position", "player_key"}
    assert (body["status"], body["position"]) == ("entered", None)
    entrants = organizer.get(tournament_url(tournament_id)).json()["entrants"]
    assert [(e["id"], e["name"]) for e in entrants] == [(body["entrant"], "Rossi")]
    stored = PlayerKey.objects.get()
    assert stored.key_hash == hash_key(body["player_key"])
    assert body["player_key"] not in json.dumps(
        [e.payload for e in read_stream(stream_id=UUID(tournament_id))]
    )
    assert player_key_find(body["player_key"]) == stored


def test_over_the_cap_an_application_waits_with_its_place_and_without_a_list_it_is_full(
    organizer: APIClient, anonymous: APIClient
) -> None:
    waiting = sign_up_tournament(organizer, cap=1, waitlist=True)
    full = sign_up_tournament(organizer, cap=1)
    for tournament_id in (waiting, full):
        assert apply(anonymous, tournament_id, "Rossi").status_code == 201

    second = apply(anonymous, waiting, "Bianchi").json()
    third = apply(anonymous, waiting, "Verdi").json()
    refused = apply(anonymous, full, "Bianchi")

    assert (second["entrant"], second["status"], second["position"]) == (None, "waitlisted", 1)
    assert (third["status"], third["position"]) == ("waitlisted", 2)
    assert refused.status_code == 422
    assert refused.json()["code"] == "tournament_full"


def test_with_approval_an_application_is_pending_until_the_organizer_approves_it(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, approval=True)

    pending = apply(anonymous, tournament_id, "Rossi").json()
    application = Application.objects.get()
    approved = organizer.post(
        tournament_url(tournament_id, "registrations", application.id, "approve"), format="json"
    )

    assert (pending["entrant"], pending["status"]) == (None, "pending")
    assert approved.status_code == 201
    [row] = approved.json()["applications"]
    assert row["status"] == "entered"
    assert row["entrant"] is not None


def test_the_organizer_declines_promotes_and_reorders_the_waiting_list(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, cap=1, waitlist=True)
    for name in ("Rossi", "Bianchi", "Verdi", "Neri"):
        apply(anonymous, tournament_id, name)
    ids = {a.name: a.id for a in Application.objects.all()}

    reordered = organizer.patch(
        tournament_url(tournament_id, "registrations", "order"),
        {"order": [ids["Neri"], ids["Bianchi"], ids["Verdi"]]},
        format="json",
    )
    declined = organizer.post(
        tournament_url(tournament_id, "registrations", ids["Bianchi"], "decline"),
        {"reason": "not a member"},
        format="json",
    )
    full = organizer.post(
        tournament_url(tournament_id, "registrations", ids["Verdi"], "promote"), format="json"
    )
    raised = organizer.patch(
        tournament_url(tournament_id, "registration"), {"open": True, "cap": 2}, format="json"
    )
    assert raised.status_code == 200, raised.json()
    promoted = organizer.post(
        tournament_url(tournament_id, "registrations", ids["Verdi"], "promote"), format="json"
    )

    assert reordered.status_code == 200
    waiting = [r["name"] for r in reordered.json()["applications"] if r["status"] == "waitlisted"]
    assert waiting == ["Neri", "Bianchi", "Verdi"]
    assert declined.status_code == 201
    assert full.json()["code"] == "tournament_full"
    assert promoted.status_code == 201, promoted.json()
    statuses = {r["name"]: (r["status"], r["position"]) for r in promoted.json()["applications"]}
    assert statuses == {
        "Rossi": ("entered", None),
        "Verdi": ("entered", None),
        "Neri": ("waitlisted", 1),
        "Bianchi": ("declined", None),
    }


def test_a_withdrawal_before_the_start_promotes_the_first_on_the_waiting_list(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, cap=1, waitlist=True)
    first = apply(anonymous, tournament_id, "Rossi").json()
    apply(anonymous, tournament_id, "Bianchi")

    withdrawn = organizer.post(
        entrant_url(tournament_id, first["entrant"], "withdraw"), {"reason": "ill"}, format="json"
    )

    assert withdrawn.status_code == 201
    entrants = organizer.get(tournament_url(tournament_id)).json()["entrants"]
    assert {e["name"]: e["withdrawn"] for e in entrants} == {"Rossi": True, "Bianchi": False}
    types = [e.event_type for e in read_stream(stream_id=UUID(tournament_id))][-3:]
    assert types == ["EntrantWithdrew", "ApplicationPromoted", "EntrantRegistered"]


@pytest.mark.parametrize(
    "registration",
    [{"open": False}, {"open": True, "closes_at": "2020-01-01T00:00:00Z"}],
    ids=["not open", "after its closing time"],
)
def test_an_application_is_refused_while_registration_is_closed(
    organizer: APIClient, anonymous: APIClient, registration: dict[str, Any]
) -> None:
    tournament_id = sign_up_tournament(organizer, **registration)

    refused = apply(anonymous, tournament_id, "Rossi")

    assert refused.status_code == 409
    assert refused.json()["code"] == "registration_closed"
    assert not Application.objects.exists()


def test_an_application_is_refused_once_the_tournament_has_started(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer)
    apply(anonymous, tournament_id, "Rossi")
    apply(anonymous, tournament_id, "Bianchi")
    organizer.post(tournament_url(tournament_id, "start"), format="json")

    refused = apply(anonymous, tournament_id, "Verdi")

    assert refused.json()["code"] == "registration_closed"


def test_a_name_an_entrant_or_another_application_has_is_refused(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, approval=True)
    register(organizer, tournament_id, "Rossi")
    apply(anonymous, tournament_id, "Bianchi")

    refusals = [apply(anonymous, tournament_id, name) for name in ("rossi", "BIANCHI")]

    assert [r.json()["code"] for r in refusals] == ["duplicate_entrant_name"] * 2


def test_a_pair_signs_up_with_its_players_names(organizer: APIClient, anonymous: APIClient) -> None:
    created = ApiTournamentFactory.create(
        client=organizer, format="round_robin", table_size=4, registration=OPEN
    )

    missing = apply(anonymous, created["id"], "I Lupi")
    entered = apply(anonymous, created["id"], "I Lupi", players=["Anna", "Bruno"])

    assert missing.json()["code"] == "players_required"
    assert entered.status_code == 201
    [entrant] = organizer.get(tournament_url(created["id"])).json()["entrants"]
    assert entrant["players"] == ["Anna", "Bruno"]


def test_a_private_tournament_is_not_found_for_an_outsider_signing_up(
    organizer: APIClient, anonymous: APIClient
) -> None:
    created = ApiTournamentFactory.create(client=organizer, public=False, registration=OPEN)

    refused = apply(anonymous, created["id"], "Rossi")

    assert refused.status_code == 404
    assert refused.json()["code"] == "tournament_not_found"


def test_only_the_organizer_lists_the_applications(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer)
    apply(anonymous, tournament_id, "Rossi", contact="+39 333 1234567")

    listed = organizer.get(tournament_url(tournament_id, "registrations"))
    refused = anonymous.get(tournament_url(tournament_id, "registrations"))

    assert listed.json()["applications"][0]["contact"] == "+39 333 1234567"
    assert refused.status_code in (401, 403)


def test_the_contact_is_in_no_event_and_is_erased_with_the_application(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, cap=1, waitlist=True)
    apply(anonymous, tournament_id, "Rossi", contact="rossi@example.org")
    apply(anonymous, tournament_id, "Bianchi", contact="+39 333 7654321")

    recorded = payloads(tournament_id)
    waiting = Application.objects.get(name="Bianchi")
    application_erase(application=waiting)

    assert "rossi@example.org" not in recorded
    assert "7654321" not in recorded
    assert "Bianchi" not in recorded
    waiting.refresh_from_db()
    assert (waiting.name, waiting.contact, waiting.erased) == ("", "", True)


def test_a_repeated_request_answers_the_same_application_and_key(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer)
    url = tournament_url(tournament_id, "registrations")

    first = anonymous.post(url, {"name": "Rossi"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = anonymous.post(url, {"name": "Rossi"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert Application.objects.count() == 1
    assert PlayerKey.objects.count() == 1


def test_a_revoked_player_key_is_found_no_more(organizer: APIClient, anonymous: APIClient) -> None:
    tournament_id = sign_up_tournament(organizer)
    key = apply(anonymous, tournament_id, "Rossi").json()["player_key"]

    player_key_revoke(application=Application.objects.get())

    assert player_key_find(key) is None


def test_sign_ups_are_throttled_per_address(organizer: APIClient, anonymous: APIClient) -> None:
    tournament_id = sign_up_tournament(organizer)
    framework = settings.REST_FRAMEWORK
    rates = {**framework["DEFAULT_THROTTLE_RATES"], "signup": "2/hour"}

    with override_settings(REST_FRAMEWORK={**framework, "DEFAULT_THROTTLE_RATES": rates}):
        answers = [apply(anonymous, tournament_id, f"Player {n}") for n in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[-1].json()["code"] == "throttled"
    assert Application.objects.count() == 2


def test_the_rows_of_a_tournament_filled_by_sign_up_are_rebuilt_from_its_events(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = sign_up_tournament(organizer, cap=2, waitlist=True)
    entered = [apply(anonymous, tournament_id, name).json() for name in ("Rossi", "Bianchi")]
    apply(anonymous, tournament_id, "Verdi")
    organizer.post(entrant_url(tournament_id, entered[0]["entrant"], "withdraw"), format="json")
    before = organizer.get(tournament_url(tournament_id)).json()

    rebuild_rows()

    assert verify_rows() == []
    after = organizer.get(tournament_url(tournament_id)).json()
    assert after["entrants"] == before["entrants"]
    assert after["registration"] == before["registration"]
