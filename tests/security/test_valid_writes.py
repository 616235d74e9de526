"""One valid command sent to every write of the API, with schemathesis: it is recorded, and its
answer is what the OpenAPI schema documents (generated bodies seldom make a legal command, so the
fuzz in test_api_fuzz.py rarely gets that far). Every write of the schema has its command here.

SKIP_API_FUZZ=1 leaves this module out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.core.result import Ok

from accounts.models import DeviceToken
from games.eventstore.api import last_position
from tests.factories.matches import ApiMatchFactory
from tests.factories.tournaments import ORGANIZER, ApiTournamentFactory, TournamentFactory
from tests.games.api.builders import a_correction, finished_card_round, post
from tests.security.fuzzing import (
    CHECKS,
    SKIPPED_BY_SWITCH,
    authorization,
    requests_in_process,
    schema,
)
from tests.security.world import World
from tests.tournaments.api.builders import (
    groups_tied_at_the_cut,
    home_wins,
    level_knockout_match,
    play_round,
    silent_round_drawn,
)
from tests.tournaments.builders import play
from tournaments.models import Application, Fixture, WebhookEndpoint
from tournaments.services import byes, registration
from tournaments.state import Registration

pytestmark = SKIPPED_BY_SWITCH


@dataclass(frozen=True)
class ValidCommand:
    label: str
    path: Callable[[World], dict[str, Any]] = lambda _world: {}
    body: Callable[[World], Any] = lambda _world: {}
    headers: dict[str, str] = field(default_factory=dict)
    prepare: Callable[[APIClient, World], object] = lambda _client, _world: None
    status: int = 201
    records_events: bool = True
    """Device tokens are ordinary rows, not events."""
    player_key: Callable[[], str] | None = None
    """Sent instead of the organizer's token: the player's own endpoints take a player key."""


PLAYER: dict[str, Any] = {}
"""A player who signed up for a knockout of two: their key, and their match once played."""


def player_signed_up(*, played: bool = False) -> None:
    tournament = TournamentFactory.create(
        entrants=1, signed_up=["Rossi"], registration=Registration(open=True), started=played
    )
    registration.check_in_open(tournament_id=tournament.id, actor=ORGANIZER)
    PLAYER["key"] = tournament.player_keys["Rossi"]  # type: ignore[attr-defined]
    if played:
        [fixture] = Fixture.objects.filter(tournament=tournament)
        play(fixture.match_id, winner=0)
        PLAYER["match"] = str(fixture.match_id)


SWISS: dict[str, Any] = {}
"""A Swiss of two in registration (decision record 0058): its id and first entrant, or a
player's key to it."""


def swiss_entrant(client: APIClient, *, bye: bool = False, paused: bool = False) -> None:
    created = ApiTournamentFactory.create(client=client, format="swiss", swiss_rounds=3)
    SWISS["tournament"] = created["id"]
    SWISS["entrant"] = post(
        client, f"/api/v1/tournaments/{created['id']}/entrants/", {"name": "Rossi"}
    ).json()["id"]
    entrant_url = f"/api/v1/tournaments/{created['id']}/entrants/{SWISS['entrant']}/"
    if bye:
        post(client, f"{entrant_url}byes/", {"round": 2})
    if paused:
        post(client, f"{entrant_url}pause/", {})


def swiss_player(*, bye: bool = False) -> None:
    tournament = TournamentFactory.create(
        format="swiss",
        swiss_rounds=3,
        entrants=1,
        signed_up=["Rossi"],
        registration=Registration(open=True),
    )
    SWISS["key"] = tournament.player_keys["Rossi"]  # type: ignore[attr-defined]
    if bye:
        entrant = Application.objects.get(tournament=tournament, name="Rossi").entrant_id
        assert entrant is not None
        byes.bye_request(
            tournament_id=tournament.id, entrant_id=entrant, round_number=2, actor=ORGANIZER
        )


def swiss_path(_world: World) -> dict[str, Any]:
    return {"tournament_id": SWISS["tournament"], "entrant_id": SWISS["entrant"]}


SIGNING_UP: dict[str, Any] = {}
"""A tournament open to sign-up and its applications (made by its command's `prepare`)."""


def signing_up(client: APIClient, names: tuple[str, ...] = (), **registration: Any) -> None:
    created = ApiTournamentFactory.create(
        client=client, registration={"open": True, **registration}
    )
    for name in names:
        post(client, f"/api/v1/tournaments/{created['id']}/registrations/", {"name": name})
    SIGNING_UP["tournament"] = created["id"]
    SIGNING_UP["applications"] = list(
        Application.objects.filter(tournament_id=created["id"]).values_list("id", flat=True)
    )


