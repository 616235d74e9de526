"""Properties that hold for every legal round and every match, checked on generated examples."""

import random
from collections import Counter
from functools import reduce

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import Card, Suit
from games.rules.commands import PlayCard, StartRound
from games.rules.errors import RuleViolation
from games.rules.match import MatchFormat, MatchState, start_match
from games.rules.outcome import RoundOutcome
from games.rules.replay import (
    fold_events,
    handle,
    legal_cards,
    play_card,
    replay_round,
    start_command_of,
    start_round,
)
from games.rules.round import decide
from games.rules.round_state import RoundState
from games.rules.simulate import simulate_round
from games.rules.tables import Table
from games.rules.tricks import Play
from games.rules.variants import DECK_NAMES, THREE_WINNERS, Variant

TABLE_SETUPS = st.sampled_from([(2, 3), (2, 9), (3, 3), (4, 3), (6, 3)])


@st.composite
def finished_rounds(draw: st.DrawFn) -> RoundState:
    table_size, hand_size = draw(TABLE_SETUPS)
    six_player_deck = draw(st.sampled_from([36, 48])) if table_size == 6 else 36
    variant = Variant(
        hand_size=hand_size,
        three_ranks_as_three=draw(st.booleans()),
        removed_card_for_three=Card(2, draw(st.sampled_from(tuple(Suit)))),
        deck_names="french" if six_player_deck == 48 else draw(st.sampled_from(DECK_NAMES)),
        six_player_deck=six_player_deck,
        three_winner=draw(st.sampled_from(THREE_WINNERS)) if table_size == 3 else "most_points",
    )
    return simulate_round(random.Random(draw(st.integers(0, 2**32))), table_size, variant)


ROUNDS = settings(max_examples=100, deadline=None)


@ROUNDS
@given(finished_rounds())
def test_every_card_of_the_deck_is_played_exactly_once(state: RoundState) -> None:
    assert Counter(card for _, card in state.plays) == Counter(state.table.deck)


@ROUNDS
@given(finished_rounds())
def test_every_finished_round_shares_out_120_points(state: RoundState) -> None:
    assert sum(state.points) == 120
    assert sum(trick.points for trick in state.tricks) == 120
    assert state.outcome == RoundOutcome.from_points(state.points, state.table.variant.three_winner)


