"""Ties at a group's qualification cut (decision record 0029, amended for issue 12), on pure
folds: a playoff under the deciding round rule, the seed under the higher seed rule, the
organizer's order under the organizer's rule."""

import uuid
from dataclasses import replace
from typing import Any

import pytest

from tournaments.errors import (
    GroupNotComplete,
    GroupNotFound,
    GroupNotTied,
    InvalidGroupOrder,
    ReasonRequired,
)
from tournaments.plan import cut_ties, drawing, knockouts
from tournaments.state import Fixture, Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    DecideGroupPlaces,
    RecordResult,
    RegisterEntrant,
    StartTournament,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import GROUP_PLACES_DECIDED, encode
from tournaments.stream.evolve import fold
from tournaments.stream.fixture_events import FixtureReset

TOURNAMENT = uuid.UUID(int=1229)
LEVEL = Result(winner=None, rounds=(1, 1), points=(120, 120))


def run(state: TournamentState | None, command: Any) -> TournamentState:
    events = decide(state, command)
    return state if not events else fold(events, state)  # type: ignore[return-value]


def started(entrants: int, **options: Any) -> TournamentState:
    """Groups of `group_size` (default: everyone in one group), ranked by match points only so
    that ties are easy to make, seeds in entrant order."""
    options.setdefault("group_size", entrants)
    options.setdefault("advance_per_group", 1)
    options.setdefault("tiebreaks", ("match_points",))
    options.setdefault("scoring", "points")
    options.setdefault("rounds", 1)
    settings = TournamentSettings("groups_then_knockout", 2, **options)
    state = run(None, CreateTournament("Club", settings))
    for entrant in range(1, entrants + 1):
        state = run(state, RegisterEntrant(entrant, players=1, seed=entrant))
    return run(state, StartTournament(TOURNAMENT))


def won_by(fixture: Fixture, winner: int) -> Result:
    home_won = winner == fixture.home
    return Result(winner, (1, 0) if home_won else (0, 1), (70, 50) if home_won else (50, 70))


def record(state: TournamentState, fixture: Fixture, result: Result) -> TournamentState:
    return run(state, RecordResult(TOURNAMENT, fixture.match_id, result))


def play_groups_level(state: TournamentState) -> TournamentState:
    for fixture in [f for f in state.fixtures.values() if "-R" in f.id]:
        state = record(state, fixture, LEVEL)
    return state


def playoff_fixtures(state: TournamentState) -> list[Fixture]:
    live = [f for f in state.fixtures.values() if "-PO-" in f.id]
    return sorted(live, key=lambda f: f.sequence)


def knockout_entrants(state: TournamentState) -> list[int]:
    last = drawing.stages(state)[-1]
    assert last.bracket is not None, "no knockout yet"
    return list(last.bracket.entrants)


# The deciding round rule: a playoff.


def test_two_entrants_tied_at_the_cut_play_one_playoff_match_and_the_knockout_waits() -> None:
    state = play_groups_level(started(4, group_size=2))

    match, match_b = playoff_fixtures(state)
    assert (match.id, match.stage, {match.home, match.away}) == ("A-PO-1", "A", {1, 4})
    assert (match_b.id, match_b.stage, {match_b.home, match_b.away}) == ("B-PO-1", "B", {2, 3})
    assert knockouts.match_decider(state, match.id) == "round"
    assert drawing.stages(state)[-1].bracket is None

    state = record(state, match, won_by(match, 4))
    assert drawing.stages(state)[-1].bracket is None
    state = record(state, match_b, won_by(match_b, 3))

    assert sorted(knockout_entrants(state)) == [3, 4]


def test_a_playoff_does_not_count_in_the_standings() -> None:
    state = play_groups_level(started(4, group_size=2))
    before = drawing.overall_standings(state)

    for match in playoff_fixtures(state):
        state = record(state, match, won_by(match, match.away))

    assert sorted(knockout_entrants(state)) == [3, 4]
    assert drawing.overall_standings(state) == before


def test_three_tied_for_one_place_play_a_short_knockout_reseeded_every_round() -> None:
    state = play_groups_level(started(6, group_size=3))
    first = [f for f in playoff_fixtures(state) if f.stage == "A"]
    assert [(f.id, f.home, f.away) for f in first] == [("A-PO-1", 4, 5)]

    state = record(state, first[0], won_by(first[0], 5))
    final = next(f for f in playoff_fixtures(state) if f.id == "A-PO-2")
    assert (final.home, final.away) == (1, 5)
    assert final.round > first[0].round
    state = record(state, final, won_by(final, 5))

    assert drawing.stages(state)[-1].bracket is None  # group B still plays its own
    for fixture in [f for f in playoff_fixtures(state) if f.stage == "B"]:
        state = record(state, fixture, won_by(fixture, fixture.home))
    for fixture in [
        f for f in playoff_fixtures(state) if f.stage == "B" and f.id not in state.results
    ]:
        state = record(state, fixture, won_by(fixture, fixture.home))
    assert 5 in knockout_entrants(state)


