"""Who sees which hands of a round dealt by the server (games/visibility.py)."""

from typing import Any
from uuid import uuid4

import pytest
from django.contrib.auth.models import AnonymousUser
from hypothesis import given, settings
from hypothesis import strategies as st

from games.matches.stream.commands import PlayCardInRound, StartNextRound, VoidRound
from games.matches.stream.state import MatchAggregate
from games.rules.cards import Card
from games.rules.replay import legal_cards
from games.rules.round_state import RoundState
from games.rules.tables import Table
from games.visibility import (
    EVERYTHING,
    PUBLIC,
    HandsView,
    Viewer,
    viewer_of,
    visible_hands,
    visible_payload,
)
from tests.games.matches.builders import dealt_round, new_match, played_round, run


def cards_shown(view: HandsView | None) -> set[str]:
    return {code for hand in (view or {}).values() for code in hand}


def codes(cards: tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def dealt_hands(deck: tuple[Card, ...], table: Table, leader: int) -> dict[str, list[str]]:
    """The hands as dealt, worked out from the deck here rather than by the rules core: one card
    at a time round the table from the leader."""
    dealt = table.size * table.variant.hand_size
    hands: dict[int, list[Card]] = {seat: [] for seat in table.seats}
    for index, card in enumerate(deck[:dealt]):
        hands[(leader + index) % table.size].append(card)
    return {
        str(seat): [c.code for c in sorted(hand, key=lambda c: c.bit)]
        for seat, hand in hands.items()
    }


def live_cards(match: MatchAggregate) -> RoundState:
    cards = match.rounds[-1].cards
    assert cards is not None
    return cards


def test_the_public_sees_no_hand_while_a_dealt_round_is_played() -> None:
    cards = live_cards(dealt_round(new_match(), seed=1, upto=3))

    assert visible_hands(PUBLIC, cards, over=False) == {}


def test_a_player_sees_only_their_own_hand_while_the_stock_lasts() -> None:
    cards = live_cards(dealt_round(new_match(table_size=4), seed=1, upto=5))
    assert cards.hands is not None
    assert not cards.stock_is_empty

    view = visible_hands(Viewer.at_seats([2]), cards, over=False)

    assert view == {"2": codes(cards.hands[2])}


def test_partners_see_each_others_hands_once_the_stock_is_empty() -> None:
    table = Table(4)
    cards = live_cards(dealt_round(new_match(table_size=4), seed=1, upto=table.drawing_tricks * 4))
    assert cards.hands is not None
    assert cards.partners_may_show_hands

    view = visible_hands(Viewer.at_seats([1]), cards, over=False)

    assert view == {"1": codes(cards.hands[1]), "3": codes(cards.hands[3])}


def test_opponents_at_two_players_never_see_each_other_even_with_an_empty_stock() -> None:
    table = Table(2)
    cards = live_cards(dealt_round(new_match(), seed=1, upto=table.drawing_tricks * 2))
    assert cards.hands is not None
    assert cards.stock_is_empty

    assert visible_hands(Viewer.at_seats([0]), cards, over=False) == {"0": codes(cards.hands[0])}


def test_whoever_sees_everything_sees_every_current_hand() -> None:
    cards = live_cards(dealt_round(new_match(table_size=3), seed=1, upto=4))
    assert cards.hands is not None

    view = visible_hands(EVERYTHING, cards, over=False)

    assert view == {str(seat): codes(hand) for seat, hand in enumerate(cards.hands)}


def test_a_voided_dealt_round_shows_everybody_the_hands_as_dealt() -> None:
    match = run(dealt_round(new_match(), seed=4, upto=5), VoidRound(1, "misdeal"))
    cards = live_cards(match)
    assert cards.setup.started.deck is not None

    view = visible_hands(PUBLIC, cards, over=True)

    assert view == dealt_hands(cards.setup.started.deck, cards.table, cards.setup.started.leader)


def test_a_physical_round_has_no_hands_to_show() -> None:
    cards = live_cards(played_round(new_match(), seed=1, upto=3))

    assert visible_hands(EVERYTHING, cards, over=False) is None
    assert visible_hands(PUBLIC, cards, over=True) is None


def test_the_deck_in_a_round_started_event_is_shown_only_to_whoever_sees_everything() -> None:
    payload: dict[str, Any] = {"round": 1, "dealer": 0, "briscola": "7D", "deck": ["1D", "7D"]}
    event: dict[str, Any] = {
        "stream_type": "match",
        "event_type": "RoundStarted",
        "payload": payload,
    }

    assert visible_payload(PUBLIC, **event)["deck"] is None
    assert visible_payload(Viewer.at_seats([0]), **event)["deck"] is None
    assert visible_payload(EVERYTHING, **event) == payload
    assert payload["deck"] == ["1D", "7D"], "the event itself is left alone"


def test_a_physical_round_started_event_is_shown_as_recorded() -> None:
    payload = {"round": 1, "dealer": 0, "briscola": "7D"}

    shown = visible_payload(PUBLIC, stream_type="match", event_type="RoundStarted", payload=payload)

    assert shown == payload


@pytest.mark.usefixtures("db")
def test_a_superuser_sees_everything_and_a_stranger_to_the_match_what_the_public_sees(
    django_user_model: Any,
) -> None:
    superuser = django_user_model.objects.create_superuser(username="boss", password="x")
    player = django_user_model.objects.create_user(username="player", password="x")

    assert viewer_of(superuser, uuid4()) == EVERYTHING
    assert viewer_of(player, uuid4()) == PUBLIC
    assert viewer_of(AnonymousUser(), uuid4()) == PUBLIC


@settings(max_examples=40, deadline=None)
@given(table_size=st.sampled_from([2, 3, 4, 6]), data=st.data())
def test_at_every_point_of_a_dealt_round_each_viewer_sees_only_what_they_may(
    table_size: int, data: st.DataObject
) -> None:
    table = Table(table_size)
    deck = tuple(data.draw(st.permutations(table.deck), label="deck"))
    dealer = data.draw(st.sampled_from(list(table.seats)), label="dealer")
    match = run(new_match(table_size=table_size), StartNextRound(None, dealer, deck))
    leader = table.next_seat(dealer)
    while True:
        cards = live_cards(match)
        assert cards.hands is not None
        played = {play.card.code for play in cards.plays}
        if cards.is_finished:
            break
        public = visible_hands(PUBLIC, cards, over=False)
        assert cards_shown(public) <= played
        assert public == {}
        for seat in table.seats:
            view = visible_hands(Viewer.at_seats([seat]), cards, over=False)
            assert view is not None
            assert view[str(seat)] == codes(cards.hands[seat])
            partners = {s for s in table.seats if table.side_of(s) == table.side_of(seat)}
            seen = partners if cards.partners_may_show_hands else {seat}
            assert set(view) == {str(s) for s in seen}
        everything = visible_hands(EVERYTHING, cards, over=False)
        assert everything is not None
        assert cards_shown(everything) == {c.code for hand in cards.hands for c in hand}
        assert not cards_shown(everything) & played
        seat_on_turn = cards.seat_on_turn
        assert seat_on_turn is not None
        card = data.draw(st.sampled_from(legal_cards(cards)), label="card")
        match = run(match, PlayCardInRound(1, seat_on_turn, card))

    as_dealt = dealt_hands(deck, table, leader)
    for viewer in (PUBLIC, EVERYTHING, *(Viewer.at_seats([s]) for s in table.seats)):
        assert visible_hands(viewer, cards, over=True) == as_dealt
