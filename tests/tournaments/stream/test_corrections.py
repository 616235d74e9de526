"""The pure guards and events of entrant corrections (tournaments/stream/), without a
database: what a reseed decides and how the state folds it."""

from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.errors import DuplicateSeed as SeedTaken
from tournaments.errors import EntrantNotFound as CorrectedEntrantUnknown
from tournaments.errors import ReasonRequired as CorrectionReasonMissing
from tournaments.errors import TournamentAlreadyStarted as SeedsFixedAtStart
from tournaments.errors import TournamentError as CorrectionRefused
from tournaments.state import TournamentSettings, TournamentState
from tournaments.stream.commands import CorrectEntrant, ReseedEntrants
from tournaments.stream.decide import decide
from tournaments.stream.entrant_checks import (
    check_entrant_correction,
    check_seed_is_free,
    seeds_in_force,
)
from tournaments.stream.events import (
    ENTRANT_CORRECTED,
    ENTRANT_REGISTERED,
    ENTRANT_WITHDREW,
    ENTRANTS_SEEDED,
    TOURNAMENT_CREATED,
    TOURNAMENT_STARTED,
    TournamentEvent,
    decode,
)
from tournaments.stream.evolve import evolve, fold


def decide_reseed(
    state: TournamentState, *, seeds: Mapping[int, int | None], reason: str
) -> list[TournamentEvent]:
    return decide(state, ReseedEntrants(tuple(sorted(seeds.items())), reason))


def registered(seeds: list[int | None], table_size: int = 2) -> TournamentState:
    """Entrants 1, 2... with these seeds, in registration."""
    settings = TournamentSettings(format="round_robin", table_size=table_size)
    return fold(
        [
            decode(
                TOURNAMENT_CREATED,
                {"name": "Club", "settings": settings.to_dict(), "club": None, "public": True},
            ),
            *(
                decode(ENTRANT_REGISTERED, {"entrant": entrant, "seed": seed})
                for entrant, seed in enumerate(seeds, start=1)
            ),
        ]
    )


def then(state: TournamentState, *events: TournamentEvent) -> TournamentState:
    return fold(events, state)


def test_a_swap_is_one_event_with_the_seeds_that_changed() -> None:
    state = registered([1, 2, 3])

    events = decide_reseed(state, seeds={1: 2, 2: 1, 3: 3}, reason=" ranking ")

    assert events == [decode("EntrantsReseeded", {"seeds": [[1, 2], [2, 1]], "reason": "ranking"})]
    assert seeds_in_force(then(state, *events)) == {1: 2, 2: 1, 3: 3}


def test_a_reseed_after_a_fixed_seeding_keeps_the_others_positions_and_drops_the_order() -> None:
    state = then(
        registered([None, None, None]),
        decode(ENTRANTS_SEEDED, {"order": [3, 1, 2], "method": "random", "random_seed": None}),
    )

    reseeded = then(state, *decide_reseed(state, seeds={3: 3, 2: 1}, reason="swap"))

    assert seeds_in_force(reseeded) == {1: 2, 2: 1, 3: 3}
    assert (reseeded.seeding, reseeded.seeding_method) == (None, None)


@pytest.mark.parametrize(
    ("seeds", "refusal"),
    [
        ({1: 2}, SeedTaken),
        ({1: 0}, CorrectionRefused),
        ({}, CorrectionRefused),
        ({9: 4}, CorrectedEntrantUnknown),
    ],
)
def test_a_reseed_the_tournament_cannot_take_is_refused(
    seeds: dict[int, int], refusal: type[CorrectionRefused]
) -> None:
    with pytest.raises(refusal):
        decide_reseed(registered([1, 2]), seeds=seeds, reason="x")


def test_seeds_are_fixed_at_the_start_and_a_reason_is_needed() -> None:
    state = registered([1, 2])
    started = then(state, decode(TOURNAMENT_STARTED, {"order": [1, 2]}))

    with pytest.raises(SeedsFixedAtStart) as refused:
        decide_reseed(started, seeds={1: 2, 2: 1}, reason="late")
    with pytest.raises(CorrectionReasonMissing):
        decide_reseed(state, seeds={1: 2, 2: 1}, reason="   ")

    assert refused.value.code == "tournament_started"


def test_the_seed_of_a_withdrawn_entrant_is_free() -> None:
    state = then(registered([1, 2]), decode(ENTRANT_WITHDREW, {"entrant": 1, "reason": ""}))

    check_seed_is_free(state, 1)
    with pytest.raises(SeedTaken) as taken:
        check_seed_is_free(state, 2)

    assert taken.value.code == "duplicate_seed"
    assert taken.value.entrants == (2, -1)


def test_a_correction_records_ids_and_what_changed_and_folds_to_the_same_state() -> None:
    state = registered([1, 2], table_size=4)
    reason = check_entrant_correction(state, entrant=2, reason=" typo ", player_count=2)

    events = decide(
        state, CorrectEntrant(2, reason=reason, changed=("players", "name"), players=(7, 8))
    )

    assert events == [
        decode(
            ENTRANT_CORRECTED,
            {"entrant": 2, "changed": ["name", "players"], "players": [7, 8], "reason": "typo"},
        )
    ]
    assert evolve(state, events[0]) == state
    assert decide(state, CorrectEntrant(2, reason="x")) == []


def test_a_correction_needs_a_registered_entrant_and_a_player_per_seat() -> None:
    state = registered([1, 2], table_size=4)

    with pytest.raises(CorrectedEntrantUnknown):
        check_entrant_correction(state, entrant=9, reason="x", player_count=None)
    with pytest.raises(CorrectionRefused, match="needs 2 player"):
        check_entrant_correction(state, entrant=1, reason="x", player_count=3)


SEEDS = st.one_of(st.none(), st.integers(min_value=1, max_value=6))


@given(
    registered_seeds=st.lists(SEEDS, min_size=2, max_size=6, unique_by=lambda s: s or object()),
    changes=st.dictionaries(st.integers(min_value=1, max_value=6), SEEDS, max_size=6),
)
def test_a_reseed_is_refused_or_leaves_every_active_entrant_its_own_seed(
    registered_seeds: list[int | None], changes: dict[int, int | None]
) -> None:
    state = registered(registered_seeds)
    known = {entrant: seed for entrant, seed in changes.items() if entrant in state.entrants}
    wanted = seeds_in_force(state) | known
    held = [seed for seed in wanted.values() if seed is not None]

    if not known:
        with pytest.raises(CorrectionRefused):
            decide_reseed(state, seeds=known, reason="property")
    elif len(held) != len(set(held)):
        with pytest.raises(SeedTaken):
            decide_reseed(state, seeds=known, reason="property")
    else:
        after = then(state, *decide_reseed(state, seeds=known, reason="property"))
        assert seeds_in_force(after) == wanted
