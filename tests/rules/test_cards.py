import dataclasses

import pytest

from games.rules import FULL_DECK, Card, InvalidCard, Suit, card_name, parse_card
from tests.rules.builders import cards


def test_a_card_code_is_its_rank_then_its_suit() -> None:
    card = parse_card("10S")

    assert (card.rank, card.suit, card.code) == (10, Suit.SWORDS, "10S")


@pytest.mark.parametrize(
    ("alias", "code"),
    [
        ("AD", "1D"),
        ("ad", "1D"),
        ("KS", "10S"),
        ("RS", "10S"),
        ("JC", "8C"),
        ("FC", "8C"),
        ("CS", "9S"),
        ("HS", "9S"),
        ("QS", "9S"),
        ("cc", "9C"),
        ("3b", "3B"),
    ],
)
def test_friendly_aliases_are_read_as_canonical_cards(alias: str, code: str) -> None:
    assert parse_card(alias).code == code
    assert str(parse_card(alias)) == code


@pytest.mark.parametrize("text", ["11D", "0D", "1X", "", "1", "D1", " 1D", "1DD", "ZZ", None, 1])
def test_anything_else_is_an_invalid_card(text: object) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(text)

    assert error.value.code == "invalid_card"
    assert repr(text) in error.value.detail


def test_a_card_cannot_be_built_with_a_rank_outside_1_to_10() -> None:
    with pytest.raises(InvalidCard):
        Card(11, Suit.COINS)


def test_cards_take_in_the_order_ace_three_king_knight_jack_seven_down_to_two() -> None:
    weakest_first = cards("2D 4D 5D 6D 7D 8D 9D 10D 3D 1D")

    assert [card.strength for card in weakest_first] == list(range(1, 11))


def test_ace_is_worth_11_three_10_king_4_knight_3_jack_2_others_nothing() -> None:
    points = {card.rank: card.points for card in cards("1B 2B 3B 4B 5B 6B 7B 8B 9B 10B")}

    assert points == {1: 11, 2: 0, 3: 10, 4: 0, 5: 0, 6: 0, 7: 0, 8: 2, 9: 3, 10: 4}


def test_the_full_deck_holds_40_different_cards_worth_120_points() -> None:
    assert len(set(FULL_DECK)) == 40
    assert sum(card.points for card in FULL_DECK) == 120


def test_cards_are_immutable_values() -> None:
    card = parse_card("1D")

    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 3  # type: ignore[misc]
    assert card == Card(1, Suit.COINS)
    assert hash(card) == hash(Card(1, Suit.COINS))


def test_display_names_follow_the_italian_or_french_deck() -> None:
    assert card_name(parse_card("9S")) == "knight of swords"
    assert card_name(parse_card("9S"), "french") == "queen of spades"
    assert card_name(parse_card("1D"), "french") == "ace of diamonds"
    assert card_name(parse_card("7B")) == "7 of batons"