def test_four_tied_for_three_places_play_a_knockout_then_the_rest_play_again() -> None:
    state = play_groups_level(started(5, group_size=5, advance_per_group=3))
    # Five tied: seeds 4 and 5 play first (the others sit out until four are left).
    for _ in range(10):
        waiting = [f for f in playoff_fixtures(state) if f.id not in state.results]
        if not waiting:
            break
        for fixture in waiting:
            state = record(state, fixture, won_by(fixture, max(fixture.entrants)))
    knockout = drawing.stages(state)[-1]
    assert knockout.bracket is not None
    assert sorted(knockout_entrants(state)) == [3, 4, 5]
    # The first knockout's winner (5) is first, its final's loser second, the next one's third.
    assert knockout.bracket.entrants[0] == 5


def test_no_tie_at_the_cut_no_playoff() -> None:
    state = started(4, group_size=2)
    for fixture in list(state.fixtures.values()):
        state = record(state, fixture, won_by(fixture, fixture.home))

    assert playoff_fixtures(state) == []
    assert sorted(knockout_entrants(state)) == [1, 2]


def test_the_seed_settles_the_tie_under_the_higher_seed_rule_and_before_the_rule() -> None:
    state = play_groups_level(started(4, group_size=2, level_knockout="higher_seed"))
    assert playoff_fixtures(state) == []
    assert sorted(knockout_entrants(state)) == [1, 2]
    before_the_rule = started(4, group_size=2)
    before_the_rule = replace(
        before_the_rule, settings=replace(before_the_rule.settings, level_knockout=None)
    )
    assert playoff_fixtures(play_groups_level(before_the_rule)) == []


def test_the_default_tie_breaks_leave_the_seed_out_when_looking_for_a_tie() -> None:
    state = play_groups_level(started(4, group_size=2, tiebreaks=None))

    assert {f.id for f in playoff_fixtures(state)} == {"A-PO-1", "B-PO-1"}


def test_a_seed_the_organizer_listed_among_the_tie_breaks_settles_the_tie() -> None:
    state = play_groups_level(started(4, group_size=2, tiebreaks=("match_points", "seed")))

    assert playoff_fixtures(state) == []
    assert sorted(knockout_entrants(state)) == [1, 2]


# Corrections.


def test_a_corrected_group_result_that_removes_the_tie_resets_the_playoff() -> None:
    state = play_groups_level(started(4, group_size=2))
    playoff, _ = playoff_fixtures(state)
    [group_match] = [f for f in state.fixtures.values() if f.id.startswith("A-R")]

    events = decide(state, RecordResult(TOURNAMENT, group_match.match_id, won_by(group_match, 4)))

    assert [e.fixture for e in events if isinstance(e, FixtureReset)] == [playoff.id]
    state = fold(events, state)
    assert [f.id for f in playoff_fixtures(state)] == ["B-PO-1"]


def test_a_corrected_playoff_result_resets_the_later_playoff_matches_and_the_knockout() -> None:
    state = play_groups_level(started(6, group_size=3))
    for _ in range(5):
        for fixture in [f for f in playoff_fixtures(state) if f.id not in state.results]:
            state = record(state, fixture, won_by(fixture, fixture.away))
    assert drawing.stages(state)[-1].bracket is not None
    first = next(f for f in playoff_fixtures(state) if f.id == "A-PO-1")
    second = next(f for f in playoff_fixtures(state) if f.id == "A-PO-2")

    events = decide(state, RecordResult(TOURNAMENT, first.match_id, won_by(first, first.home)))

    reset = [e.fixture for e in events if isinstance(e, FixtureReset)]
    assert second.id in reset
    assert any(not key.startswith(("A-", "B-")) for key in reset)  # the knockout's final
    state = fold(events, state)
    redone = next(f for f in playoff_fixtures(state) if f.id == "A-PO-2")
    assert first.home in redone.entrants


