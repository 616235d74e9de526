"""The deck the table page lays out: a suit to a row, a rank to a column, drawn as small tiles on
a phone (decision 0047)."""

from games.pages.table import rank_columns
from games.rules.cards import parse_card
from games.rules.tables import Table
from games.rules.variants import Variant
from games.templatetags.cards import card_chip


def test_a_removed_card_leaves_a_gap_in_its_suits_row() -> None:
    deck = Table(3, Variant()).deck

    columns = rank_columns(deck)

    assert parse_card("2B") not in deck
    assert [columns[rank] for rank in range(1, 11)] == list(range(1, 11))


def test_the_french_eight_and_nine_of_the_48_card_deck_come_before_the_jack() -> None:
    deck = Table(6, Variant(deck_names="french", six_player_deck=48)).deck

    columns = rank_columns(deck)

    in_order = sorted(columns, key=columns.__getitem__)
    assert in_order == [1, 2, 3, 4, 5, 6, 7, 11, 12, 8, 9, 10]


def test_a_tile_shows_the_rank_for_the_eye_and_leaves_the_name_to_its_button() -> None:
    tile = card_chip(parse_card("QS", "french"), "french")

    assert ">Q</text>" in tile
    assert 'aria-hidden="true"' in tile