def an_application(_world: World) -> dict[str, Any]:
    return {
        "tournament_id": SIGNING_UP["tournament"],
        "application_id": SIGNING_UP["applications"][0],
    }


SILENT: dict[str, Any] = {}
"""A Swiss whose last round is silent (decision record 0060), made by its command's `prepare`."""


def silent_swiss(client: APIClient) -> None:
    SILENT["tournament"] = silent_round_drawn(client)


LEVEL: dict[str, Any] = {}
"""The level knockout match the organizer decides (made by its command's `prepare`)."""

TIED: dict[str, Any] = {}
"""The groups tied at the cut the organizer decides (made by its command's `prepare`)."""

FINISHED: dict[str, Any] = {}
"""A match whose round was played card by card, and a correction of it the rules accept (made
by its command's `prepare`)."""


def finish_a_round_of_cards(client: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=client, best_of=1)["id"]
    briscola, plays, dealer = finished_card_round(client, match_id)
    index, card, _points = a_correction(briscola, plays, dealer=dealer)
    FINISHED.update(match=match_id, play_index=index, card=card.code)


def live_round(world: World, play_index: int = 0) -> dict[str, Any]:
    return {"match_id": world.live_match, "round_number": 1, "play_index": play_index}


def open_entrant(world: World) -> dict[str, Any]:
    return {"tournament_id": world.open_tournament, "entrant_id": world.open_entrants[0]}


TWO_SIDES = [{"name": "Rossi"}, {"name": "Bianchi"}]
WRITES = ("post", "put", "patch", "delete")

