import pytest

from games.rules.cards import parse_card
from games.rules.errors import InvalidVariant
from games.rules.tables import Table
from games.rules.variants import Variant
from tests.games.rules.builders import cards


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
        {"removed_card_for_three": "XX"},
        {"six_player_deck": 52},
        {"six_player_deck": 48},
        {"six_player_deck": 48, "deck_names": "italian"},
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


@pytest.mark.parametrize("removed", ["4B", "7C", "1B", "10D"])
def test_the_card_removed_at_three_players_must_be_a_two(removed: str) -> None:
    with pytest.raises(InvalidVariant) as error:
        Variant.from_dict({"removed_card_for_three": removed})

    assert error.value.code == "removed_card_must_be_a_two"
    assert removed in error.value.detail


def test_the_card_removed_at_three_players_is_the_two_of_batons_unless_told() -> None:
    assert Variant().removed_card_for_three == parse_card("2B")
    assert Table(3).deck == tuple(card for card in Table(2).deck if card.code != "2B")


def test_a_recorded_variant_that_removed_another_zero_point_card_still_folds() -> None:
    variant = Variant.from_recorded({"removed_card_for_three": "4C"})

    assert variant.removed_card_for_three == parse_card("4C")
    assert variant.to_dict()["removed_card_for_three"] == "4C"
    with pytest.raises(InvalidVariant):
        Variant.from_recorded({"removed_card_for_three": "1C"})


def test_six_french_players_may_keep_the_twos_and_add_the_eights_and_nines() -> None:
    variant = Variant.from_dict({"deck_names": "french", "six_player_deck": 48})
    table = Table(6, variant)

    assert len(table.deck) == len(set(table.deck)) == 48
    assert sum(card.points for card in table.deck) == 120
    assert sum(card.rank == 2 for card in table.deck) == 4
    assert (table.tricks_per_round, table.drawing_tricks) == (8, 5)
    assert Table(4, variant).deck == Table(4).deck


def test_six_players_play_36_cards_unless_told_and_the_option_is_written_only_when_set() -> None:
    assert len(Table(6).deck) == 36
    assert "six_player_deck" not in Variant().to_dict()
    variant = Variant(deck_names="french", six_player_deck=48)
    assert Variant.from_dict(variant.to_dict()) == variant
