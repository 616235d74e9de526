"""The match stream's evolve applies what decide judged: a card (or a round's start) decided by
the stream carries what the rules made of it, and folds to the very state that the same event
read back from its stored payload folds to, the rules judging it again (decision record 0064)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.matches.stream.commands import (
    MatchCommand,
    PlayCardInRound,
    PlayCardsInRound,
    StartNextRound,
    UndoLastPlay,
)
from games.matches.stream.decide import decide
from games.matches.stream.events import (
    CardPlayed,
    MatchEvent,
    RoundStarted,
    match_event_from_stored,
)
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate
from games.rules.cards import Card, parse_card
from games.rules.events import CardLaid, RoundEnded, TrickWon
from games.rules.replay import legal_cards, play_card
from games.rules.round_state import RoundState
from games.rules.tricks import Play
from tests.games.matches.builders import new_match, random_plays, run, shuffled_deck


def read_back(events: list[MatchEvent]) -> list[MatchEvent]:
    """The events as a load reads them: from their stored type and payload only."""
    return [match_event_from_stored(event.type, event.to_payload()) for event in events]


def cards_of_round(match: MatchAggregate, number: int) -> RoundState:
    cards = match.rounds[number - 1].cards
    assert cards is not None
    return cards


def next_play(match: MatchAggregate) -> PlayCardInRound:
    """The first legal card of the seat on turn in the match's last round."""
    cards = cards_of_round(match, len(match.rounds))
    seat = cards.seat_on_turn
    assert seat is not None
    return PlayCardInRound(len(match.rounds), seat, legal_cards(cards)[0])


def test_a_decided_card_carries_what_the_rules_made_of_it_and_stores_the_play_alone() -> None:
    match = run(new_match(), StartNextRound(briscola=None, deck=shuffled_deck(2, seed=3)))
    lead = next_play(match)
    (led,) = decide(match, lead)
    match = fold([led], match)
    (answered,) = decide(match, next_play(match))

    assert isinstance(led, CardPlayed)
    assert led.decided == (CardLaid(lead.seat, lead.card),)
    assert led.to_payload() == {"round": 1, "seat": lead.seat, "card": lead.card.code}
    assert isinstance(answered, CardPlayed)
    assert answered.decided is not None
    laid, won = answered.decided
    assert laid == CardLaid(answered.seat, answered.card)
    assert isinstance(won, TrickWon)
    assert won.trick.winner in (lead.seat, answered.seat)
    assert won.trick.points == lead.card.points + answered.card.points


def test_a_card_read_back_from_its_payload_carries_nothing_and_folds_to_the_same_state() -> None:
    match = run(new_match(), StartNextRound(briscola=None, deck=shuffled_deck(2, seed=8)))
    decided = decide(match, next_play(match))
    (stored,) = read_back(decided)

    assert stored == decided[0]  # what the rules decided takes no part in comparisons
    assert isinstance(stored, CardPlayed)
    assert stored.decided is None
    assert fold([stored], match) == fold(decided, match)


def test_a_started_round_carries_the_rules_deal_unless_it_is_scored_by_points_only() -> None:
    deck = shuffled_deck(2, seed=4)
    (dealt,) = decide(new_match(), StartNextRound(briscola=None, deck=deck))
    (physical,) = decide(new_match(), StartNextRound(briscola=parse_card("1D")))
    (points_only,) = decide(new_match(), StartNextRound(briscola=None))

    assert isinstance(dealt, RoundStarted)
    assert dealt.decided is not None
    assert (dealt.decided.deck, dealt.decided.briscola) == (deck, dealt.briscola)
    assert isinstance(physical, RoundStarted)
    assert physical.decided is not None
    assert (physical.decided.deck, physical.decided.briscola) == (None, parse_card("1D"))
    assert isinstance(points_only, RoundStarted)
    assert points_only.decided is None
    for started in (dealt, physical, points_only):
        (stored,) = read_back([started])
        assert stored == started
        assert fold([stored], new_match()) == fold([started], new_match())
        assert "decided" not in started.to_payload()


def test_the_last_card_of_a_round_carries_the_rounds_end() -> None:
    match = run(new_match(), StartNextRound(briscola=None, deck=shuffled_deck(2, seed=5)))
    while cards_of_round(match, 1).seat_on_turn is not None:
        events = decide(match, next_play(match))
        match = fold(events, match)
    (last,) = events

    assert isinstance(last, CardPlayed)
    assert last.decided is not None
    ended = last.decided[-1]
    assert isinstance(ended, RoundEnded)
    assert match.rounds[0].outcome == ended.outcome


# Random games: every command's events folded as decided and as read back from the log.


def step(match: MatchAggregate, command: MatchCommand) -> tuple[MatchAggregate, list[MatchEvent]]:
    """`command` decided, and its events folded as decided; read back from their payloads (the
    rules judging each card again, as before decision 0064) they must fold to the same state."""
    decided = decide(match, command)
    applied = fold(decided, match)
    assert applied == fold(read_back(decided), match)
    return applied, decided


def round_start(match: MatchAggregate, dealt: bool, rng: random.Random) -> StartNextRound:
    seed = rng.randrange(2**32)
    if dealt:
        return StartNextRound(briscola=None, deck=shuffled_deck(match.table.size, seed=seed))
    briscola, _plays = random_plays(match.table.size, match.next_dealer, seed)
    return StartNextRound(briscola=parse_card(briscola))


def a_play_or_an_undo(match: MatchAggregate, rng: random.Random) -> MatchCommand:
    """Mostly one card; now and then a few cards at once, or the last card taken back."""
    number = len(match.rounds)
    cards = cards_of_round(match, number)
    choice = rng.random()
    if choice < 0.1 and cards.plays:
        return UndoLastPlay(number)
    plays: list[tuple[int, Card]] = []
    for _card in range(rng.randint(2, 4) if choice < 0.25 else 1):
        seat = cards.seat_on_turn
        if seat is None:
            break
        card = rng.choice(legal_cards(cards))
        plays.append((seat, card))
        cards = play_card(cards, Play(seat, card))
    if len(plays) == 1:
        return PlayCardInRound(number, *plays[0])
    return PlayCardsInRound(number, tuple(plays))


@settings(max_examples=50, deadline=None)
@given(
    table_size=st.sampled_from([2, 3, 4, 6]),
    best_of=st.sampled_from([1, 3]),
    dealt=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_folding_the_decided_events_gives_the_state_the_log_folds_to(
    table_size: int, best_of: int, dealt: bool, seed: int
) -> None:
    rng = random.Random(seed)
    start = new_match(table_size=table_size, best_of=best_of)
    match, log = start, []
    for _round in range(4):  # a tied round is replayed: four rounds are enough to check
        if match.is_finished:
            break
        match, events = step(match, round_start(match, dealt, rng))
        log += events
        while match.round_in_progress is not None:
            match, events = step(match, a_play_or_an_undo(match, rng))
            log += events

    judged = [event for event in log if isinstance(event, CardPlayed | RoundStarted)]
    assert any(isinstance(event, CardPlayed) for event in judged)
    assert all(event.decided is not None for event in judged)
    assert fold(read_back(log), start) == match
