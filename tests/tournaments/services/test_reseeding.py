"""Correcting seeds before the start: a reseed is an event with the organizer and a reason,
duplicate seeds are refused, and the start draws by the corrected seeds."""

from functools import partial
from typing import Any
from uuid import UUID

import pytest

from common.actors import Actor
from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.builders import entrant_named, last_event
from tournaments.errors import TournamentAlreadyStarted, TournamentError
from tournaments.models import Entrant
from tournaments.services import registration, running
from tournaments.services import registration as tournament_registration
from tournaments.services import running as tournament_running
from tournaments.services.corrections import (
    DuplicateSeed,
    ReasonRequired,
    entrants_reseed,
)

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(user_id=None, device="console")


def seeds_of(tournament_id: UUID) -> dict[str, int | None]:
    return dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("name", "seed"))


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
    assert entrant_named(tournament_id, "Late").seed == 1


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
