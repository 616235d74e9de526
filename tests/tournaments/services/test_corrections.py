"""Correcting entrants: a rename, new players, new seeds before the start. Each is an event with
the organizer and a reason; the names go to the rows only; duplicate seeds are refused and a
duplicate name must be confirmed."""

import json
from functools import partial
from typing import Any
from uuid import UUID

import pytest

from common.actors import Actor
from games.eventstore.api import RecordedEvent, read_stream
from tests.factories.tournaments import TournamentFactory
from tournaments.corrections import (
    DuplicateEntrantName,
    DuplicateSeed,
    PlayerCorrection,
    ReasonRequired,
    entrant_correct,
    entrants_reseed,
)
from tournaments.errors import InvalidEntrant, TournamentAlreadyStarted, TournamentError
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.services import erasure, registration, running
from tournaments.services import registration as tournament_registration
from tournaments.services import running as tournament_running

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(user_id=None, device="console")


def entrant_named(tournament_id: UUID, name: str) -> Entrant:
    return Entrant.objects.get(tournament_id=tournament_id, name=name)


def last_event(tournament_id: UUID) -> RecordedEvent:
    return read_stream(stream_id=tournament_id)[-1]


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


def seeds_of(tournament_id: UUID) -> dict[str, int | None]:
    return dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("name", "seed"))


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


# Seeds.


def test_registering_a_seed_another_entrant_holds_is_duplicate_seed() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id

    with pytest.raises(DuplicateSeed) as refused:
        registration.entrant_register(
            tournament_id=tournament_id, name="Late", players=["Late"], seed=1, actor=ORGANIZER
        )

    assert refused.value.code == "duplicate_seed"
    assert refused.value.detail == ("seed 1 would be held by more than one entrant: Player 1, Late")
    assert not Entrant.objects.filter(name="Late").exists()


def test_a_withdrawn_entrants_seed_is_free_again() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    tournament_registration.entrant_withdraw(
        tournament_id=tournament_id,
        entrant_id=entrant_named(tournament_id, "Player 1").id,
        reason="ill",
        actor=ORGANIZER,
    )

    registered = registration.entrant_register(
        tournament_id=tournament_id, name="Late", players=["Late"], seed=1, actor=ORGANIZER
    )

    assert registered.recorded


def test_two_entrants_swap_seeds_in_one_reseed() -> None:
    tournament_id = TournamentFactory.create(entrants=3).id
    first, second = (entrant_named(tournament_id, f"Player {n}").id for n in (1, 2))

    result = entrants_reseed(
        tournament_id=tournament_id,
        seeds={first: 2, second: 1},
        reason="last year's ranking",
        actor=ORGANIZER,
    )

    recorded = last_event(tournament_id)
    assert recorded.event_type == "EntrantsReseeded"
    assert recorded.payload == {
        "seeds": sorted([[first, 2], [second, 1]]),
        "reason": "last year's ranking",
    }
    assert recorded.metadata.reason == "last year's ranking"
    assert seeds_of(tournament_id) == {"Player 1": 2, "Player 2": 1, "Player 3": 3}
    assert (result.state.entrants[first].seed, result.state.entrants[second].seed) == (2, 1)


def test_a_reseed_that_leaves_two_entrants_on_one_seed_is_refused_and_changes_nothing() -> None:
    tournament_id = TournamentFactory.create(entrants=3).id
    first = entrant_named(tournament_id, "Player 1").id
    before = len(read_stream(stream_id=tournament_id))

    with pytest.raises(DuplicateSeed) as refused:
        entrants_reseed(
            tournament_id=tournament_id, seeds={first: 3}, reason="moved", actor=ORGANIZER
        )

    assert refused.value.detail == (
        "seed 3 would be held by more than one entrant: Player 1, Player 3"
    )
    assert len(read_stream(stream_id=tournament_id)) == before
    assert seeds_of(tournament_id) == {"Player 1": 1, "Player 2": 2, "Player 3": 3}