def test_a_group_result_corrected_after_the_knockout_redraws_it_and_keeps_the_playoff() -> None:
    """The playoff's resets are worked out without the knockout's results: reseeded, the
    knockout's played slots would not hold their winners (WinnerNotInSlot, found by the
    rebuild property)."""
    state = started(8, group_size=2)
    for fixture in sorted(state.fixtures.values(), key=lambda f: f.sequence):
        level = fixture.id.startswith("A-")
        state = record(state, fixture, LEVEL if level else won_by(fixture, fixture.home))
    [playoff] = playoff_fixtures(state)
    state = record(state, playoff, won_by(playoff, playoff.home))
    semis = [f for f in state.fixtures.values() if "-R" not in f.id and "-PO-" not in f.id]
    assert len(semis) == 2
    for semi in semis:
        state = record(state, semi, won_by(semi, semi.home))
    [group_b] = [f for f in state.fixtures.values() if f.id.startswith("B-R")]

    events = decide(
        state, RecordResult(TOURNAMENT, group_b.match_id, won_by(group_b, group_b.away))
    )

    reset = [e.fixture for e in events if isinstance(e, FixtureReset)]
    assert playoff.id not in reset
    assert {semi.id for semi in semis} <= set(reset)
    state = fold(events, state)
    assert group_b.away in knockout_entrants(state)


# The organizer's rule.


def organizer_tie() -> TournamentState:
    return play_groups_level(started(4, group_size=2, level_knockout="organizer"))


def test_under_the_organizers_rule_the_knockout_waits_for_the_groups_places() -> None:
    state = organizer_tie()
    assert playoff_fixtures(state) == []
    assert drawing.stages(state)[-1].bracket is None

    events = decide(state, DecideGroupPlaces(TOURNAMENT, "A", (4, 1), " sorteggio "))
    assert encode(events[0])[0] == GROUP_PLACES_DECIDED
    assert encode(events[0])[1] == {"group": "A", "order": [4, 1], "reason": "sorteggio"}
    state = fold(events, state)
    assert drawing.stages(state)[-1].bracket is None
    state = run(state, DecideGroupPlaces(TOURNAMENT, "B", (2, 3), "accordo"))

    assert sorted(knockout_entrants(state)) == [2, 4]


@pytest.mark.parametrize(
    ("group", "order", "reason", "refusal"),
    [
        ("A", (4, 1), "", ReasonRequired),
        ("Z", (4, 1), "lot", GroupNotFound),
        ("A", (4,), "lot", InvalidGroupOrder),
        ("A", (4, 2), "lot", InvalidGroupOrder),
        ("A", (4, 4), "lot", InvalidGroupOrder),
    ],
)
def test_a_groups_places_need_a_reason_a_group_and_exactly_the_tied_entrants(
    group: str, order: tuple[int, ...], reason: str, refusal: type[Exception]
) -> None:
    with pytest.raises(refusal):
        decide(organizer_tie(), DecideGroupPlaces(TOURNAMENT, group, order, reason))


def test_only_a_complete_group_tied_at_the_cut_under_the_organizers_rule_is_decided() -> None:
    unplayed = started(4, group_size=2, level_knockout="organizer")
    with pytest.raises(GroupNotComplete):
        decide(unplayed, DecideGroupPlaces(TOURNAMENT, "A", (4, 1), "lot"))
    untied = unplayed
    for fixture in list(untied.fixtures.values()):
        untied = record(untied, fixture, won_by(fixture, fixture.home))
    playoffs = play_groups_level(started(4, group_size=2))
    decided = run(organizer_tie(), DecideGroupPlaces(TOURNAMENT, "A", (4, 1), "lot"))
    for refused in (untied, playoffs, decided):
        with pytest.raises(GroupNotTied):
            decide(refused, DecideGroupPlaces(TOURNAMENT, "A", (4, 1), "lot"))


def test_a_corrected_group_result_that_changes_the_tie_sets_the_decision_aside() -> None:
    state = run(organizer_tie(), DecideGroupPlaces(TOURNAMENT, "A", (4, 1), "lot"))
    state = run(state, DecideGroupPlaces(TOURNAMENT, "B", (2, 3), "lot"))
    assert drawing.stages(state)[-1].bracket is not None
    [group_a] = [f for f in state.fixtures.values() if f.id.startswith("A-R")]

    events = decide(state, RecordResult(TOURNAMENT, group_a.match_id, won_by(group_a, 1)))

    assert any(isinstance(e, FixtureReset) for e in events)
    state = fold(events, state)
    assert sorted(knockout_entrants(state)) == [1, 2]


def test_a_tournament_created_before_cut_ties_followed_the_rule_still_lets_the_seed_decide() -> (
    None
):
    from tournaments.state import TournamentSettings

    recorded = {"format": "groups_then_knockout", "table_size": 2, "level_knockout": "organizer"}

    settings = TournamentSettings.from_dict(recorded)

    assert settings.cut_ties_by_rule is False
    assert TournamentSettings("groups_then_knockout", 2).to_dict()["cut_ties_by_rule"] is True
    assert not cut_ties.settles_ties_at_the_cut(settings, "organizer")
