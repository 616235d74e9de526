"""Correcting an entrant: a rename and new players, each an event with the organizer and a
reason; the names go to the rows only; a duplicate name must be confirmed."""

import json
from functools import partial
from typing import Any
from uuid import UUID

import pytest

from common.actors import Actor
from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.builders import entrant_named, last_event
from tournaments.errors import InvalidEntrant, TournamentError
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.services import erasure, registration
from tournaments.services import running as tournament_running
from tournaments.services.corrections import (
    DuplicateEntrantName,
    PlayerCorrection,
    entrant_correct,
)

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(user_id=None, device="console")


def player_names(entrant: Entrant) -> list[str]:
    return [str(p) for p in entrant.players.order_by("entrantplayer__position")]


def pairs(*teams: tuple[str, list[str]]) -> UUID:
    tournament = registration.tournament_create(
        name="Coppia", format="round_robin", table_size=4, best_of=1, actor=ORGANIZER
    )
    for name, players in teams:
        registration.entrant_register(
            tournament_id=tournament.id, name=name, players=players, actor=ORGANIZER
        )
    return tournament.id


# Renaming and changing players.


def test_a_rename_is_an_event_with_the_actor_and_the_reason_and_the_name_is_only_in_the_row() -> (
    None
):
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    organizer = Actor(user_id=None, device="tablet 1", correlation_id="req-1")

    result = entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="Giulia Rossi",
        reason="misspelled at the desk",
        actor=organizer,
    )

    recorded = last_event(tournament_id)
    assert result.recorded
    assert recorded.event_type == "EntrantCorrected"
    assert recorded.payload == {
        "entrant": entrant.id,
        "changed": ["name"],
        "reason": "misspelled at the desk",
    }
    assert (recorded.metadata.device, recorded.metadata.correlation_id) == ("tablet 1", "req-1")
    assert recorded.metadata.reason == "misspelled at the desk"
    entrant.refresh_from_db()
    assert entrant.name == "Giulia Rossi"
    assert "Giulia" not in json.dumps([recorded.payload, recorded.metadata.to_json()])


def test_a_misspelled_player_is_renamed_in_place_and_keeps_their_id() -> None:
    tournament_id = pairs(("I Leoni", ["Ada", "Bruno"]), ("Le Volpi", ["Carla", "Dino"]))
    entrant = entrant_named(tournament_id, "I Leoni")
    bruno = Player.objects.get(name="Bruno")

    entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        players=["Ada", "Bruna"],
        reason="typo",
        actor=ORGANIZER,
    )

    recorded = last_event(tournament_id)
    ada = Player.objects.get(name="Ada")
    assert recorded.payload == {
        "entrant": entrant.id,
        "changed": ["players"],
        "players": [ada.id, bruno.id],
        "reason": "typo",
    }
    bruno.refresh_from_db()
    assert bruno.name == "Bruna"
    assert player_names(entrant) == ["Ada", "Bruna"]
    assert "Bruna" not in json.dumps(recorded.payload)


def test_a_replaced_player_gets_a_new_id_in_their_seat_and_the_old_player_stays() -> None:
    tournament_id = pairs(("I Leoni", ["Ada", "Bruno"]), ("Le Volpi", ["Carla", "Dino"]))
    entrant = entrant_named(tournament_id, "I Leoni")
    bruno = Player.objects.get(name="Bruno")

    entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        players=[PlayerCorrection("Ada"), PlayerCorrection("Ettore", replace=True)],
        reason="Bruno is ill, Ettore plays",
        actor=ORGANIZER,
    )

    ettore = Player.objects.get(name="Ettore")
    assert last_event(tournament_id).payload["players"][1] == ettore.id != bruno.id
    assert player_names(entrant) == ["Ada", "Ettore"]
    assert Player.objects.filter(id=bruno.id, name="Bruno").exists()
    assert not EntrantPlayer.objects.filter(player=bruno).exists()


def test_renaming_and_changing_players_at_once_records_both_in_one_event() -> None:
    tournament_id = pairs(("I Leoni", ["Ada", "Bruno"]), ("Le Volpi", ["Carla", "Dino"]))
    entrant = entrant_named(tournament_id, "I Leoni")

    entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="I Leoni di Bari",
        players=["Ada", "Bruno Neri"],
        reason="full names",
        actor=ORGANIZER,
    )

    assert last_event(tournament_id).payload["changed"] == ["name", "players"]


