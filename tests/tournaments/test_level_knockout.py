"""No match without a winner (decision record 0029), on pure folds: the tournament stream's
decide/fold and the match stream's decide/fold, without a database."""

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.matches import stream as matches
from games.rules import DEFAULT_VARIANT, MatchFormat
from tournaments import plan
from tournaments.errors import (
    EntrantNotFound,
    InvalidTournament,
    MatchNotLevel,
    ReasonRequired,
)
from tournaments.stream import (
    LEVEL_MATCH_DECIDED,
    RESULT_RECORDED,
    TOURNAMENT_CREATED,
    CreateTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    Fixture,
    RecordResult,
    RegisterEntrant,
    Result,
    StartTournament,
    TournamentEvent,
    TournamentSettings,
    TournamentState,
    decide,
    fold,
)

TOURNAMENT = uuid.UUID(int=29)
LEVEL = Result(winner=None, rounds=(1, 1), points=(120, 120))


def run(state: TournamentState | None, command: Any) -> TournamentState:
    events = decide(state, command)
    return state if not events else fold(events, state)  # type: ignore[return-value]


def started(format: str, entrants: int, **options: Any) -> TournamentState:
    options.setdefault("scoring", "points")
    options.setdefault("rounds", 2)
    state = run(None, CreateTournament("Club", TournamentSettings(format, 2, **options)))
    for entrant in range(1, entrants + 1):
        state = run(state, RegisterEntrant(entrant, players=1, seed=entrant))
    return run(state, StartTournament(TOURNAMENT))


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
    state = fold([TournamentEvent(TOURNAMENT_CREATED, {"name": "Old", "settings": old_settings})])

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

    assert plan.match_decider(state, first_fixture(state).id) == decider


def test_group_matches_never_get_a_deciding_round_but_the_knockout_does() -> None:
    state = started("groups_then_knockout", 4, group_size=4, advance_per_group=2)

    assert all(plan.match_decider(state, f) == "none" for f in state.fixtures)
    state = play_groups(state)
    knockout = [f for f in state.fixtures if plan.is_knockout_fixture(state, f)]
    assert knockout
    assert all(plan.match_decider(state, f) == "round" for f in knockout)


def play_groups(state: TournamentState) -> TournamentState:
    for fixture in list(state.fixtures.values()):
        state = fold(record(state, fixture, Result(fixture.home, (1, 0), (70, 50))), state)
    return state


# The higher seed.


def test_under_the_higher_seed_rule_a_level_knockout_match_goes_to_the_higher_seed() -> None:
    state = started("single_elimination", 4, level_knockout="higher_seed")
    fixture = first_fixture(state)

    recorded = record(state, fixture, LEVEL)

    assert recorded[0].type == RESULT_RECORDED
    assert recorded[0].payload["winner"] == min(fixture.home, fixture.away)
    assert recorded[0].payload["decided_by"] == "higher_seed"
    again = fold(recorded, state)
    assert record(again, fixture, LEVEL) == []


def test_a_level_group_match_stays_level_whatever_the_rule() -> None:
    state = started("groups_then_knockout", 4, group_size=4, level_knockout="higher_seed")
    fixture = first_fixture(state)

    recorded = record(state, fixture, LEVEL)

    assert recorded[0].payload["winner"] is None
    assert "decided_by" not in recorded[0].payload


# The organizer.


def level_under_organizer() -> tuple[TournamentState, Fixture]:
    state = started("single_elimination", 2, level_knockout="organizer")
    fixture = first_fixture(state)
    return fold(record(state, fixture, LEVEL), state), fixture


def test_the_organizer_names_the_winner_of_a_level_knockout_match_with_a_reason() -> None:
    state, fixture = level_under_organizer()
    assert not state.finished

    events = decide(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.away, " lot "))

    assert events[0].type == LEVEL_MATCH_DECIDED
    assert events[0].payload == {"fixture": fixture.id, "winner": fixture.away, "reason": "lot"}
    decided = fold(events, state)
    assert decided.results[fixture.id].winner == fixture.away
    assert decided.results[fixture.id].decided_by == "organizer"
    assert decided.finished


def test_the_organizers_decision_stands_when_the_same_level_result_is_synced_again() -> None:
    state, fixture = level_under_organizer()
    decided = run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.home, "lot"))

    assert record(decided, fixture, LEVEL) == []
    changed = record(decided, fixture, Result(fixture.away, (0, 2), (100, 140)))
    assert changed[0].payload["winner"] == fixture.away


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

