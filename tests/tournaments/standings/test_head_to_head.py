"""Head-to-head: a mini-table of the games between the tied entrants, applied when it separates."""

from tests.tournaments.standings.builders import beat, order, ranks, standings, tied
from tournaments.standings.table import StandingRow
from tournaments.standings.tiebreaks import TiebreakValue

WITHOUT_HEAD_TO_HEAD = ["match_points", "round_wins_difference", "buchholz"]

# A round robin of five, every match won 2-0:
#   1 beat 2 and 3;  2 beat 3 and 4;  3 beat 4 and 5;  4 beat 1;  5 beat 1, 2 and 4.
# Match points: 5: 6; 1, 2 and 3: 4 each; 4: 2. Everything else is level among 1, 2 and 3
# (round difference 0, Buchholz 16), but in their mini-table 1 beat 2 and 3, and 2 beat 3.
THREE_WAY_TIE_RESOLVED = [
    beat(1, 2), beat(1, 3), beat(4, 1), beat(5, 1),
    beat(2, 3), beat(2, 4), beat(5, 2),
    beat(3, 4), beat(3, 5),
    beat(5, 4),
]  # fmt: skip


def head_to_head_values(rows: list[StandingRow]) -> list[TiebreakValue]:
    return [row.tiebreaks["head_to_head"] for row in rows]


def test_two_tied_entrants_are_ordered_by_the_match_between_them() -> None:
    # 1 and 2 have 4 points; 2 has the better round difference (+3 against +1), but 1 beat 2.
    results = [beat(1, 2, rounds=(2, 1)), beat(2, 3, rounds=(2, 0)), beat(3, 1, rounds=(2, 1))]
    results += [beat(1, 4, rounds=(2, 1)), beat(2, 4, rounds=(2, 0)), beat(4, 3, rounds=(2, 0))]

    rows = standings([1, 2, 3, 4], results)

    assert order(rows) == [1, 2, 4, 3]
    assert head_to_head_values(rows) == [2, 0, 2, 0]


def test_a_three_way_tie_is_resolved_by_the_mini_table_of_its_games() -> None:
    rows = standings(range(1, 6), THREE_WAY_TIE_RESOLVED)

    assert [row.match_points for row in rows] == [6, 4, 4, 4, 2]
    assert ranks(rows) == [(1, 5), (2, 1), (3, 2), (4, 3), (5, 4)]
    assert head_to_head_values(rows) == [None, 4, 2, 0, None]


def test_the_same_three_way_tie_shares_a_rank_without_head_to_head() -> None:
    rows = standings(range(1, 6), THREE_WAY_TIE_RESOLVED, tiebreaks=WITHOUT_HEAD_TO_HEAD)

    assert ranks(rows) == [(1, 5), (2, 1), (2, 2), (2, 3), (5, 4)]


def test_a_three_way_cycle_is_not_resolved_by_head_to_head_and_falls_to_the_next_tiebreak() -> None:
    # 1 beat 2 2-0, 2 beat 3 2-1, 3 beat 1 2-1, and each beat 4 2-0: 1, 2 and 3 have 4 points and
    # 2 each in their mini-table. Round differences: 1: +2 -1 +2 = 3, 3: +1 -1 +2 = 2,
    # 2: -2 +1 +2 = 1.
    results = [
        beat(1, 2, rounds=(2, 0)),
        beat(2, 3, rounds=(2, 1)),
        beat(3, 1, rounds=(2, 1)),
        beat(1, 4),
        beat(2, 4),
        beat(3, 4),
    ]

    rows = standings([1, 2, 3, 4], results)

    assert order(rows) == [1, 3, 2, 4]
    assert head_to_head_values(rows) == [2, 2, 2, None]
    assert [row.tiebreaks["round_wins_difference"] for row in rows] == [3, 2, 1, -6]


def test_head_to_head_separates_part_of_a_group_and_the_rest_goes_to_the_next_tiebreak() -> None:
    # 1, 2 and 3 have 4 points. Among them 1 beat 2 and 3 (2-1), and 2 tied 3 (scored by points):
    # 1 leads the mini-table with 4, 2 and 3 have 1 each and their own game does not separate them
    # either. Round difference does: 3: -1 0 +2 0 = +1, 2: -1 0 +1 0 = 0.
    results = [
        beat(1, 2, rounds=(2, 1)),
        beat(1, 3, rounds=(2, 1)),
        tied(2, 3, rounds=(1, 1)),
        beat(2, 4, rounds=(2, 1)),
        tied(2, 5, rounds=(1, 1)),
        beat(3, 5, rounds=(2, 0)),
        tied(3, 4, rounds=(1, 1)),
        beat(5, 1, rounds=(2, 1)),
    ]

    rows = standings(range(1, 6), results)

    assert [(row.entrant, row.match_points) for row in rows] == [
        (1, 4),
        (3, 4),
        (2, 4),
        (5, 3),
        (4, 1),
    ]
    assert head_to_head_values(rows)[:3] == [4, 1, 1]


def test_the_entrants_still_level_after_a_mini_table_get_a_mini_table_of_their_own() -> None:
    # 1, 2, 3 and 4 have 4 points. Their mini-table: 1 beat 2 and 3, 2 beat 3 and 4, 3 beat 4,
    # 4 beat 1, so 1 and 2 have 4, 3 and 4 have 2. Then 1 beat 2, and 3 beat 4, although round
    # difference favours 2 (+3 against 0) and 4 (+1 against 0). 5 and 6 stay level.
    results = [
        beat(1, 2, rounds=(2, 1)),
        beat(1, 3, rounds=(2, 1)),
        beat(4, 1, rounds=(2, 0)),
        beat(2, 3, rounds=(2, 0)),
        beat(2, 4, rounds=(2, 0)),
        beat(3, 4, rounds=(2, 1)),
        beat(3, 5, rounds=(2, 0)),
        beat(4, 6, rounds=(2, 0)),
    ]

    rows = standings(range(1, 7), results)

    assert ranks(rows) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6)]
    assert head_to_head_values(rows) == [2, 0, 2, 0, None, None]
    assert [row.tiebreaks["round_wins_difference"] for row in rows[:4]] == [0, 3, 0, 1]


def test_head_to_head_does_not_apply_to_tied_entrants_who_never_met() -> None:
    # A Swiss round: 1 and 2 both won, against different opponents.
    results = [beat(1, 3, rounds=(2, 1)), beat(2, 4, rounds=(2, 0))]

    rows = standings([1, 2, 3, 4], results)

    assert order(rows) == [2, 1, 3, 4]
    assert head_to_head_values(rows) == [None, None, None, None]


def test_head_to_head_does_not_apply_when_not_every_pair_of_the_group_met() -> None:
    # All four have 2 points, but 1 and 3 never met, nor 2 and 4: no mini-table, not even for 1
    # and 2 (who met) once round difference has split the group, because head-to-head comes
    # earlier in the list. Round differences: 3: +1, 1 and 2: 0, 4: -1; Buchholz is 4 for all.
    results = [
        beat(1, 2, rounds=(2, 1)),
        beat(2, 3, rounds=(2, 1)),
        beat(3, 4, rounds=(2, 0)),
        beat(4, 1, rounds=(2, 1)),
    ]

    rows = standings([1, 2, 3, 4], results)

    assert ranks(rows) == [(1, 3), (2, 1), (2, 2), (4, 4)]
    assert head_to_head_values(rows) == [None, None, None, None]