def test_a_correction_that_changes_nothing_records_nothing() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    before = len(read_stream(stream_id=tournament_id))

    result = entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="Player 1",
        players=["Player 1"],
        reason="checked",
        actor=ORGANIZER,
    )

    assert not result.recorded
    assert len(read_stream(stream_id=tournament_id)) == before


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"players": ["Ada", "Bruno"]}, "invalid_entrant"),
        ({"name": "   "}, "invalid_entrant"),
        ({"name": "Rossi", "reason": "  "}, "reason_required"),
        ({"name": "Rossi", "entrant_id": 10**9}, "entrant_not_found"),
    ],
)
def test_a_correction_the_tournament_cannot_take_is_refused_and_changes_no_row(
    change: dict[str, Any], code: str
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    before = len(read_stream(stream_id=tournament_id))
    arguments: dict[str, Any] = {"entrant_id": entrant.id, "reason": "fix"} | change

    with pytest.raises(TournamentError) as refused:
        entrant_correct(tournament_id=tournament_id, actor=ORGANIZER, **arguments)

    assert refused.value.code == code
    assert len(read_stream(stream_id=tournament_id)) == before
    entrant.refresh_from_db()
    assert (entrant.name, player_names(entrant)) == ("Player 1", ["Player 1"])


def test_an_erased_player_is_replaced_not_renamed() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    erasure.player_erase(player=Player.objects.get(name="Player 1"), actor=ORGANIZER)

    with pytest.raises(InvalidEntrant, match="was erased: replace them"):
        entrant_correct(
            tournament_id=tournament_id,
            entrant_id=entrant.id,
            players=["Player One"],
            reason="back",
            actor=ORGANIZER,
        )


def test_names_can_be_corrected_after_the_start() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    entrant = entrant_named(tournament_id, "Player 2")

    result = entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="Bianchi",
        reason="typo",
        actor=ORGANIZER,
    )

    assert result.recorded
    assert entrant_named(tournament_id, "Bianchi").id == entrant.id


# A duplicate name: a warning the organizer confirms.


def test_registering_a_name_already_taken_is_refused_until_confirmed() -> None:
    tournament_id = TournamentFactory.create(entrants=1).id

    with pytest.raises(DuplicateEntrantName) as warned:
        registration.entrant_register(
            tournament_id=tournament_id,
            name="  player   1 ",
            players=["Somebody"],
            actor=ORGANIZER,
        )
    confirmed = registration.entrant_register(
        tournament_id=tournament_id,
        name="  player   1 ",
        players=["Somebody"],
        actor=ORGANIZER,
        confirm_duplicate_name=True,
    )

    assert warned.value.code == "duplicate_entrant_name"
    assert "already called Player 1" in warned.value.detail
    assert confirmed.recorded
    assert Entrant.objects.filter(tournament_id=tournament_id).count() == 2


def test_renaming_to_another_entrants_name_is_refused_until_confirmed() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 2")
    rename = partial(
        entrant_correct,
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="PLAYER 1",
        reason="they are called the same",
        actor=ORGANIZER,
    )

    with pytest.raises(DuplicateEntrantName):
        rename()
    assert entrant_named(tournament_id, "Player 2").id == entrant.id

    assert rename(confirm_duplicate_name=True).recorded
    entrant.refresh_from_db()
    assert entrant.name == "PLAYER 1"


def test_the_same_name_in_another_tournament_needs_no_confirmation() -> None:
    TournamentFactory.create(entrants=1)
    other = TournamentFactory.create(entrants=0).id

    registered = registration.entrant_register(
        tournament_id=other, name="Player 1", players=["Player 1"], actor=ORGANIZER
    )

    assert registered.recorded


# Idempotency keys.


def test_a_repeated_key_answers_the_first_correction_and_records_nothing() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    entrant = entrant_named(tournament_id, "Player 1")
    rename = partial(
        entrant_correct,
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="Rossi",
        reason="typo",
        actor=ORGANIZER,
        idempotency_key="rename-1",
    )
    first = rename()
    entrant_correct(
        tournament_id=tournament_id,
        entrant_id=entrant.id,
        name="Rossi Mario",
        reason="full name",
        actor=ORGANIZER,
    )

    again = rename()

    assert again.duplicate
    assert (again.version, again.events) == (first.version, first.events)
    assert entrant_named(tournament_id, "Rossi Mario").id == entrant.id