ROUND_POINTS = st.sampled_from([(70, 50), (50, 70), (60, 60), (61, 59), (59, 61)])
KNOCKOUT_FORMATS = [
    ("single_elimination", {}),
    ("single_elimination", {"third_place": True}),
    ("double_elimination", {}),
    ("groups_then_knockout", {"group_size": 3, "advance_per_group": 2}),
]
SCORINGS = [
    {"scoring": "rounds", "best_of": 1},
    {"scoring": "rounds", "best_of": 3},
    {"scoring": "points", "rounds": 1},
    {"scoring": "points", "rounds": 2},
]


def played_match(
    state: TournamentState, fixture: Fixture, data: st.DataObject
) -> matches.MatchAggregate:
    """The fixture's match played round by round (points drawn) until the match is over."""
    rules = state.settings
    decider = plan.match_decider(state, fixture.id)
    match_format = (
        MatchFormat.best_of(rules.best_of)
        if rules.scoring == "rounds"
        else MatchFormat("points", rules.rounds or 1, decider)  # type: ignore[arg-type]
    )
    create = matches.CreateMatch(2, match_format, ({}, {}), DEFAULT_VARIANT)
    match = matches.fold(matches.decide(None, create))
    while not match.is_finished:
        ties_allowed = len(match.rounds) < 12
        points = data.draw(ROUND_POINTS if ties_allowed else st.just((70, 50)))
        match = matches.fold(matches.decide(match, matches.StartNextRound(None)), match)
        number = len(match.rounds)
        entered = matches.EnterRoundPoints(number, points)
        match = matches.fold(matches.decide(match, entered), match)
    return match


def result_of(fixture: Fixture, match: matches.MatchAggregate) -> Result:
    record = match.record
    return Result(
        winner=None if match.winner is None else fixture.entrants[match.winner],
        rounds=(record.round_wins[0], record.round_wins[1]),
        points=(record.total_points[0], record.total_points[1]),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(KNOCKOUT_FORMATS),
    scoring=st.sampled_from(SCORINGS),
    rule=st.sampled_from(plan.LEVEL_KNOCKOUT_RULES),
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
    for _step in range(200):
        if state.finished:
            break
        waiting = [f for f in state.fixtures.values() if f.id not in state.results]
        if waiting:
            fixture = waiting[0]
            result = result_of(fixture, played_match(state, fixture, data))
            state = run(state, RecordResult(TOURNAMENT, fixture.match_id, result))
        else:
            decided = settled_by_the_organizer(state, data)
            assert decided is not None, "the tournament waits on nothing it can settle"
            assert state.settings.level_knockout == "organizer"
            state = decided
    assert state.finished
    for fixture_id, result in state.results.items():
        if plan.is_knockout_fixture(state, fixture_id):
            assert result.winner is not None


def settled_by_the_organizer(state: TournamentState, data: st.DataObject) -> TournamentState | None:
    """The organizer's next decision, as one would take it: a level knockout (or playoff) match
    given a winner, or a group's places at the cut given an order. None: nothing to decide."""
    level = [
        f
        for f in state.fixtures.values()
        if f.id in state.results
        and state.results[f.id].winner is None
        and plan.is_knockout_fixture(state, f.id)
    ]
    if level:
        fixture = level[0]
        winner = data.draw(st.sampled_from(fixture.entrants))
        return run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, winner, "lot"))
    for group in plan.group_stages_of(state):
        tie = plan.group_cut_tie(state, group.name)
        decided = state.group_places.get(group.name)
        if tie is not None and (decided is None or set(decided) != set(tie.tied)):
            order = data.draw(st.permutations(tie.tied))
            return run(state, DecideGroupPlaces(TOURNAMENT, group.name, tuple(order), "lot"))
    return None


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
    rule=st.sampled_from(plan.LEVEL_KNOCKOUT_RULES),
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
    for _step in range(400):
        if state.finished:
            break
        waiting = [f for f in state.fixtures.values() if f.id not in state.results]
        if waiting:
            fixture = waiting[0]
            result = result_of(fixture, played_match(state, fixture, data))
            state = run(state, RecordResult(TOURNAMENT, fixture.match_id, result))
            continue
        decided = settled_by_the_organizer(state, data)
        assert decided is not None, "the tournament waits on nothing it can settle"
        assert rule == "organizer"
        state = decided
    assert state.finished
    playoffs = [f for f in state.fixtures.values() if "-PO-" in f.id]
    event(f"{rule}: playoff played" if playoffs else f"{rule}: no playoff")
    event(f"{rule}: groups decided" if state.group_places else f"{rule}: no group decided")
    if rule != "deciding_round":
        assert not playoffs
    for fixture_id, result in state.results.items():
        if plan.is_knockout_fixture(state, fixture_id):
            assert result.winner is not None
    knockout = plan.stages(state)[-1]
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

    knockout = plan.stages(state)[-1]
    assert knockout.bracket is not None
    [final] = knockout.fixtures
    assert {final.home, final.away} == {4, 3}
