"""Card names and images for the cards a French six-player table adds."""

from django.utils import translation

from games.rules import parse_card
from games.templatetags.cards import card, card_label


def test_the_french_eight_and_nine_are_named_and_drawn_with_their_numbers() -> None:
    eight, nine = parse_card("8C", "french"), parse_card("9H", "french")

    with translation.override("en"):
        assert card_label(eight, "french") == "Eight of Clubs"
        assert card_label(nine, "french") == "Nine of Hearts"
    with translation.override("it"):
        assert card_label(eight, "french") == "Otto di Fiori"
    drawn = card(nine, "french")
    assert ">9</text>" in drawn
    assert "Nine of Hearts" in drawn or "Nove di Cuori" in drawn
