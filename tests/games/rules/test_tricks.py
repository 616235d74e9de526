from games.rules.cards import Suit, parse_card
from games.rules.tricks import Play, winning_play
from games.rules.variants import DEFAULT_VARIANT, Variant

SWORDS = Suit.SWORDS


def winner(codes: str, trump: Suit = SWORDS, variant: Variant = DEFAULT_VARIANT) -> str:
    plays = [Play(seat, parse_card(code)) for seat, code in enumerate(codes.split())]
    return winning_play(plays, trump, variant).card.code


def test_highest_trump_wins_the_trick() -> None:
    assert winner("1D 4S 10S 3C") == "10S"


def test_any_trump_beats_the_highest_cards_of_the_suit_led() -> None:
    assert winner("1D 3D 2S") == "2S"


def test_without_trumps_the_highest_card_of_the_suit_led_wins() -> None:
    assert winner("7D 1C 10D 3B") == "10D"


def test_cards_of_another_suit_never_take_the_lead_card() -> None:
    assert winner("2D 1C 3B 1B") == "2D"


def test_a_three_takes_a_king_but_not_an_ace() -> None:
    assert winner("10C 3C") == "3C"
    assert winner("3C 1C") == "1C"


def test_a_led_trump_is_beaten_only_by_a_higher_trump() -> None:
    assert winner("5S 4S 1D") == "5S"
    assert winner("5S 3S") == "3S"


def test_with_three_ranked_as_three_a_four_takes_it() -> None:
    assert winner("3C 4C", variant=Variant(three_ranks_as_three=True)) == "4C"
