import pytest

from games.rules import InvalidVariant, Table, Variant, parse_card
from tests.rules.builders import cards


def test_the_classic_rules_are_the_defaults() -> None:
    assert Variant().to_dict() == {
        "hand_size": 3,
        "three_ranks_as_three": False,
        "removed_card_for_three": "2B",
        "deck_names": "italian",
    }


def test_a_variant_survives_a_trip_through_a_dict() -> None:
    variant = Variant(9, True, parse_card("2C"), "french")

    assert Variant.from_dict(variant.to_dict()) == variant


def test_missing_options_take_their_default_and_aliases_are_read() -> None:
    variant = Variant.from_dict({"removed_card_for_three": "2c"})

    assert variant == Variant(removed_card_for_three=parse_card("2C"))


@pytest.mark.parametrize(
    "data",
    [
        {"hand_sise": 3},
        {"hand_size": 4},
        {"hand_size": True},
        {"three_ranks_as_three": "yes"},
        {"removed_card_for_three": "1B"},
        {"removed_card_for_three": "XX"},
        {"deck_names": "german"},
        ["hand_size"],
    ],
)
def test_unknown_or_impossible_options_are_an_invalid_variant(data: object) -> None:
    with pytest.raises(InvalidVariant) as error:
        Variant.from_dict(data)

    assert error.value.code == "invalid_variant"


def test_hands_of_nine_are_for_two_players_only() -> None:
    assert Table(2, Variant(hand_size=9)).size == 2
    with pytest.raises(InvalidVariant):
        Table(4, Variant(hand_size=9))


def test_a_three_ranked_as_three_falls_between_the_two_and_the_four() -> None:
    variant = Variant(three_ranks_as_three=True)

    by_strength = sorted(cards("1C 2C 3C 4C 10C"), key=variant.strength_of)

    assert [card.code for card in by_strength] == ["2C", "3C", "4C", "10C", "1C"]
    assert parse_card("3C").points == 10