def test_a_seed_can_be_taken_away() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    second = entrant_named(tournament_id, "Player 2").id

    entrants_reseed(
        tournament_id=tournament_id, seeds={second: None}, reason="unranked", actor=ORGANIZER
    )

    assert seeds_of(tournament_id) == {"Player 1": 1, "Player 2": None}


@pytest.mark.parametrize(
    ("seeds", "code"),
    [
        ({"first": 0}, "invalid_entrant"),
        ({}, "invalid_entrant"),
        ({10**9: 5}, "entrant_not_found"),
    ],
)
def test_a_reseed_with_a_seed_below_one_no_seeds_or_a_stranger_is_refused(
    seeds: dict[Any, int], code: str
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first = entrant_named(tournament_id, "Player 1").id
    given = {first if entrant == "first" else entrant: seed for entrant, seed in seeds.items()}

    with pytest.raises(TournamentError) as refused:
        entrants_reseed(tournament_id=tournament_id, seeds=given, reason="x", actor=ORGANIZER)

    assert refused.value.code == code


def test_a_reseed_after_the_start_is_tournament_started() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    first, second = (entrant_named(tournament_id, f"Player {n}").id for n in (1, 2))

    with pytest.raises(TournamentAlreadyStarted) as refused:
        entrants_reseed(
            tournament_id=tournament_id, seeds={first: 2, second: 1}, reason="late", actor=ORGANIZER
        )

    assert refused.value.code == "tournament_started"
    assert refused.value.detail == "seeds can be changed only before the tournament starts"


def test_a_reseed_that_changes_no_seed_records_nothing() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first = entrant_named(tournament_id, "Player 1").id

    result = entrants_reseed(
        tournament_id=tournament_id, seeds={first: 1}, reason="checked", actor=ORGANIZER
    )

    assert not result.recorded


def test_a_reseed_without_a_reason_is_refused() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first = entrant_named(tournament_id, "Player 1").id

    with pytest.raises(ReasonRequired):
        entrants_reseed(tournament_id=tournament_id, seeds={first: 5}, reason="", actor=ORGANIZER)


def test_the_start_draws_by_the_corrected_seeds() -> None:
    tournament_id = TournamentFactory.create(entrants=4).id
    ids = {n: entrant_named(tournament_id, f"Player {n}").id for n in range(1, 5)}
    entrants_reseed(
        tournament_id=tournament_id,
        seeds={ids[1]: 4, ids[4]: 1},
        reason="ranking",
        actor=ORGANIZER,
    )

    started = running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    assert started.state.order == (ids[4], ids[2], ids[3], ids[1])
    first_round = {(f.home, f.away) for f in started.state.fixtures.values()}
    assert first_round == {(ids[4], ids[1]), (ids[2], ids[3])}


def test_a_reseed_after_a_random_seeding_keeps_the_drawn_positions_of_the_others() -> None:
    tournament_id = TournamentFactory.create(entrants=4).id
    seeded = tournament_registration.tournament_seed(
        tournament_id=tournament_id, method="random", random_seed=7, actor=ORGANIZER
    )
    drawn = list(seeded.state.seeding or ())
    top, bottom = drawn[0], drawn[-1]

    entrants_reseed(
        tournament_id=tournament_id, seeds={top: 4, bottom: 1}, reason="swap", actor=ORGANIZER
    )
    started = running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)

    assert started.state.order == (bottom, drawn[1], drawn[2], top)
    rows = dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", "seed"))
    assert rows == {bottom: 1, drawn[1]: 2, drawn[2]: 3, top: 4}


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


def test_a_repeated_key_answers_the_first_reseed() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    first_id, second_id = (entrant_named(tournament_id, f"Player {n}").id for n in (1, 2))
    reseed = partial(
        entrants_reseed,
        tournament_id=tournament_id,
        seeds={first_id: 2, second_id: 1},
        reason="swap",
        actor=ORGANIZER,
        idempotency_key="swap-1",
    )
    first = reseed()

    again = reseed()

    assert again.duplicate
    assert again.events == first.events
    assert (
        len([e for e in read_stream(stream_id=tournament_id) if e.event_type == "EntrantsReseeded"])
        == 1
    )
