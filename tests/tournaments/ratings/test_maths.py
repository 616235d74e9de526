import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.ratings.maths import DEFAULT, Rating, rate, team_ordinal

ratings = st.builds(
    Rating,
    mu=st.floats(min_value=0, max_value=50, allow_nan=False),
    sigma=st.floats(min_value=0.5, max_value=25 / 3, allow_nan=False),
)


def test_a_new_players_rating_is_openskills_default_and_displays_as_zero() -> None:
    assert Rating(mu=25.0, sigma=25 / 3) == DEFAULT
    assert DEFAULT.ordinal == pytest.approx(0.0)


def test_the_winner_of_a_single_goes_up_and_the_loser_down() -> None:
    after = rate([(1,), (2,)], [1, 2], {})

    assert after[1].mu > DEFAULT.mu > after[2].mu
    assert after[1].sigma < DEFAULT.sigma


def test_a_tie_between_equals_moves_neither_mean() -> None:
    after = rate([(1,), (2,)], [1, 1], {})

    assert after[1].mu == pytest.approx(DEFAULT.mu)
    assert after[2].mu == pytest.approx(DEFAULT.mu)


def test_at_a_table_of_three_the_places_order_the_new_ratings() -> None:
    after = rate([(1,), (2,), (3,)], [2, 1, 3], {})

    assert after[2].mu > after[1].mu > after[3].mu


def test_the_players_of_a_pair_share_their_sides_result() -> None:
    after = rate([(1, 2), (3, 4)], [1, 2], {})

    assert after[1].mu > DEFAULT.mu
    assert after[2].mu > DEFAULT.mu
    assert after[3].mu < DEFAULT.mu
    assert after[4].mu < DEFAULT.mu


def test_a_match_needs_two_sides_each_with_a_rank_and_a_player() -> None:
    with pytest.raises(ValueError, match="two or more sides"):
        rate([(1,)], [1], {})
    with pytest.raises(ValueError, match="at least one player"):
        rate([(1,), ()], [1, 2], {})


def test_a_teams_rating_for_seeding_is_the_mean_of_its_players_ordinals() -> None:
    known = {1: Rating(30, 2), 2: Rating(20, 2)}

    assert team_ordinal((1, 2), known) == pytest.approx(((30 - 6) + (20 - 6)) / 2)
    assert team_ordinal((9,), known) == DEFAULT.ordinal


@given(winner=ratings, loser=ratings)
def test_a_winner_never_loses_rating_against_the_same_loser(winner: Rating, loser: Rating) -> None:
    after = rate([(1,), (2,)], [1, 2], {1: winner, 2: loser})

    assert after[1].mu >= winner.mu
    assert after[2].mu <= loser.mu


@given(first=ratings, second=ratings, third=ratings, places=st.permutations([1, 2, 3]))
def test_no_match_makes_any_players_uncertainty_grow(
    first: Rating, second: Rating, third: Rating, places: list[int]
) -> None:
    before = {1: first, 2: second, 3: third}

    after = rate([(1,), (2,), (3,)], places, before)

    assert all(after[p].sigma <= before[p].sigma for p in before)


@given(a=ratings, b=ratings)
def test_a_match_rates_the_same_whatever_the_order_the_ratings_are_known_in(
    a: Rating, b: Rating
) -> None:
    listed = {1: a, 2: b}
    reversed_ = {2: b, 1: a}

    rated = rate([(1,), (2,)], [2, 1], listed)

    assert rated == rate([(1,), (2,)], [2, 1], reversed_)
    assert listed == {1: a, 2: b}  # what was known is left as it was


def test_results_applied_in_another_order_give_other_numbers() -> None:
    def played(order: list[tuple[int, int]]) -> dict[int, Rating]:
        known: dict[int, Rating] = {}
        for winner, loser in order:
            known.update(rate([(winner,), (loser,)], [1, 2], known))
        return known

    assert played([(1, 2), (2, 3), (3, 1)]) != played([(3, 1), (2, 3), (1, 2)])
