"""The player's own API (issue 26 §2 and §3, decision record 0055): `GET /me/` with a player key
answers the entry, its match, table and call, results and place; the player checks in, withdraws
before the start, confirms or disputes their side's result, recorded with the entrant as the
actor; and every refusal with its code: no key, another's key, a revoked key, an entry that is
not entered, a match that is not theirs, and anything of another tournament."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.api.builders import entrant_url, tournament_url
from tests.tournaments.builders import call, play
from tournaments.models import Application, Fixture, Tournament
from tournaments.selectors.console import evening
from tournaments.services import registration, running, scheduling
from tournaments.services.signup import player_key_revoke
from tournaments.state import Registration

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"
WAITING_LIST = Registration(open=True, cap=2, waitlist=True)


def signed_up(*names: str, **fields: Any) -> Tournament:
    """A knockout that players signed up for (capped at two, with a waiting list)."""
    fields.setdefault("registration", WAITING_LIST)
    fields.setdefault("tables", 8)
    tournament: Tournament = TournamentFactory.create(entrants=0, signed_up=names, **fields)
    return tournament


def with_key(tournament: Tournament, name: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tournament.player_keys[name]}")  # type: ignore[attr-defined]
    return client


def entrant_of(tournament: Tournament, name: str) -> int:
    entrant: int = Application.objects.get(tournament=tournament, name=name).entrant_id  # type: ignore[assignment]
    return entrant


def started_with_tables(tournament: Tournament) -> Fixture:
    """Start it and put its one match at table 7."""
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    [fixture] = Fixture.objects.filter(tournament=tournament)
    scheduling.fixture_table_assign(match_id=fixture.match_id, table=7, actor=ORGANIZER)
    return fixture


def test_a_player_reads_their_entry_and_a_waitlisted_player_their_place() -> None:
    tournament = signed_up("Rossi", "Bianchi", "Verdi")

    rossi = with_key(tournament, "Rossi").get(ME)
    verdi = with_key(tournament, "Verdi").get(ME).json()

    assert rossi.status_code == 200
    body = rossi.json()
    assert body["tournament"]["id"] == str(tournament.id)
    assert body["tournament"]["status"] == "registration"
    assert body["tournament"]["standings_url"] == tournament_url(tournament.id, "standings")
    assert body["entry"] | {"application": 0} == {
        "application": 0,
        "name": "Rossi",
        "players": [],
        "status": "entered",
        "position": None,
        "entrant": entrant_of(tournament, "Rossi"),
        "checked_in": False,
    }
    assert body["may_withdraw"] is True
    assert body["may_check_in"] is False  # the organizer has not opened the window
    assert body["next_match"] is None
    assert verdi["entry"]["status"] == "waitlisted"
    assert verdi["entry"]["position"] == 1
    assert verdi["may_withdraw"] is False


def test_a_player_checks_in_only_while_the_organizer_has_the_window_open() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    rossi = with_key(tournament, "Rossi")

    before = rossi.post(f"{ME}check-in/", format="json")
    registration.check_in_open(tournament_id=tournament.id, actor=ORGANIZER)
    checked_in = rossi.post(f"{ME}check-in/", format="json")
    again = rossi.post(f"{ME}check-in/", format="json")
    registration.check_in_close(tournament_id=tournament.id, actor=ORGANIZER)
    closed = with_key(tournament, "Bianchi").post(f"{ME}check-in/", format="json")

    assert before.status_code == 422
    assert before.json()["code"] == "check_in_closed"
    assert checked_in.status_code == 201
    assert checked_in.json()["entry"]["checked_in"] is True
    assert again.status_code == 200
    assert closed.json()["code"] == "check_in_closed"
    [event] = [
        e for e in read_stream(stream_id=tournament.id) if e.event_type == "EntrantCheckedIn"
    ]
    assert event.payload["entrant"] == entrant_of(tournament, "Rossi")
    assert event.metadata.entrant == entrant_of(tournament, "Rossi")
    assert event.metadata.actor_id is None
    assert event.metadata.device == tournament.player_keys["Rossi"][:11]  # type: ignore[attr-defined]


def test_a_player_withdraws_before_the_start_and_the_first_waiting_enters_in_their_place() -> None:
    tournament = signed_up("Rossi", "Bianchi", "Verdi")

    withdrawn = with_key(tournament, "Rossi").post(
        f"{ME}withdraw/", {"reason": "ill"}, format="json"
    )
    verdi = with_key(tournament, "Verdi").get(ME).json()

    assert withdrawn.status_code == 201
    assert withdrawn.json()["entry"]["status"] == "withdrawn"
    assert withdrawn.json()["may_withdraw"] is False
    assert verdi["entry"]["status"] == "entered"
    types = [e.event_type for e in read_stream(stream_id=tournament.id)][-3:]
    assert types == ["EntrantWithdrew", "ApplicationPromoted", "EntrantRegistered"]


def test_what_only_an_entered_player_does_is_refused_to_a_waiting_one_and_after_the_start() -> None:
    tournament = signed_up("Rossi", "Bianchi", "Verdi")
    registration.check_in_open(tournament_id=tournament.id, actor=ORGANIZER)
    verdi = with_key(tournament, "Verdi")

    not_in = [verdi.post(f"{ME}{action}/", format="json") for action in ("check-in", "withdraw")]
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    too_late = with_key(tournament, "Rossi").post(f"{ME}withdraw/", format="json")

    assert [(r.status_code, r.json()["code"]) for r in not_in] == [(409, "not_entered")] * 2
    assert too_late.status_code == 409
    assert too_late.json()["code"] == "tournament_started"
    assert with_key(tournament, "Verdi").get(ME).json()["entry"]["status"] == "waitlisted"


def test_a_player_who_withdrew_checks_in_no_more() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    registration.check_in_open(tournament_id=tournament.id, actor=ORGANIZER)
    rossi = with_key(tournament, "Rossi")
    rossi.post(f"{ME}withdraw/", format="json")

    refused = rossi.post(f"{ME}check-in/", format="json")

    assert refused.status_code == 409
    assert refused.json()["code"] == "entrant_withdrawn"


def test_a_player_sees_their_match_its_table_and_its_call_as_soon_as_it_is_called() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    fixture = started_with_tables(tournament)
    rossi = with_key(tournament, "Rossi")

    waiting = rossi.get(ME).json()["next_match"]
    call(fixture.match_id)
    called = rossi.get(ME).json()

    assert waiting["id"] == str(fixture.match_id)
    assert waiting["table"] == 7
    assert waiting["called"] is False
    assert waiting["opponents"] == ["Bianchi"]
    assert waiting["status"] == "not_started"
    assert called["next_match"]["called"] is True
    assert called["tournament"]["status"] == "in_progress"
    assert called["may_withdraw"] is False


def test_players_confirm_and_dispute_their_own_side_and_the_organizer_sees_the_reason() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    fixture = started_with_tables(tournament)
    rossi, bianchi = with_key(tournament, "Rossi"), with_key(tournament, "Bianchi")
    confirm = f"{ME}matches/{fixture.match_id}/confirm/"
    dispute = f"{ME}matches/{fixture.match_id}/dispute/"

    early = rossi.post(confirm, format="json")
    play(fixture.match_id, winner=0)
    confirmed = rossi.post(confirm, format="json")
    twice = rossi.post(confirm, format="json")
    blank = bianchi.post(dispute, {"reason": " "}, format="json")
    disputed = bianchi.post(dispute, {"reason": "we had 62, not 40"}, format="json")

    assert early.status_code == 422
    assert early.json()["code"] == "match_not_finished"
    assert confirmed.status_code == 201
    rossi_side = fixture.entrant_ids.index(entrant_of(tournament, "Rossi"))
    [mine] = confirmed.json()["results"]
    assert mine["confirmed"] is True
    assert mine["side"] == rossi_side
    assert mine["outcome"] == ("won" if rossi_side == 0 else "lost")
    assert confirmed.json()["next_match"] is None
    assert twice.status_code == 409
    assert twice.json()["code"] == "result_already_confirmed"
    assert blank.status_code == 422
    assert blank.json()["code"] == "reason_required"
    assert disputed.status_code == 201
    [theirs] = disputed.json()["results"]
    assert theirs["disputed"] is True
    assert theirs["dispute_reason"] == "we had 62, not 40"
    events = read_stream(stream_id=fixture.match_id)
    [confirmation] = [e for e in events if e.event_type == "ResultConfirmed"]
    assert confirmation.payload["side"] == rossi_side
    assert confirmation.metadata.entrant == entrant_of(tournament, "Rossi")
    [line] = evening(tournament_id=tournament.id, now=timezone.now()).flagged
    [(side, reason)] = [(d.side, d.reason) for d in line.disputes]
    assert (side, reason) == ("Bianchi", "we had 62, not 40")


def test_a_match_that_is_not_the_player_s_is_not_found() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    other = TournamentFactory.create(entrants=2, started=True)
    [their_match] = Fixture.objects.filter(tournament=other)
    play(their_match.match_id, winner=0)

    refused = with_key(tournament, "Rossi").post(
        f"{ME}matches/{their_match.match_id}/confirm/", format="json"
    )

    assert refused.status_code == 404
    assert refused.json()["code"] == "match_not_found"


def test_only_a_player_key_opens_the_player_s_endpoints(organizer: APIClient) -> None:
    tournament = signed_up("Rossi", "Bianchi")
    unknown = APIClient()
    unknown.credentials(HTTP_AUTHORIZATION="Token pk_" + "x" * 43)
    revoked = with_key(tournament, "Rossi")
    player_key_revoke(application=Application.objects.get(name="Rossi"))

    answers = {
        "anonymous": APIClient().get(ME),
        "an account": organizer.get(ME),
        "an unknown key": unknown.get(ME),
        "a revoked key": revoked.post(f"{ME}check-in/", format="json"),
    }

    assert {who: (r.status_code, r.json()["code"]) for who, r in answers.items()} == {
        "anonymous": (401, "not_authenticated"),
        "an account": (403, "permission_denied"),
        "an unknown key": (401, "authentication_failed"),
        "a revoked key": (401, "player_key_revoked"),
    }
    assert answers["a revoked key"].json()["detail"] == (
        "This player key was revoked: ask the organizer for a new one."
    )


def test_a_player_key_reads_its_own_tournament_and_nothing_else() -> None:
    tournament = signed_up("Rossi", "Bianchi", public=False)
    other = signed_up("Neri", "Gialli")
    fixture = started_with_tables(tournament)
    play(fixture.match_id, winner=0)
    rossi = with_key(tournament, "Rossi")
    bianchi = entrant_of(tournament, "Bianchi")

    own = rossi.get(tournament_url(tournament.id))
    elsewhere = rossi.get(tournament_url(other.id))
    sign_up_elsewhere = rossi.post(
        tournament_url(other.id, "registrations"), {"name": "Rosa"}, format="json"
    )
    as_organizer = rossi.post(entrant_url(tournament.id, bianchi, "withdraw"), format="json")
    as_the_table = rossi.post(
        f"/api/v1/matches/{fixture.match_id}/confirm/", {"side": 0}, format="json"
    )
    free_standing = rossi.post(
        "/api/v1/matches/", {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]}
    )

    assert own.status_code == 200  # a private tournament: its players' keys read it
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (404, "tournament_not_found")
    assert sign_up_elsewhere.status_code == 404
    assert as_organizer.status_code == 403
    assert as_organizer.json()["detail"] == (
        f"The player key {tournament.player_keys['Rossi'][:11]}… acts only on its own entry, "  # type: ignore[attr-defined]
        "from the player's page."
    )
    assert as_the_table.status_code == 403
    assert free_standing.status_code == 401
    assert with_key(other, "Neri").get(tournament_url(tournament.id)).status_code == 404
    assert not [e for e in read_stream(stream_id=UUID(str(fixture.match_id))) if e.metadata.entrant]


def test_the_refusals_speak_italian() -> None:
    tournament = signed_up("Rossi", "Bianchi", "Verdi")

    refused = with_key(tournament, "Verdi").post(
        f"{ME}check-in/", format="json", headers={"accept-language": "it"}
    )

    assert refused.json()["code"] == "not_entered"
    assert refused.json()["detail"].startswith("non sei ancora nel torneo")


def test_each_player_key_has_its_own_budget_though_the_players_share_one_address() -> None:
    tournament = signed_up("Rossi", "Bianchi")
    framework = settings.REST_FRAMEWORK
    tiny = {**framework["DEFAULT_THROTTLE_RATES"], "anon": "1/min", "user": "2/min"}

    with override_settings(REST_FRAMEWORK={**framework, "DEFAULT_THROTTLE_RATES": tiny}):
        rossi = [with_key(tournament, "Rossi").get(ME).status_code for _ in range(3)]
        bianchi = [with_key(tournament, "Bianchi").get(ME).status_code for _ in range(2)]
        anonymous = [APIClient().get(tournament_url(tournament.id)).status_code for _ in range(2)]

    assert rossi == [200, 200, 429]
    assert bianchi == [200, 200]
    assert anonymous == [200, 429]
