"""Rounds dealt by the server in the match stream: the deck is recorded, the hands follow from it,
and every card played, undone or corrected must come from its seat's hand."""

import pytest

from games.matches.stream.commands import (
    CorrectCard,
    EnterRoundPoints,
    MatchCommand,
    PlayCardInRound,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.errors import BriscolaDealtByServer, DealtRoundTakesCardsOnly
from games.matches.stream.events import MatchEvent, match_event_from_stored
from games.matches.stream.evolve import fold
from games.rules.cards import parse_card
from games.rules.errors import CardNotInHand, InvalidDeck, NotYourTurn
from games.rules.tables import Table
from tests.games.matches.builders import (
    dealt_round,
    new_match,
    run,
    shuffled_deck,
)


def test_a_round_dealt_by_the_server_records_its_deck_and_turns_up_its_briscola() -> None:
    match = new_match()
    deck = shuffled_deck(2, seed=3)

    [event] = decide(match, StartNextRound(briscola=None, deck=deck))

    assert event.type == "RoundStarted"
    assert event.to_payload() == {
        "round": 1,
        "dealer": 0,
        "briscola": deck[6].code,
        "deck": [card.code for card in deck],
    }


def test_each_seat_is_dealt_every_other_card_from_the_leader_on() -> None:
    deck = shuffled_deck(2, seed=3)

    match = run(new_match(), StartNextRound(briscola=None, dealer=0, deck=deck))

    cards = match.rounds[0].cards
    assert cards is not None
    assert match.rounds[0].is_dealt
    assert cards.hands is not None
    assert set(cards.hands[1]) == {deck[0], deck[2], deck[4]}
    assert set(cards.hands[0]) == {deck[1], deck[3], deck[5]}
    assert match.rounds[0].briscola == deck[6]


def test_a_physical_round_is_not_dealt_and_its_event_carries_no_deck() -> None:
    match = new_match()

    [event] = decide(match, StartNextRound(briscola=parse_card("7D")))

    assert "deck" not in event.to_payload()
    assert not run(match, StartNextRound(briscola=parse_card("7D"))).rounds[0].is_dealt


def test_naming_a_briscola_for_a_round_the_server_deals_is_refused() -> None:
    deck = shuffled_deck(2, seed=3)

    with pytest.raises(BriscolaDealtByServer):
        decide(new_match(), StartNextRound(briscola=deck[6], deck=deck))


def test_a_deck_that_is_not_the_tables_deck_is_refused() -> None:
    deck = shuffled_deck(2, seed=3)

    with pytest.raises(InvalidDeck):
        decide(new_match(), StartNextRound(briscola=None, deck=deck[:-1]))
    with pytest.raises(InvalidDeck):
        decide(new_match(table_size=3), StartNextRound(briscola=None, deck=deck[:39]))


def test_a_card_that_is_not_in_the_seats_hand_is_refused() -> None:
    match = dealt_round(new_match(), seed=5, upto=0)
    cards = match.rounds[0].cards
    assert cards is not None
    assert cards.hands is not None
    seat = cards.seat_on_turn
    assert seat is not None
    others_card = cards.hands[1 - seat][0]

    with pytest.raises(CardNotInHand):
        decide(match, PlayCardInRound(1, seat, others_card))


def test_a_card_from_the_hand_of_a_seat_not_on_turn_is_refused() -> None:
    match = dealt_round(new_match(), seed=5, upto=0)
    cards = match.rounds[0].cards
    assert cards is not None
    assert cards.hands is not None
    waiting = 1 - (cards.seat_on_turn or 0)

    with pytest.raises(NotYourTurn):
        decide(match, PlayCardInRound(1, waiting, cards.hands[waiting][0]))


@pytest.mark.parametrize("table_size", [2, 3, 4, 6])
def test_a_dealt_round_played_from_the_hands_ends_with_120_points(table_size: int) -> None:
    match = dealt_round(new_match(table_size=table_size), seed=table_size)

    finished = match.rounds[0]
    assert finished.status == "finished"
    assert len(finished.plays) == len(Table(table_size).deck)
    assert finished.outcome is not None
    assert sum(finished.outcome.points) == 120


def test_points_only_are_refused_for_a_dealt_round() -> None:
    match = dealt_round(new_match(), seed=5, upto=0)

    with pytest.raises(DealtRoundTakesCardsOnly) as refused:
        decide(match, EnterRoundPoints(1, (60, 60)))
    assert refused.value.code == "round_is_dealt"


def test_undo_in_a_dealt_round_gives_the_card_back_to_its_hand() -> None:
    before = dealt_round(new_match(), seed=5, upto=1)
    after = dealt_round(new_match(), seed=5, upto=2)

    undone = run(after, UndoLastPlay(1))

    assert undone.rounds[0].plays == before.rounds[0].plays
    assert undone.rounds[0].cards is not None
    assert before.rounds[0].cards is not None
    assert undone.rounds[0].cards.hands == before.rounds[0].cards.hands


def test_a_correction_in_a_dealt_round_to_another_card_of_the_hand_is_accepted() -> None:
    match = dealt_round(new_match(), seed=5, upto=1)
    cards = match.rounds[0].cards
    assert cards is not None
    first = cards.plays[0]
    start = dealt_round(new_match(), seed=5, upto=0).rounds[0].cards
    assert start is not None
    assert start.hands is not None
    other = next(card for card in start.hands[first.seat] if card != first.card)

    corrected = run(match, CorrectCard(1, 0, other))

    corrected_cards = corrected.rounds[0].cards
    assert corrected_cards is not None
    assert corrected_cards.hands is not None
    assert corrected.rounds[0].plays[0].card == other
    assert first.card in corrected_cards.hands[first.seat]


def test_a_correction_in_a_dealt_round_to_a_card_not_in_the_hand_is_refused() -> None:
    match = dealt_round(new_match(), seed=5, upto=1)
    cards = match.rounds[0].cards
    assert cards is not None
    assert cards.hands is not None
    first = cards.plays[0]
    someone_elses = cards.hands[1 - first.seat][0]

    with pytest.raises(CardNotInHand):
        decide(match, CorrectCard(1, 0, someone_elses))


def test_a_voided_dealt_round_is_dealt_again_by_the_same_seat() -> None:
    match = dealt_round(new_match(), seed=5, upto=3)
    match = run(match, VoidRound(1, "misdeal"))

    match = dealt_round(match, seed=6, upto=0)

    assert match.rounds[0].status == "voided"
    assert match.rounds[1].dealer == match.rounds[0].dealer
    assert match.rounds[1].is_dealt


def test_folding_the_events_of_a_dealt_round_gives_the_same_state() -> None:
    plays = dealt_round(new_match(), seed=9, upto=2).rounds[0].plays
    commands: list[MatchCommand] = [
        StartNextRound(briscola=None, deck=shuffled_deck(2, seed=9)),
        *(PlayCardInRound(1, play.seat, play.card) for play in plays),
        UndoLastPlay(1),
    ]
    match = new_match()
    events: list[MatchEvent] = []
    for command in commands:
        new = decide(match, command)
        events += new
        match = fold(new, match)

    assert fold(events, new_match()) == match
    assert len(match.rounds[0].plays) == 1


def test_a_round_started_event_without_a_deck_still_folds_as_a_physical_round() -> None:
    old_event = match_event_from_stored("RoundStarted", {"round": 1, "dealer": 0, "briscola": "7D"})

    folded = fold([old_event], new_match())

    assert folded.rounds[0].briscola == parse_card("7D")
    assert not folded.rounds[0].is_dealt
