"""Shared ranks ("1, 2, 2, 4"), the seed as the last resort, and deterministic order."""

from tests.tournaments.standings.builders import beat, ranks, standings, tied
from tournaments.standings.results import Entrant

NO_SEED = ["match_points", "head_to_head", "round_wins_difference", "buchholz"]


def test_entrants_equal_after_every_tiebreak_share_a_rank_and_the_next_rank_skips() -> None:
    # 1 beat 2 and 3; 2 and 3 each beat 4 2-0 and never met: equal on everything.
    results = [beat(1, 2), beat(1, 3), beat(2, 4), beat(3, 4)]

    rows = standings([1, 2, 3, 4], results, tiebreaks=NO_SEED)

    assert ranks(rows) == [(1, 1), (2, 2), (2, 3), (4, 4)]


def test_rows_sharing_a_rank_are_listed_by_entrant_id() -> None:
    rows = standings([30, 10, 20], [], tiebreaks=NO_SEED)

    assert ranks(rows) == [(1, 10), (1, 20), (1, 30)]


def test_the_seed_as_last_resort_breaks_a_tie_that_nothing_else_breaks() -> None:
    entrants = [Entrant(1, seed=1), Entrant(2, seed=4), Entrant(3, seed=2), Entrant(4, seed=3)]
    results = [beat(1, 2), beat(1, 3), beat(2, 4), beat(3, 4)]

    rows = standings(entrants, results)

    assert ranks(rows) == [(1, 1), (2, 3), (3, 2), (4, 4)]


def test_unseeded_entrants_come_after_seeded_ones_and_share_their_rank() -> None:
    entrants = [Entrant(1), Entrant(2, seed=7), Entrant(3)]

    rows = standings(entrants, [tied(1, 2), tied(2, 3), tied(3, 1)])

    assert ranks(rows) == [(1, 2), (2, 1), (2, 3)]


def test_entrants_with_the_same_seed_share_a_rank() -> None:
    rows = standings([Entrant(1, seed=1), Entrant(2, seed=1)], [])

    assert ranks(rows) == [(1, 1), (1, 2)]


def test_the_order_of_the_entrants_and_of_the_results_does_not_matter() -> None:
    results = [beat(1, 2), beat(3, 4), tied(1, 3), beat(2, 4, rounds=(2, 1))]

    forwards = standings([1, 2, 3, 4], results)
    backwards = standings([4, 3, 2, 1], results[::-1])

    assert forwards == backwards


def test_a_stage_without_entrants_has_no_rows() -> None:
    assert standings([], []) == []
