"""Late entrants, requested byes and pauses in a Swiss through the API (decision record 0058):
a late entrant joins round 3 with zero or a bye's points, a requested bye is honoured and
scored (and refused with its code past the most allowed), a paused entrant sits out and
returns, the player asks for their own bye with their player key, and `rebuild_projections`
gives the same standings."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories.tournaments import TournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import (
    entrant_url,
    home_wins,
    matches,
    play_round,
    read,
    register,
    started_tournament,
)
from tests.tournaments.api.test_me import ME, entrant_of, with_key
from tournaments.models import TournamentView
from tournaments.projections import consumer
from tournaments.state import Registration

pytestmark = pytest.mark.django_db

SWISS = {"format": "swiss", "swiss_rounds": 4}


def standings_by_entrant(client: APIClient, tournament_id: str) -> dict[int, dict[str, Any]]:
    return {row["entrant"]: row for row in read(client, tournament_id, "standings").json()}


def drawn_in(client: APIClient, tournament_id: str, number: int) -> set[int]:
    return {
        entrant
        for match in matches(client, tournament_id)
        if match["round"] == number
        for entrant in match["entrants"]
    }


@pytest.mark.parametrize(("missed", "points"), [("zero", 0), ("bye", 4)])
def test_a_late_entrant_registered_during_round_two_joins_round_three(
    organizer: APIClient, missed: str, points: int
) -> None:
    tournament_id, _ = started_tournament(
        organizer, 6, **SWISS, late_entry_until_round=3, late_entry_points=missed
    )
    consumer.consume()
    play_round(organizer, tournament_id, home_wins)

    late = register(organizer, tournament_id, "Ritardo")["id"]
    play_round(organizer, tournament_id, home_wins)

    assert late not in drawn_in(organizer, tournament_id, 2)
    assert late in drawn_in(organizer, tournament_id, 3)
    row = standings_by_entrant(organizer, tournament_id)[late]
    assert row["match_points"] == points
    kind = "late_entry_bye" if missed == "bye" else "late_entry"
    assert row["sat_out"] == [{"round": 1, "kind": kind}, {"round": 2, "kind": kind}]
    byes = organizer.get(entrant_url(tournament_id, late, "byes")).json()
    assert byes["from_round"] == 3


def test_a_requested_bye_is_honoured_scored_refused_past_the_most_allowed_and_rebuilt(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = started_tournament(organizer, 6, **SWISS)
    first = entrants[0]

    asked = post(organizer, entrant_url(tournament_id, first, "byes"), {"round": 2})
    again = post(organizer, entrant_url(tournament_id, first, "byes"), {"round": 3})
    drawn = post(organizer, entrant_url(tournament_id, entrants[1], "byes"), {"round": 1})
    consumer.consume()
    play_round(organizer, tournament_id, home_wins)
    consumer.consume()

    assert asked.status_code == 201, asked.json()
    assert asked.json()["requested_byes"] == [2]
    assert (again.status_code, again.json()["code"]) == (409, "too_many_byes")
    assert (drawn.status_code, drawn.json()["code"]) == (409, "round_already_drawn")
    assert first not in drawn_in(organizer, tournament_id, 2)
    row = standings_by_entrant(organizer, tournament_id)[first]
    assert row["match_points"] == 2 + 1  # won round 1, half a win for the requested bye
    assert row["sat_out"] == [{"round": 2, "kind": "requested_bye"}]
    page = organizer.get(reverse("pages:tournament-detail", args=[tournament_id]))
    assert "round 2: requested bye" in page.content.decode()
    before = TournamentView.objects.get(tournament_id=tournament_id).standings
    call_command("rebuild_projections", "--quiet")
    assert TournamentView.objects.get(tournament_id=tournament_id).standings == before


def test_a_requested_bye_is_taken_back_before_its_round_and_refused_outside_a_swiss(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = started_tournament(organizer, 6, **SWISS)
    created(post(organizer, entrant_url(tournament_id, entrants[0], "byes"), {"round": 3}))

    cancelled = organizer.delete(entrant_url(tournament_id, entrants[0], "byes", 3))
    twice = organizer.delete(entrant_url(tournament_id, entrants[0], "byes", 3))
    knockout, others = started_tournament(organizer, 4)
    refused = post(organizer, entrant_url(knockout, others[0], "byes"), {"round": 2})

    assert cancelled.status_code == 200
    assert cancelled.json()["requested_byes"] == []
    assert (twice.status_code, twice.json()["code"]) == (409, "bye_not_requested")
    assert (refused.status_code, refused.json()["code"]) == (422, "not_a_swiss")


def test_a_paused_entrant_sits_out_without_points_and_returns(organizer: APIClient) -> None:
    tournament_id, entrants = started_tournament(organizer, 6, **SWISS)
    paused = entrants[5]

    answer = post(organizer, entrant_url(tournament_id, paused, "pause"), {"reason": "at work"})
    consumer.consume()
    play_round(organizer, tournament_id, home_wins)
    returned = post(organizer, entrant_url(tournament_id, paused, "return"), {})
    play_round(organizer, tournament_id, home_wins)

    assert answer.status_code == 201
    assert answer.json()["paused"] is True
    assert returned.json()["paused"] is False
    assert paused not in drawn_in(organizer, tournament_id, 2)
    assert paused in drawn_in(organizer, tournament_id, 3)
    row = standings_by_entrant(organizer, tournament_id)[paused]
    assert {"round": 2, "kind": "absent"} in row["sat_out"]


def test_a_player_asks_for_their_own_bye_with_their_player_key(
    organizer: APIClient,  # noqa: ARG001 - the organizer's club
) -> None:
    tournament = TournamentFactory.create(
        format="swiss",
        swiss_rounds=3,
        entrants=3,
        signed_up=["Rossi"],
        registration=Registration(open=True),
        started=True,
        projected=True,
    )
    rossi = with_key(tournament, "Rossi")
    offered = rossi.get(ME).json()["byes"]

    asked = rossi.post(f"{ME}byes/", {"round": 2}, format="json")
    again = rossi.post(f"{ME}byes/", {"round": 3}, format="json")
    anothers = rossi.post(
        entrant_url(tournament.id, entrant_of(tournament, "Rossi"), "byes"),
        {"round": 3},
        format="json",
    )

    assert offered == {
        "entrant": entrant_of(tournament, "Rossi"),
        "requested_byes": [],
        "paused": False,
        "from_round": None,
        "next_round": 2,
        "may_request_next": True,
    }
    assert asked.status_code == 201, asked.json()
    assert asked.json()["byes"]["requested_byes"] == [2]
    assert asked.json()["byes"]["may_request_next"] is False
    assert (again.status_code, again.json()["code"]) == (409, "too_many_byes")
    assert anothers.status_code == 403  # a player key acts from /me/ only (decision 0055)
