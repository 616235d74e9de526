"""Properties that hold for any entrants and results, checked on generated tournaments."""

from collections import defaultdict
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.config import StandingsConfig
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.table import StandingRow, compute_standings
from tournaments.standings.tiebreaks import TIEBREAK_NAMES


@st.composite
def match_results(draw: st.DrawFn, entrant_ids: list[int]) -> MatchResult:
    if draw(st.integers(0, 9)) == 0:
        return MatchResult.bye(draw(st.sampled_from(entrant_ids)))
    first, second = draw(st.permutations(entrant_ids))[:2]
    return draw(match_between(first, second))


@st.composite
def match_between(draw: st.DrawFn, first: int, second: int) -> MatchResult:
    winner = draw(st.sampled_from([first, second, None]))
    return MatchResult(
        first=first,
        second=second,
        winner=winner,
        first_rounds=draw(st.integers(0, 3)),
        second_rounds=draw(st.integers(0, 3)),
        first_points=draw(st.integers(0, 360)),
        second_points=draw(st.integers(0, 360)),
        forfeit=winner is not None and draw(st.integers(0, 9)) == 0,
    )


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], list[MatchResult]]:
    """A few entrants (some seeded) and their results: none, one or two round robins (so that
    head-to-head mini-tables apply) and some further matches and byes (so that they often don't).
    """
    ids = draw(st.lists(st.integers(1, 10_000), min_size=2, max_size=8, unique=True))
    entrants = [Entrant(entrant, seed=draw(st.none() | st.integers(1, 4))) for entrant in ids]
    pairs = [(first, second) for index, first in enumerate(ids) for second in ids[index + 1 :]]
    results: list[MatchResult] = []
    for _ in range(draw(st.integers(0, 2))):
        results += [draw(match_between(first, second)) for first, second in pairs]
    results += draw(st.lists(match_results(ids), max_size=12))
    return entrants, results


tiebreak_lists = st.permutations(TIEBREAK_NAMES).flatmap(
    lambda names: st.integers(1, len(names)).map(lambda size: tuple(names[:size]))
)


def rank_of(rows: list[StandingRow]) -> dict[int, int]:
    return {row.entrant: row.rank for row in rows}


@given(tournaments())
def test_match_points_total_two_per_decisive_or_tied_match_and_two_per_bye(
    tournament: tuple[list[Entrant], list[MatchResult]],
) -> None:
    entrants, results = tournament
    byes = sum(result.is_bye for result in results)
    decisive = sum(not result.is_bye and result.winner is not None for result in results)
    tied = sum(not result.is_bye and result.winner is None for result in results)

    rows = compute_standings(entrants=entrants, results=results)

    assert sum(row.match_points for row in rows) == 2 * decisive + 2 * tied + 2 * byes


@given(tournaments())
def test_every_entrant_has_one_row_whose_counts_add_up(
    tournament: tuple[list[Entrant], list[MatchResult]],
) -> None:
    entrants, results = tournament

    rows = compute_standings(entrants=entrants, results=results)

    assert sorted(row.entrant for row in rows) == sorted(entrant.id for entrant in entrants)
    assert all(row.played == row.won + row.tied + row.lost for row in rows)
    assert sum(row.played for row in rows) == sum(len(result.entrants) for result in results)
    assert sum(row.rounds_won for row in rows) == sum(row.rounds_lost for row in rows)
    assert sum(row.points_for for row in rows) == sum(row.points_against for row in rows)


@given(tournaments(), tiebreak_lists)
def test_ranks_start_at_one_never_decrease_and_skip_after_a_shared_rank(
    tournament: tuple[list[Entrant], list[MatchResult]], tiebreaks: tuple[str, ...]
) -> None:
    entrants, results = tournament
    config = StandingsConfig(tiebreaks=tiebreaks)

    rows = compute_standings(entrants=entrants, results=results, config=config)

    assert rows[0].rank == 1
    for position, (previous, row) in enumerate(pairwise(rows), start=2):
        assert row.rank in (previous.rank, position)
        if row.rank == previous.rank:
            assert row.tiebreaks == previous.tiebreaks
            assert row.entrant > previous.entrant


@given(tournaments(), tiebreak_lists)
def test_rows_that_share_a_rank_have_equal_values_on_every_tiebreak(
    tournament: tuple[list[Entrant], list[MatchResult]], tiebreaks: tuple[str, ...]
) -> None:
    entrants, results = tournament
    config = StandingsConfig(tiebreaks=tiebreaks)

    rows = compute_standings(entrants=entrants, results=results, config=config)

    by_rank: dict[int, list[StandingRow]] = defaultdict(list)
    for row in rows:
        by_rank[row.rank].append(row)
    for shared in by_rank.values():
        assert len({tuple(row.tiebreaks.items()) for row in shared}) == 1


@given(tournaments())
def test_match_points_never_increase_down_the_table_when_they_come_first(
    tournament: tuple[list[Entrant], list[MatchResult]],
) -> None:
    entrants, results = tournament

    rows = compute_standings(entrants=entrants, results=results)

    points = [row.match_points for row in rows]
    assert points == sorted(points, reverse=True)


@given(tournaments(), tiebreak_lists, st.data())
def test_permuting_the_results_and_the_entrants_does_not_change_the_standings(
    tournament: tuple[list[Entrant], list[MatchResult]],
    tiebreaks: tuple[str, ...],
    data: st.DataObject,
) -> None:
    entrants, results = tournament
    config = StandingsConfig(tiebreaks=tiebreaks)
    shuffled_entrants = data.draw(st.permutations(entrants))
    shuffled_results = data.draw(st.permutations(results))

    original = compute_standings(entrants=entrants, results=results, config=config)
    shuffled = compute_standings(
        entrants=shuffled_entrants, results=shuffled_results, config=config
    )

    assert shuffled == original


@given(tournaments(), tiebreak_lists, st.data())
def test_adding_tiebreaks_never_swaps_two_entrants_that_were_already_strictly_ordered(
    tournament: tuple[list[Entrant], list[MatchResult]],
    tiebreaks: tuple[str, ...],
    data: st.DataObject,
) -> None:
    entrants, results = tournament
    prefix = tiebreaks[: data.draw(st.integers(1, len(tiebreaks)))]

    coarse = rank_of(
        compute_standings(
            entrants=entrants, results=results, config=StandingsConfig(tiebreaks=prefix)
        )
    )
    fine = rank_of(
        compute_standings(
            entrants=entrants, results=results, config=StandingsConfig(tiebreaks=tiebreaks)
        )
    )

    for first in coarse:
        for second in coarse:
            if coarse[first] < coarse[second]:
                assert fine[first] < fine[second]
