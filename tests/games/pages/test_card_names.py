"""Card names and images for the cards a French six-player table adds."""

from django.utils import translation

from games.rules.cards import parse_card
from games.templatetags.cards import card, card_label


def test_the_french_eight_and_nine_are_named_and_drawn_with_their_numbers() -> None:
    eight, nine = parse_card("8C", "french"), parse_card("9H", "french")

    with translation.override("en"):
        assert card_label(eight, "french") == "8 of Clubs"
        assert card_label(nine, "french") == "9 of Hearts"
    with translation.override("it"):
        assert card_label(eight, "french") == "8 di Fiori"
    drawn = card(nine, "french")
    assert ">9</text>" in drawn
    assert "9 of Hearts" in drawn or "9 di Cuori" in drawn


def test_a_pip_card_is_named_by_the_number_its_tile_shows_and_a_face_card_by_its_name() -> None:
    with translation.override("it"):
        assert card_label(parse_card("2S"), "italian") == "2 di Spade"
        assert card_label(parse_card("8D"), "italian") == "Fante di Denari"
        assert card_label(parse_card("1B"), "italian") == "Asso di Bastoni"