VALID_COMMANDS = [
    ValidCommand("POST /api/v1/matches/", body=lambda _w: {"table_size": 2, "sides": TWO_SIDES}),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/",
        path=lambda w: {"match_id": w.fresh_match},
        body=lambda _w: {"briscola": "7D"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/plays/",
        path=live_round,
        body=lambda w: {"seat": w.next_play.seat, "card": w.next_play.card.code},
        headers={"Idempotency-Key": "card-1", "X-Device": "table 7"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/plays/batch/",
        path=live_round,
        body=lambda w: {"plays": [[w.next_play.seat, w.next_play.card.code]]},
        headers={"Idempotency-Key": "batch-1"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/plays/{play_index}/correct/",
        path=live_round,
        body=lambda w: {"card": w.next_play.card.code, "reason": "misread"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/score/",
        path=lambda w: {"match_id": w.points_match, "round_number": 1},
        body=lambda _w: {"points": [70, 50]},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/undo/",
        path=live_round,
        body=lambda _w: {"expected_version": 5},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/void/",
        path=live_round,
        body=lambda _w: {"reason": "misdeal"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/rule/",
        path=lambda w: {"match_id": w.finished_match, "round_number": 1},
        body=lambda _w: {"points": [80, 40], "reason": "the score sheet says so"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/rounds/{round_number}/correct/",
        prepare=lambda client, _w: finish_a_round_of_cards(client),
        path=lambda _w: {"match_id": FINISHED["match"], "round_number": 1},
        body=lambda _w: {
            "play_index": FINISHED["play_index"],
            "card": FINISHED["card"],
            "reason": "the score sheet says so",
        },
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/confirm/",
        path=lambda w: {"match_id": w.finished_match},
        body=lambda _w: {"side": 0},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/dispute/",
        path=lambda w: {"match_id": w.finished_match},
        body=lambda _w: {"side": 1, "reason": "we had 62 points"},
    ),
    ValidCommand(
        "POST /api/v1/matches/{match_id}/forfeit/",
        path=lambda w: {"match_id": w.live_match},
        body=lambda _w: {"side": 1, "reason": "left"},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/",
        body=lambda _w: {"name": "Coppa", "format": "round_robin", "table_size": 2},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"name": "Verdi", "players": ["Verdi"]},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/bulk/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"entrants": [{"name": "Neri"}, {"name": "Gialli", "seed": 12}]},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/check-in/",
        path=open_entrant,
        body=lambda _w: None,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/withdraw/",
        path=open_entrant,
        body=lambda _w: {"reason": "ill"},
    ),
    ValidCommand(
        "PATCH /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/",
        path=open_entrant,
        body=lambda _w: {
            "name": "Player One",
            "players": [{"name": "Player Uno", "replace": False}],
            "seed": 9,
            "reason": "misspelled",
        },
        headers={"Idempotency-Key": "fix-1"},
        status=200,
    ),
    ValidCommand(
        "PATCH /api/v1/tournaments/{tournament_id}/seeds/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda w: {
            "seeds": [
                {"entrant": w.open_entrants[0], "seed": 2},
                {"entrant": w.open_entrants[1], "seed": 1},
            ],
            "reason": "swapped",
        },
        headers={"Idempotency-Key": "swap-1"},
        status=200,
    ),
    ValidCommand(
        "PATCH /api/v1/tournaments/{tournament_id}/tables/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"tables": 3},
        headers={"Idempotency-Key": "tables-1"},
        status=200,
    ),
    ValidCommand(
        "PATCH /api/v1/tournaments/{tournament_id}/registration/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"open": True, "cap": 10, "waitlist": True},
        headers={"Idempotency-Key": "registration-1"},
        status=200,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/registrations/",
        prepare=lambda client, _w: signing_up(client),
        path=lambda _w: {"tournament_id": SIGNING_UP["tournament"]},
        body=lambda _w: {"name": "Newcomer", "contact": "newcomer@example.org"},
        headers={"Idempotency-Key": "sign-up-1"},
    ),
    *(
        ValidCommand(
            "POST /api/v1/tournaments/{tournament_id}/registrations/{application_id}/"
            f"{action}/",
            prepare=lambda client, _w: signing_up(client, ("Applicant",), approval=True),
            path=an_application,
            body=lambda _w: None,
        )
        for action in ("approve", "decline", "promote")
    ),
    ValidCommand(
        "PATCH /api/v1/tournaments/{tournament_id}/registrations/order/",
        prepare=lambda client, _w: signing_up(client, ("A", "B", "C"), cap=1, waitlist=True),
        path=lambda _w: {"tournament_id": SIGNING_UP["tournament"]},
        body=lambda _w: {"order": SIGNING_UP["applications"][:0:-1]},
        status=200,
    ),
    ValidCommand(
        "POST /api/v1/me/check-in/",
        prepare=lambda _c, _w: player_signed_up(),
        body=lambda _w: None,
        headers={"Idempotency-Key": "here-1"},
        player_key=lambda: PLAYER["key"],
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/byes/",
        prepare=lambda client, _w: swiss_entrant(client),
        path=swiss_path,
        body=lambda _w: {"round": 2},
    ),
    ValidCommand(
        "DELETE /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/byes/{round_number}/",
        prepare=lambda client, _w: swiss_entrant(client, bye=True),
        path=lambda w: {**swiss_path(w), "round_number": 2},
        body=lambda _w: None,
        status=200,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/pause/",
        prepare=lambda client, _w: swiss_entrant(client),
        path=swiss_path,
        body=lambda _w: {"reason": "at work"},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/entrants/{entrant_id}/return/",
        prepare=lambda client, _w: swiss_entrant(client, paused=True),
        path=swiss_path,
        body=lambda _w: None,
    ),
    ValidCommand(
        "POST /api/v1/me/byes/",
        prepare=lambda _c, _w: swiss_player(),
        body=lambda _w: {"round": 2},
        player_key=lambda: SWISS["key"],
    ),
    ValidCommand(
        "DELETE /api/v1/me/byes/{round_number}/",
        prepare=lambda _c, _w: swiss_player(bye=True),
        path=lambda _w: {"round_number": 2},
        body=lambda _w: None,
        status=200,
        player_key=lambda: SWISS["key"],
    ),
    ValidCommand(
        "POST /api/v1/me/withdraw/",
        prepare=lambda _c, _w: player_signed_up(),
        body=lambda _w: {"reason": "ill"},
        player_key=lambda: PLAYER["key"],
    ),
    ValidCommand(
        "POST /api/v1/me/matches/{match_id}/confirm/",
        prepare=lambda _c, _w: player_signed_up(played=True),
        path=lambda _w: {"match_id": PLAYER["match"]},
        body=lambda _w: None,
        player_key=lambda: PLAYER["key"],
    ),
    ValidCommand(
        "POST /api/v1/me/matches/{match_id}/dispute/",
        prepare=lambda _c, _w: player_signed_up(played=True),
        path=lambda _w: {"match_id": PLAYER["match"]},
        body=lambda _w: {"reason": "we had 62"},
        player_key=lambda: PLAYER["key"],
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/seed/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"method": "random", "random_seed": 4},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/start/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: None,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/next-round/",
        path=lambda w: {"tournament_id": w.started_tournament},
        body=lambda _w: None,
        prepare=lambda client, w: play_round(client, w.started_tournament, home_wins),
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/check-in/open/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: {"closes_at": "2099-01-01T20:00:00Z"},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/check-in/close/",
        path=lambda w: {"tournament_id": w.open_tournament},
        body=lambda _w: None,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/matches/{match_id}/call/",
        path=lambda w: {
            "tournament_id": w.started_tournament,
            "match_id": Fixture.objects.filter(tournament_id=w.started_tournament, status="ready")
            .order_by("id")
            .values_list("match_id", flat=True)
            .first(),
        },
        body=lambda _w: {"table": 1},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/matches/{match_id}/decide/",
        prepare=lambda client, _w: LEVEL.update(
            zip(("tournament", "match"), level_knockout_match(client), strict=True)
        ),
        path=lambda _w: {"tournament_id": LEVEL["tournament"], "match_id": LEVEL["match"]["id"]},
        body=lambda _w: {"winner": LEVEL["match"]["entrants"][1], "reason": "sorteggio"},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/groups/{label}/decide/",
        prepare=lambda client, _w: TIED.update(
            zip(("tournament", "entrants"), groups_tied_at_the_cut(client), strict=True)
        ),
        path=lambda _w: {"tournament_id": TIED["tournament"], "label": "A"},
        body=lambda _w: {"order": [TIED["entrants"][3], TIED["entrants"][0]], "reason": "lot"},
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/device-tokens/",
        path=lambda w: {"tournament_id": w.started_tournament},
        body=lambda _w: {"scorer": "scorer", "name": "tablet at table 1", "tables": [1]},
        records_events=False,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/device-tokens/{token_id}/revoke/",
        path=lambda w: {
            "tournament_id": w.started_tournament,
            "token_id": DeviceToken.objects.latest("id").pk,
        },
        body=lambda _w: None,
        prepare=lambda client, w: post(
            client,
            f"/api/v1/tournaments/{w.started_tournament}/device-tokens/",
            {"scorer": "scorer", "name": "tablet"},
        ),
        status=200,
        records_events=False,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/webhooks/",
        path=lambda w: {"tournament_id": w.started_tournament},
        body=lambda _w: {"url": "https://hooks.example.org/briscola"},
        records_events=False,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/webhooks/{endpoint_id}/deactivate/",
        path=lambda w: {
            "tournament_id": w.started_tournament,
            "endpoint_id": WebhookEndpoint.objects.latest("id").pk,
        },
        body=lambda _w: None,
        prepare=lambda client, w: post(
            client,
            f"/api/v1/tournaments/{w.started_tournament}/webhooks/",
            {"url": "https://hooks.example.org/briscola"},
        ),
        status=200,
        records_events=False,
    ),
    ValidCommand(
        "POST /api/v1/tournaments/{tournament_id}/reveal/",
        prepare=lambda client, _w: silent_swiss(client),
        path=lambda _w: {"tournament_id": SILENT["tournament"]},
        body=lambda _w: None,
        headers={"Idempotency-Key": "reveal-1"},
    ),
]


def test_the_valid_commands_cover_every_write() -> None:
    results = list(schema.get_all_operations())
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    assert len(operations) == len(results), "the schema has operations schemathesis cannot read"
    writes = {operation.label for operation in operations if operation.method in WRITES}

    assert {command.label for command in VALID_COMMANDS} == writes


@pytest.mark.parametrize("command", VALID_COMMANDS, ids=lambda command: command.label)
def test_every_write_records_a_valid_command_and_answers_as_its_schema_says(
    command: ValidCommand, seeded: World, token: Token, scorer: APIClient
) -> None:
    operation = schema.find_operation_by_label(command.label)
    assert operation is not None
    command.prepare(scorer, seeded)
    body = command.body(seeded)
    credentials = (
        authorization(token)
        if command.player_key is None
        else {"Authorization": f"Token {command.player_key()}"}
    )
    case = operation.Case(
        path_parameters=command.path(seeded),
        headers={**credentials, **command.headers},
        **({} if body is None else {"body": body, "media_type": "application/json"}),
    )
    before = last_position()

    with requests_in_process():
        response = case.call()

        assert response.status_code == command.status, response.content
        assert (last_position() > before) == command.records_events
        case.validate_response(response, checks=CHECKS)
        if "Idempotency-Key" in command.headers:
            again = case.call()
            assert again.status_code == 200, again.content
            assert again.json() == response.json()
            case.validate_response(again, checks=CHECKS)
