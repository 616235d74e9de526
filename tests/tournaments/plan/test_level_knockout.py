"""No match without a winner (decision record 0029), on pure folds: the tournament stream's
decide/fold and the match stream's decide/fold, without a database."""

from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.tournaments.played import (
    SCORINGS,
    TOURNAMENT,
    every_knockout_match_has_a_winner,
    played_out,
    run,
    started,
)
from tournaments.errors import (
    EntrantNotFound,
    InvalidTournament,
    MatchNotLevel,
    ReasonRequired,
)
from tournaments.plan import drawing, knockouts
from tournaments.state import Fixture, Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    DecideLevelMatch,
    RecordResult,
    RegisterEntrant,
    StartTournament,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import TOURNAMENT_CREATED, TournamentEvent, decode, encode
from tournaments.stream.evolve import fold
from tournaments.stream.fixture_events import LEVEL_MATCH_DECIDED, RESULT_RECORDED

LEVEL = Result(winner=None, rounds=(1, 1), points=(120, 120))


def first_fixture(state: TournamentState) -> Fixture:
    return min(state.fixtures.values(), key=lambda fixture: fixture.sequence)


def record(state: TournamentState, fixture: Fixture, result: Result) -> list[TournamentEvent]:
    return decide(state, RecordResult(TOURNAMENT, fixture.match_id, result))


# The rule, fixed when the tournament is created.


def test_a_tournament_plays_a_deciding_round_unless_it_names_another_rule() -> None:
    assert TournamentSettings("single_elimination", 2).level_knockout == "deciding_round"


def test_an_unknown_rule_for_level_knockout_matches_is_refused() -> None:
    settings = TournamentSettings("single_elimination", 2, level_knockout="coin_toss")

    with pytest.raises(InvalidTournament):
        decide(None, CreateTournament("Club", settings))


def test_a_tournament_recorded_before_the_rule_folds_with_no_rule_and_no_decider() -> None:
    old_settings = {"format": "single_elimination", "table_size": 2, "scoring": "points"}
    state = fold(
        [
            decode(
                TOURNAMENT_CREATED,
                {"name": "Old", "settings": old_settings, "club": None, "public": True},
            )
        ]
    )

    assert state.settings.level_knockout is None


@pytest.mark.parametrize(
    ("rule", "scoring", "decider"),
    [
        ("deciding_round", "points", "round"),
        ("deciding_round", "rounds", "none"),
        ("higher_seed", "points", "none"),
        ("organizer", "points", "none"),
    ],
)
def test_knockout_matches_get_a_deciding_round_only_under_that_rule_and_points(
    rule: str, scoring: str, decider: str
) -> None:
    state = started("single_elimination", 4, level_knockout=rule, scoring=scoring)

    assert knockouts.match_decider(state, first_fixture(state).id) == decider


def test_group_matches_never_get_a_deciding_round_but_the_knockout_does() -> None:
    state = started("groups_then_knockout", 4, group_size=4, advance_per_group=2)

    assert all(knockouts.match_decider(state, f) == "none" for f in state.fixtures)
    state = play_groups(state)
    knockout = [f for f in state.fixtures if knockouts.is_knockout_fixture(state, f)]
    assert knockout
    assert all(knockouts.match_decider(state, f) == "round" for f in knockout)


def play_groups(state: TournamentState) -> TournamentState:
    for fixture in list(state.fixtures.values()):
        state = fold(record(state, fixture, Result(fixture.home, (1, 0), (70, 50))), state)
    return state


# The higher seed.


def test_under_the_higher_seed_rule_a_level_knockout_match_goes_to_the_higher_seed() -> None:
    state = started("single_elimination", 4, level_knockout="higher_seed")
    fixture = first_fixture(state)

    recorded = record(state, fixture, LEVEL)

    assert encode(recorded[0])[0] == RESULT_RECORDED
    assert encode(recorded[0])[1]["winner"] == min(fixture.home, fixture.away)
    assert encode(recorded[0])[1]["decided_by"] == "higher_seed"
    again = fold(recorded, state)
    assert record(again, fixture, LEVEL) == []


def test_a_level_group_match_stays_level_whatever_the_rule() -> None:
    state = started("groups_then_knockout", 4, group_size=4, level_knockout="higher_seed")
    fixture = first_fixture(state)

    recorded = record(state, fixture, LEVEL)

    assert encode(recorded[0])[1]["winner"] is None
    assert "decided_by" not in encode(recorded[0])[1]


# The organizer.


def level_under_organizer() -> tuple[TournamentState, Fixture]:
    state = started("single_elimination", 2, level_knockout="organizer")
    fixture = first_fixture(state)
    return fold(record(state, fixture, LEVEL), state), fixture


def test_the_organizer_names_the_winner_of_a_level_knockout_match_with_a_reason() -> None:
    state, fixture = level_under_organizer()
    assert not state.finished

    events = decide(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.away, " lot "))

    assert encode(events[0])[0] == LEVEL_MATCH_DECIDED
    assert encode(events[0])[1] == {"fixture": fixture.id, "winner": fixture.away, "reason": "lot"}
    decided = fold(events, state)
    assert decided.results[fixture.id].winner == fixture.away
    assert decided.results[fixture.id].decided_by == "organizer"
    assert decided.finished