@ROUNDS
@given(finished_rounds())
def test_a_round_has_as_many_tricks_as_cards_per_seat(state: RoundState) -> None:
    expected = {2: 20, 3: 13, 4: 10, 6: state.table.variant.six_player_deck // 6}[state.table.size]

    assert len(state.tricks) == expected
    assert all(len(trick.plays) == state.table.size for trick in state.tricks)
    assert state.hands == ((),) * state.table.size


@ROUNDS
@given(finished_rounds())
def test_each_trick_winner_leads_the_next_trick(state: RoundState) -> None:
    leaders = [trick.leader for trick in state.tricks]

    assert leaders[0] == state.table.next_seat(state.dealer)
    assert leaders[1:] == [trick.winner for trick in state.tricks[:-1]]


@ROUNDS
@given(finished_rounds())
def test_folding_the_events_gives_the_incremental_state(state: RoundState) -> None:
    events, incremental = handle(None, start_command_of(state))
    for seat, card in state.plays:
        new_events, incremental = handle(incremental, PlayCard(seat, card))
        events += new_events

    assert fold_events(events) == incremental
    assert incremental == state


@ROUNDS
@given(finished_rounds())
def test_a_dealt_round_replays_the_same_as_a_physical_round(state: RoundState) -> None:
    variant = state.variant
    physical = StartRound(state.table.size, state.dealer, state.briscola, variant)

    result = replay_round(physical, state.plays)

    assert result.is_legal
    assert result.state.tricks == state.tricks
    assert result.state.outcome == state.outcome
    assert result.state.briscola_holder == state.briscola_holder


TABLE_SIZES = st.sampled_from([2, 3, 4, 6])


@st.composite
def round_outcomes(draw: st.DrawFn, table_size: int) -> RoundOutcome:
    side_count = Table(table_size).side_count
    cuts = sorted(
        draw(st.lists(st.integers(0, 120), min_size=side_count - 1, max_size=side_count - 1))
    )
    points = [high - low for low, high in zip([0, *cuts], [*cuts, 120], strict=True)]
    return RoundOutcome.from_points(points)


def first_to_wins(
    outcomes: list[RoundOutcome], wins_needed: int, side_count: int
) -> tuple[int | None, int]:
    """An independent model of best-of scoring: the winner (if any) and the rounds played."""
    wins = [0] * side_count
    for played, outcome in enumerate(outcomes, start=1):
        if outcome.winning_side is not None:
            wins[outcome.winning_side] += 1
            if wins[outcome.winning_side] == wins_needed:
                return outcome.winning_side, played
    return None, len(outcomes)


@settings(max_examples=150, deadline=None)
@given(st.data(), TABLE_SIZES, st.sampled_from([1, 3, 5]))
def test_best_of_matches_go_to_the_first_side_winning_a_majority_of_counted_rounds(
    data: st.DataObject, table_size: int, best_of: int
) -> None:
    outcomes = data.draw(st.lists(round_outcomes(table_size), max_size=15))
    match = start_match(table_size=table_size, match_format=MatchFormat.best_of(best_of))
    winner, played = first_to_wins(outcomes, best_of // 2 + 1, match.table.side_count)

    match = reduce(MatchState.record_round, outcomes[:played], match)

    assert match.winner == winner
    assert match.is_finished == (winner is not None)
    assert len(match.records) == played
    ties = [record for record in match.records if record.outcome.is_tie]
    assert not any(record.counts for record in ties)
    assert all(record.replayed_by in (None, record.number + 1) for record in ties)
    assert sum(match.round_wins) == played - len(ties)


@settings(max_examples=100, deadline=None)
@given(st.data(), TABLE_SIZES, st.integers(1, 6))
def test_points_matches_play_every_round_and_go_to_the_most_points(
    data: st.DataObject, table_size: int, rounds: int
) -> None:
    outcomes = data.draw(st.lists(round_outcomes(table_size), min_size=rounds, max_size=rounds))
    start = start_match(table_size=table_size, match_format=MatchFormat.fixed_rounds(rounds))

    match = reduce(MatchState.record_round, outcomes, start)

    totals = [sum(points) for points in zip(*(outcome.points for outcome in outcomes), strict=True)]
    assert match.is_finished
    assert list(match.total_points) == totals
    assert match.winner == RoundOutcome.from_points(totals).winning_side


def cards_decide_accepts(state: RoundState, seat: int) -> set[Card]:
    """Every card of the deck that `seat` could play now, asked of `decide` itself."""
    accepted = set()
    for card in state.table.deck:
        try:
            decide(state, PlayCard(seat, card))
        except RuleViolation:
            continue
        accepted.add(card)
    return accepted


@st.composite
def started_rounds(draw: st.DrawFn) -> RoundState:
    """A new round at any table, physical (only the briscola known) or dealt from a shuffle."""
    table_size, hand_size = draw(TABLE_SETUPS)
    table = Table(table_size, Variant(hand_size=hand_size))
    dealer = draw(st.sampled_from(table.seats))
    if draw(st.booleans()):
        deck = tuple(draw(st.permutations(table.deck)))
        return start_round(StartRound(table_size, dealer, variant=table.variant, deck=deck))
    briscola = draw(st.sampled_from(table.deck))
    return start_round(StartRound(table_size, dealer, briscola, table.variant))


@ROUNDS
@given(started_rounds(), st.data())
def test_no_sequence_of_accepted_plays_leaves_a_round_without_a_legal_next_play(
    state: RoundState, data: st.DataObject
) -> None:
    while (seat := state.seat_on_turn) is not None:
        accepted = cards_decide_accepts(state, seat)
        assert accepted, f"seat {seat} can play nothing after {state.plays}"
        assert set(legal_cards(state)) == accepted
        card = data.draw(st.sampled_from(sorted(accepted, key=lambda card: card.code)))
        state = play_card(state, Play(seat, card))

    assert sum(state.points) == 120
