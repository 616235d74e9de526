import dataclasses

import pytest

from games.rules.cards import (
    ALL_CARDS,
    FULL_DECK,
    Card,
    DeckNames,
    Suit,
    card_name,
    card_text,
    parse_card,
)
from games.rules.errors import InvalidCard
from tests.games.rules.builders import cards


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


@pytest.mark.parametrize("text", ["13D", "0D", "1X", "", "1", "D1", " 1D", "1DD", "ZZ", None, 1])
def test_anything_else_is_an_invalid_card(text: object) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(text)

    assert error.value.code == "invalid_card"
    assert repr(text) in error.value.detail


def test_a_card_cannot_be_built_with_a_rank_outside_1_to_12() -> None:
    with pytest.raises(InvalidCard):
        Card(13, Suit.COINS)


def test_cards_take_in_the_order_ace_three_king_knight_jack_seven_down_to_two() -> None:
    weakest_first = cards("2D 4D 5D 6D 7D 8D 9D 10D 3D 1D")

    strengths = [card.strength for card in weakest_first]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == 10


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


def test_a_scorer_at_a_french_table_types_french_letters_for_the_same_canonical_cards() -> None:
    typed = "AH 3C KD QS JH 7c 1D"

    read = [parse_card(text, "french").code for text in typed.split()]

    assert read == ["1C", "3B", "10D", "9S", "8C", "7B", "1D"]


def test_french_eights_and_nines_are_typed_as_8_and_9_and_stored_as_ranks_11_and_12() -> None:
    eight, nine = parse_card("8C", "french"), parse_card("9h", "french")

    assert (eight.code, nine.code) == ("11B", "12C")
    assert parse_card("11B") == eight
    assert (card_name(eight, "french"), card_name(nine, "french")) == (
        "8 of clubs",
        "9 of hearts",
    )
    assert eight.points == nine.points == 0


def test_the_french_eight_and_nine_take_between_the_seven_and_the_jack() -> None:
    seven, jack = parse_card("7C", "french"), parse_card("JC", "french")
    eight, nine = parse_card("8C", "french"), parse_card("9C", "french")

    assert seven.strength < eight.strength < nine.strength < jack.strength


def test_an_italian_suit_letter_at_a_french_table_is_refused_naming_the_french_letters() -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card("1B", "french")

    assert error.value.code == "invalid_card"
    assert "C (clubs), D (diamonds), H (hearts) or S (spades)" in error.value.detail


def test_a_french_suit_letter_at_an_italian_table_is_refused_naming_the_italian_letters() -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card("AH")

    assert "D (coins), C (cups), S (swords) or B (batons)" in error.value.detail


@pytest.mark.parametrize("text", ["10S", "RH", "FC", "1X", "", None])
def test_a_french_table_refuses_what_is_not_a_french_card(text: object) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(text, "french")

    assert "French deck" in error.value.detail or "Italian suit letter" in error.value.detail


@pytest.mark.parametrize("deck_names", ["italian", "french"])
def test_card_text_writes_every_card_as_parse_card_reads_it(deck_names: DeckNames) -> None:
    for card in ALL_CARDS:
        assert parse_card(card_text(card, deck_names), deck_names) == card


def test_the_forty_cards_keep_the_bits_they_had_before_the_french_eights_and_nines() -> None:
    assert [card.bit for card in FULL_DECK] == [1 << index for index in range(40)]
    assert len({card.bit for card in ALL_CARDS}) == 48
