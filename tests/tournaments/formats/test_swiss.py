"""Swiss pairing: score groups, floats, rematch avoidance by backtracking, byes, determinism."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field
from tournaments.formats.errors import DuplicateEntrant, InvalidFormatOption, SwissRoundOutOfRange
from tournaments.formats.swiss import SwissEntrant, SwissRound, recommended_rounds, swiss_round


def standings(*scored: tuple[int, float]) -> list[SwissEntrant]:
    return [SwissEntrant(entrant, score) for entrant, score in scored]


def level(*entrants: int) -> list[SwissEntrant]:
    return [SwissEntrant(entrant, 0) for entrant in entrants]


def pairs(round_: SwissRound) -> list[tuple[int, int]]:
    return [(pairing.home, pairing.away) for pairing in round_.pairings]


def test_the_first_round_pairs_the_top_half_against_the_bottom_half() -> None:
    round_ = swiss_round(rounds=3, round_number=1, standings=level(*range(1, 9)))

    assert pairs(round_) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [pairing.id for pairing in round_.pairings] == ["R1-1", "R1-2", "R1-3", "R1-4"]
    assert round_.bye is None
    assert round_.rematches == 0


def test_entrants_are_paired_within_their_score_group_highest_first() -> None:
    table = standings((1, 2), (2, 2), (3, 1), (4, 1), (5, 1), (6, 1), (7, 0), (8, 0))

    round_ = swiss_round(rounds=3, round_number=3, standings=table)

    assert pairs(round_) == [(1, 2), (3, 5), (4, 6), (7, 8)]


def test_the_lowest_entrant_of_an_odd_score_group_floats_down() -> None:
    table = standings((1, 2), (2, 2), (3, 2), (4, 1), (5, 1), (6, 1))

    round_ = swiss_round(rounds=3, round_number=3, standings=table)

    assert pairs(round_) == [(1, 2), (3, 4), (5, 6)]


def test_scores_order_the_field_and_the_given_order_breaks_ties() -> None:
    table = standings((4, 0), (3, 1), (2, 0), (1, 1))

    round_ = swiss_round(rounds=2, round_number=2, standings=table)

    assert pairs(round_) == [(3, 1), (4, 2)]


def test_a_pairing_that_would_force_a_rematch_below_is_given_up_by_backtracking() -> None:
    # 1 v 3 is preferred, but then 2 v 4 would be a rematch; 1 v 4 is one too.
    round_ = swiss_round(
        rounds=3, round_number=2, standings=level(1, 2, 3, 4), past_pairings=[(2, 4), (1, 4)]
    )

    assert pairs(round_) == [(1, 2), (3, 4)]
    assert round_.rematches == 0


def test_an_unavoidable_rematch_is_made_and_reported() -> None:
    everyone_met = [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]

    round_ = swiss_round(
        rounds=4, round_number=4, standings=level(1, 2, 3, 4), past_pairings=everyone_met
    )

    assert pairs(round_) == [(1, 3), (2, 4)]
    assert round_.rematches == 2


def test_without_search_the_pairing_takes_non_rematches_first_in_preference_order() -> None:
    round_ = swiss_round(
        rounds=3,
        round_number=2,
        standings=level(1, 2, 3, 4),
        past_pairings=[(2, 4), (1, 4)],
        search_limit=0,
    )

    assert pairs(round_) == [(1, 3), (2, 4)]
    assert round_.rematches == 1


def test_the_bye_goes_to_the_lowest_ranked_entrant() -> None:
    round_ = swiss_round(rounds=3, round_number=1, standings=level(1, 2, 3, 4, 5))

    assert round_.bye == 5
    assert pairs(round_) == [(1, 3), (2, 4)]


def test_the_bye_skips_entrants_who_already_had_one() -> None:
    round_ = swiss_round(rounds=3, round_number=2, standings=level(1, 2, 3, 4, 5), byes=[5, 4])

    assert round_.bye == 3


def test_the_bye_moves_up_when_the_others_could_not_be_paired_without_a_rematch() -> None:
    round_ = swiss_round(rounds=2, round_number=2, standings=level(1, 2, 3), past_pairings=[(1, 2)])

    assert round_.bye == 2
    assert pairs(round_) == [(1, 3)]


def test_when_everyone_has_had_a_bye_the_lowest_ranked_gets_another() -> None:
    round_ = swiss_round(rounds=4, round_number=4, standings=level(1, 2, 3), byes=[1, 2, 3])

    assert round_.bye == 3


def test_past_pairings_and_byes_of_withdrawn_entrants_are_ignored() -> None:
    round_ = swiss_round(
        rounds=3, round_number=2, standings=level(1, 2), past_pairings=[(1, 99)], byes=[99]
    )

    assert pairs(round_) == [(1, 2)]


def test_the_same_input_gives_the_same_pairings_whatever_the_order_of_the_history() -> None:
    table = standings(*[(entrant, entrant % 3) for entrant in range(1, 22)])
    history = [(entrant, entrant + 1) for entrant in range(1, 21, 2)]
    shuffled = [pair[::-1] for pair in history]
    random.Random(4).shuffle(shuffled)

    one = swiss_round(rounds=5, round_number=2, standings=table, past_pairings=history)
    two = swiss_round(rounds=5, round_number=2, standings=table, past_pairings=set(shuffled))

    assert one == two


@pytest.mark.parametrize(("count", "rounds"), [(2, 1), (3, 2), (8, 3), (9, 4), (64, 6), (65, 7)])
def test_the_recommended_number_of_rounds_is_log2_of_the_field(count: int, rounds: int) -> None:
    assert recommended_rounds(count) == rounds


@pytest.mark.parametrize("round_number", [0, 4])
def test_a_round_outside_the_configured_rounds_is_rejected(round_number: int) -> None:
    with pytest.raises(SwissRoundOutOfRange) as error:
        swiss_round(rounds=3, round_number=round_number, standings=level(1, 2))

    assert error.value.code == "swiss_round_out_of_range"


def test_a_swiss_stage_needs_a_round() -> None:
    with pytest.raises(InvalidFormatOption):
        swiss_round(rounds=0, round_number=1, standings=level(1, 2))


def test_a_negative_search_limit_is_rejected() -> None:
    with pytest.raises(InvalidFormatOption):
        swiss_round(rounds=1, round_number=1, standings=level(1, 2), search_limit=-1)


def test_an_entrant_listed_twice_is_rejected() -> None:
    with pytest.raises(DuplicateEntrant):
        swiss_round(rounds=1, round_number=1, standings=level(1, 2, 1))


def rematch_free_rounds(size: int) -> int:
    """Rounds for which a rematch-free pairing always exists (Dirac: the pairs not yet met form
    a graph where everyone still has at least half the others to meet)."""
    return max(1, size // 2 if size % 2 == 0 else (size - 1) // 2)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(min_value=2, max_value=128), seed=st.integers(0, 2**32))
def test_a_swiss_stage_pairs_everyone_without_rematches_and_gives_at_most_one_bye_each(
    size: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = field(size)
    rounds = min(recommended_rounds(size) + 2, rematch_free_rounds(size))
    scores = dict.fromkeys(entrants, 0)
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, rounds + 1):
        table = [
            SwissEntrant(entrant, scores[entrant])
            for entrant in sorted(entrants, key=lambda entrant: -scores[entrant])
        ]

        round_ = swiss_round(
            rounds=rounds, round_number=number, standings=table, past_pairings=met, byes=byes
        )

        seated = [entrant for pair in pairs(round_) for entrant in pair]
        assert sorted(seated + ([round_.bye] if round_.bye else [])) == entrants
        assert (round_.bye is None) == (size % 2 == 0)
        assert round_.rematches == 0
        assert not {frozenset(pair) for pair in pairs(round_)} & {frozenset(p) for p in met}
        for home, away in pairs(round_):
            met.append((home, away))
            scores[rng.choice((home, away))] += 1
        if round_.bye is not None:
            byes.append(round_.bye)
            scores[round_.bye] += 1
    assert all(count == 1 for count in Counter(byes).values())
