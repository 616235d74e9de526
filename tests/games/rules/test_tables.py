import pytest

from games.rules.cards import parse_card
from games.rules.errors import InvalidSeat, InvalidTableSize
from games.rules.tables import Table
from games.rules.variants import Variant


@pytest.mark.parametrize("size", [0, 1, 5, 7, 8, "4", True])
def test_briscola_is_played_at_tables_of_2_3_4_or_6_only(size: object) -> None:
    with pytest.raises(InvalidTableSize) as error:
        Table(size)  # type: ignore[arg-type]

    assert error.value.code == "invalid_table_size"


@pytest.mark.parametrize(("size", "cards"), [(2, 40), (3, 39), (4, 40), (6, 36)])
def test_each_table_size_plays_its_own_deck_of_120_points(size: int, cards: int) -> None:
    deck = Table(size).deck

    assert len(deck) == cards
    assert sum(card.points for card in deck) == 120


def test_three_players_leave_out_the_two_of_batons_unless_told_otherwise() -> None:
    assert not Table(3).holds(parse_card("2B"))
    other = Table(3, Variant(removed_card_for_three=parse_card("2C")))
    assert other.holds(parse_card("2B"))
    assert not other.holds(parse_card("2C"))


def test_six_players_leave_out_all_the_twos() -> None:
    assert [card for card in Table(6).deck if card.rank == 2] == []


@pytest.mark.parametrize(
    ("size", "sides"),
    [(2, (0, 1)), (3, (0, 1, 2)), (4, (0, 1, 0, 1)), (6, (0, 1, 0, 1, 0, 1))],
)
def test_partners_sit_opposite_and_three_players_each_play_alone(
    size: int, sides: tuple[int, ...]
) -> None:
    table = Table(size)

    assert table.side_by_seat == sides
    assert table.side_count == len(set(sides))


@pytest.mark.parametrize(
    ("size", "hand_size", "tricks", "drawing_tricks"),
    [(2, 3, 20, 17), (2, 9, 20, 11), (3, 3, 13, 10), (4, 3, 10, 7), (6, 3, 6, 3)],
)
def test_tricks_per_round_and_the_trick_that_empties_the_stock(
    size: int, hand_size: int, tricks: int, drawing_tricks: int
) -> None:
    table = Table(size, Variant(hand_size=hand_size))

    assert (table.tricks_per_round, table.drawing_tricks) == (tricks, drawing_tricks)


def test_seats_follow_each_other_round_the_table() -> None:
    table = Table(4)

    assert (table.next_seat(3), table.seat_before(0)) == (0, 3)


@pytest.mark.parametrize("seat", [-1, 4, "1"])
def test_a_seat_outside_the_table_is_an_invalid_seat(seat: object) -> None:
    with pytest.raises(InvalidSeat) as error:
        Table(4).check_seat_exists(seat)  # type: ignore[arg-type]

    assert error.value.code == "invalid_seat"
