import pytest

from games.rules.cards import parse_card
from games.rules.commands import PlayCard, StartRound
from games.rules.errors import BriscolaNotDrawn, CardNotInHand, InvalidDeck
from games.rules.events import StockEmptied
from games.rules.replay import start_round
from games.rules.round import decide
from games.rules.tables import Table
from games.rules.variants import Variant
from tests.games.rules.builders import cards, dealt_round, deck_starting_with, play, play_out


def hands_of(codes_by_seat: list[str]) -> tuple[tuple[object, ...], ...]:
    return tuple(cards(codes) for codes in codes_by_seat)


def test_cards_are_dealt_one_at_a_time_from_the_leader_and_the_next_is_the_briscola() -> None:
    state = dealt_round(deck_starting_with("1D 2D 3D 4D 5D 6D 7C"), dealer=0)

    assert state.hands == hands_of(["2D 4D 6D", "1D 3D 5D"])
    assert state.briscola == parse_card("7C")
    assert state.is_dealt


def test_the_trick_winner_draws_first_then_the_others_in_playing_order() -> None:
    state = dealt_round(deck_starting_with("1D 2D 3D 4D 5D 6D 7C 8B 9B"), dealer=0)

    state = play(state, (1, "1D"), (0, "2D"))

    assert state.hands == hands_of(["4D 6D 9B", "3D 5D 8B"])


def test_the_face_up_briscola_is_the_last_card_drawn() -> None:
    state = play_out(dealt_round(deck_starting_with("1D 2D 3D 4D 5D 6D 7C")), plays=34)

    holder = state.briscola_holder
    assert holder is not None
    assert state.hands is not None
    assert parse_card("7C") in state.hands[holder]
    assert state.cards_in_stock == 0


def test_a_seat_can_play_only_a_card_of_its_hand() -> None:
    state = dealt_round(deck_starting_with("1D 2D 3D 4D 5D 6D 7C"), dealer=0)

    with pytest.raises(CardNotInHand) as error:
        play(state, (1, "2D"))
    assert error.value.code == "card_not_in_hand"
    with pytest.raises(CardNotInHand):
        play(state, (1, "8D"))


def test_the_briscola_under_the_stock_cannot_be_played_in_a_dealt_round_either() -> None:
    state = dealt_round(deck_starting_with("1D 2D 3D 4D 5D 6D 7C"), dealer=0)

    with pytest.raises(BriscolaNotDrawn):
        play(state, (1, "7C"))


@pytest.mark.parametrize(
    ("table_size", "deck"),
    [
        (2, Table(2).deck[:-1]),
        (2, (*Table(2).deck[:-1], parse_card("1D"))),
        (6, Table(4).deck[:36]),
        (3, Table(2).deck[:39]),
    ],
)
def test_a_dealt_deck_must_hold_each_card_of_the_table_once(
    table_size: int, deck: tuple[object, ...]
) -> None:
    with pytest.raises(InvalidDeck) as error:
        start_round(StartRound(table_size, 0, deck=deck))  # type: ignore[arg-type]

    assert error.value.code == "invalid_deck"


def test_a_named_briscola_must_agree_with_the_deck() -> None:
    deck = deck_starting_with("1D 2D 3D 4D 5D 6D 7C")

    assert start_round(StartRound(2, 0, parse_card("7C"), deck=deck)).briscola == parse_card("7C")
    with pytest.raises(InvalidDeck):
        start_round(StartRound(2, 0, parse_card("7D"), deck=deck))


def test_partners_are_told_when_the_last_cards_are_drawn() -> None:
    state = play_out(dealt_round(Table(4).deck, table_size=4), plays=27)
    seat = state.seat_on_turn
    assert seat is not None
    assert state.hands is not None

    events = decide(state, PlayCard(seat, state.hands[seat][0]))
    state = play_out(state, plays=1)

    assert any(isinstance(event, StockEmptied) for event in events)
    assert state.partners_may_show_hands


def test_bisca_dos_9_deals_nine_cards_each_and_still_plays_twenty_tricks() -> None:
    state = dealt_round(Table(2).deck, variant=Variant(hand_size=9))
    assert state.hands is not None
    assert [len(hand) for hand in state.hands] == [9, 9]

    state = play_out(state, plays=22)
    assert state.stock_is_empty
    assert state.hands is not None
    assert [len(hand) for hand in state.hands] == [9, 9]

    state = play_out(state)
    assert len(state.tricks) == 20
    assert state.hands == ((), ())