def test_the_organizers_decision_stands_when_the_same_level_result_is_synced_again() -> None:
    state, fixture = level_under_organizer()
    decided = run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.home, "lot"))

    assert record(decided, fixture, LEVEL) == []
    changed = record(decided, fixture, Result(fixture.away, (0, 2), (100, 140)))
    assert encode(changed[0])[1]["winner"] == fixture.away


@pytest.mark.parametrize(
    ("winner", "reason", "refusal"),
    [(1, "", ReasonRequired), (99, "lot", EntrantNotFound)],
)
def test_a_decision_needs_a_reason_and_one_of_the_two_entrants(
    winner: int, reason: str, refusal: type[Exception]
) -> None:
    state, fixture = level_under_organizer()

    with pytest.raises(refusal):
        decide(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, winner, reason))


def test_only_a_level_knockout_match_is_decided_by_the_organizer() -> None:
    state, fixture = level_under_organizer()
    decided = run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.home, "lot"))
    unplayed = started("single_elimination", 2, level_knockout="organizer")
    groups = started("groups_then_knockout", 4, group_size=4, level_knockout="organizer")
    group_fixture = first_fixture(groups)
    groups = fold(record(groups, group_fixture, LEVEL), groups)

    for refused_state, match_id in [
        (decided, fixture.match_id),
        (unplayed, first_fixture(unplayed).match_id),
        (groups, group_fixture.match_id),
    ]:
        with pytest.raises(MatchNotLevel):
            decide(refused_state, DecideLevelMatch(TOURNAMENT, match_id, fixture.home, "lot"))


# The property: every knockout match gets a winner, however the rounds fall.

KNOCKOUT_FORMATS = [
    ("single_elimination", {}),
    ("single_elimination", {"third_place": True}),
    ("double_elimination", {}),
    ("groups_then_knockout", {"group_size": 3, "advance_per_group": 2}),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(KNOCKOUT_FORMATS),
    scoring=st.sampled_from(SCORINGS),
    rule=st.sampled_from(knockouts.LEVEL_KNOCKOUT_RULES),
    entrants=st.integers(min_value=2, max_value=7),
    data=st.data(),
)
def test_every_knockout_match_gets_a_winner_and_every_tournament_finishes(
    form: tuple[str, dict[str, Any]],
    scoring: dict[str, Any],
    rule: str,
    entrants: int,
    data: st.DataObject,
) -> None:
    format_name, options = form
    state = started(format_name, entrants, **options, **scoring, level_knockout=rule)

    state = played_out(state, data, steps=200)

    assert state.finished
    assert every_knockout_match_has_a_winner(state)


GROUP_OPTIONS = st.fixed_dictionaries(
    {
        "group_size": st.integers(min_value=2, max_value=4),
        "advance_per_group": st.integers(min_value=1, max_value=2),
        "tiebreaks": st.sampled_from([("match_points",), ("match_points", "head_to_head"), None]),
    }
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=GROUP_OPTIONS,
    scoring=st.sampled_from(SCORINGS),
    rule=st.sampled_from(knockouts.LEVEL_KNOCKOUT_RULES),
    groups=st.integers(min_value=2, max_value=3),
    short=st.booleans(),
    data=st.data(),
)
def test_groups_tied_at_the_cut_are_settled_and_every_knockout_match_gets_a_winner(
    options: dict[str, Any],
    scoring: dict[str, Any],
    rule: str,
    groups: int,
    short: bool,
    data: st.DataObject,
) -> None:
    """Groups of two to four (one group a member short when it can be), ranked by tie-breaks
    that leave ties often, every scoring and every rule: every tournament finishes."""
    size = options["group_size"]
    entrants = groups * size - (1 if short and size > 2 else 0)
    state = started("groups_then_knockout", entrants, **options, **scoring, level_knockout=rule)

    state = played_out(state, data)

    assert state.finished
    playoffs = [f for f in state.fixtures.values() if "-PO-" in f.id]
    event(f"{rule}: playoff played" if playoffs else f"{rule}: no playoff")
    event(f"{rule}: groups decided" if state.group_places else f"{rule}: no group decided")
    if rule != "deciding_round":
        assert not playoffs
    assert every_knockout_match_has_a_winner(state)
    knockout = drawing.stages(state)[-1]
    assert knockout.bracket is not None


def test_a_tie_for_a_knockout_place_that_the_tie_breaks_leave_goes_to_the_higher_seed() -> None:
    settings = TournamentSettings(
        "groups_then_knockout",
        2,
        group_size=2,
        advance_per_group=1,
        tiebreaks=("match_points",),
        level_knockout="higher_seed",
    )
    state = run(None, CreateTournament("Club", settings))
    for entrant in range(1, 5):
        state = run(state, RegisterEntrant(entrant, players=1, seed=5 - entrant))
    state = run(state, StartTournament(TOURNAMENT))
    for fixture in list(state.fixtures.values()):
        state = fold(record(state, fixture, LEVEL), state)

    knockout = drawing.stages(state)[-1]
    assert knockout.bracket is not None
    [final] = knockout.fixtures
    assert {final.home, final.away} == {4, 3}
