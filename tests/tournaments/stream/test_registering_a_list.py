"""Registering several entrants in one command (`RegisterEntrants`), without a database."""

import uuid

import pytest

from tournaments.errors import DuplicateSeed, PlayersRequired, RegistrationClosed
from tournaments.state import TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    RegisterEntrant,
    RegisterEntrants,
    StartTournament,
)
from tournaments.stream.decide import decide
from tournaments.stream.entrant_checks import players_or_name
from tournaments.stream.events import EntrantRegistered
from tournaments.stream.evolve import fold


def created(table_size: int = 2) -> TournamentState:
    settings = TournamentSettings(format="round_robin", table_size=table_size)
    return fold(decide(None, CreateTournament("Club", settings)))


def test_a_list_is_an_entrant_registered_each_in_its_order() -> None:
    command = RegisterEntrants(
        (RegisterEntrant(7, 1, seed=2), RegisterEntrant(8, 1), RegisterEntrant(9, 1, seed=1))
    )

    events = decide(created(), command)

    assert events == [
        EntrantRegistered(7, seed=2),
        EntrantRegistered(8),
        EntrantRegistered(9, seed=1),
    ]


def test_two_entrants_of_one_list_never_hold_one_seed() -> None:
    command = RegisterEntrants((RegisterEntrant(7, 1, seed=2), RegisterEntrant(8, 1, seed=2)))

    with pytest.raises(DuplicateSeed) as refused:
        decide(created(), command)

    assert refused.value.entrants == (7, -1)


def test_a_started_tournament_takes_no_list() -> None:
    state = created()
    for entrant in (1, 2):
        state = fold(decide(state, RegisterEntrant(entrant, 1)), state)
    state = fold(decide(state, StartTournament(uuid.uuid4())), state)

    with pytest.raises(RegistrationClosed):
        decide(state, RegisterEntrants((RegisterEntrant(3, 1),)))


@pytest.mark.parametrize("table_size", [2, 3])
def test_a_single_without_players_is_one_player_named_as_the_entrant(table_size: int) -> None:
    assert players_or_name(created(table_size), name="Rossi", players=None) == ["Rossi"]


@pytest.mark.parametrize(("table_size", "needed"), [(4, 2), (6, 3)])
def test_a_pair_or_a_trio_without_players_is_asked_for_their_names(
    table_size: int, needed: int
) -> None:
    with pytest.raises(PlayersRequired) as refused:
        players_or_name(created(table_size), name="I Leoni", players=None)

    assert refused.value.params["needed"] == needed


def test_players_given_are_kept_as_they_are() -> None:
    assert players_or_name(created(4), name="I Leoni", players=("Ada", "Bo")) == ["Ada", "Bo"]
