import pytest

from games.rules.cards import parse_card
from games.rules.commands import PlayCard, StartRound
from games.rules.errors import (
    BriscolaMustBePlayed,
    BriscolaNotDrawn,
    CardAlreadyPlayed,
    CardNotInDeck,
    InvalidSeat,
    MissingBriscola,
    NotYourTurn,
    RoundAlreadyFinished,
    RoundInProgress,
    RoundNotStarted,
    RuleViolation,
)
from games.rules.events import CardLaid, RoundEnded, StockEmptied, TrickWon
from games.rules.replay import legal_cards, play_card, start_round
from games.rules.round import decide
from games.rules.tricks import Play, Trick
from games.rules.variants import Variant
from tests.games.rules.builders import (
    next_physical_card,
    physical_round,
    play,
    play_in_turn,
    play_physically,
    play_to_the_holders_last_card,
)


def test_the_seat_after_the_dealer_leads_the_first_trick() -> None:
    state = physical_round(table_size=4, dealer=3)

    assert (state.dealer, state.leader, state.seat_on_turn) == (3, 0, 0)


def test_a_round_can_be_started_by_naming_its_leader() -> None:
    command = StartRound.led_by(leader=0, table_size=4, briscola=parse_card("7D"))

    assert command.dealer == 3


def test_a_card_play_is_recorded_and_passes_the_turn() -> None:
    state = physical_round(dealer=0)

    events = decide(state, PlayCard(1, parse_card("5C")))
    state = play(state, (1, "5C"))

    assert events == [CardLaid(1, parse_card("5C"))]
    assert state.seat_on_turn == 0
    assert state.is_played(parse_card("5C"))


def test_a_full_trick_is_won_and_its_winner_leads_the_next() -> None:
    state = physical_round(dealer=0, briscola="7D")
    state = play(state, (1, "5C"))

    events = decide(state, PlayCard(0, parse_card("2D")))
    state = play(state, (0, "2D"))

    won = TrickWon(1, Trick(1, (state.tricks[0].plays), winner=0, points=0))
    assert events[1:] == [won]
    assert (state.leader, state.seat_on_turn, state.trick) == (0, 0, ())
    assert state.tricks[0].winner == 0


def test_trick_points_go_to_the_winners_side() -> None:
    state = physical_round(table_size=4, dealer=3, briscola="7D")

    state = play_in_turn(state, "1C 3C 10C 9C")

    assert state.points == (28, 0)
    assert state.tricks[0].winner == 0


@pytest.mark.parametrize("seat", [0, 2])
def test_a_seat_playing_out_of_turn_is_refused(seat: int) -> None:
    state = physical_round(table_size=4, dealer=0)

    with pytest.raises(NotYourTurn) as error:
        play(state, (seat, "5C"))

    assert error.value.code == "not_your_turn"


def test_a_seat_cannot_play_twice_in_a_trick() -> None:
    state = play(physical_round(table_size=4, dealer=0), (1, "5C"))

    with pytest.raises(NotYourTurn):
        play(state, (1, "6C"))


def test_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(InvalidSeat):
        play(physical_round(table_size=2), (2, "5C"))


@pytest.mark.parametrize(("table_size", "card"), [(6, "2D"), (3, "2B")])
def test_a_card_removed_from_this_deck_is_refused(table_size: int, card: str) -> None:
    state = physical_round(table_size=table_size, dealer=table_size - 1)

    with pytest.raises(CardNotInDeck) as error:
        play(state, (0, card))

    assert error.value.code == "card_not_in_deck"


def test_a_card_cannot_be_played_twice() -> None:
    state = play(physical_round(dealer=0), (1, "5C"))

    with pytest.raises(CardAlreadyPlayed) as error:
        play(state, (0, "5C"))

    assert error.value.code == "card_already_played"


def test_the_face_up_briscola_cannot_be_played_before_the_stock_is_empty() -> None:
    state = physical_round(dealer=0, briscola="7D")

    with pytest.raises(BriscolaNotDrawn) as error:
        play(state, (1, "7D"))

    assert error.value.code == "briscola_not_drawn"


def test_the_stock_empties_after_the_17th_trick_at_two_players() -> None:
    state = play_physically(physical_round(dealer=0, briscola="7D"), 33)
    seat = state.seat_on_turn
    assert seat is not None
    assert not state.stock_is_empty

    events = decide(state, PlayCard(seat, parse_card("10B")))

    winner = events[1].trick.winner if isinstance(events[1], TrickWon) else None
    assert winner is not None
    assert events[2] == StockEmptied(after_trick=17, briscola_holder=1 - winner)


def test_only_the_seat_that_drew_the_briscola_may_play_it() -> None:
    state = play_physically(physical_round(dealer=0, briscola="7D"), 34)
    holder = state.briscola_holder
    winner = state.seat_on_turn
    assert holder is not None
    assert winner == 1 - holder
    assert state.cards_in_stock == 0

    with pytest.raises(BriscolaNotDrawn, match=f"seat {holder} drew it, not seat {winner}"):
        play(state, (winner, "7D"))
    state = play(state, (winner, "10B"), (holder, "7D"))

    assert state.is_played(parse_card("7D"))


def test_partners_may_show_their_hands_once_the_stock_is_empty() -> None:
    state = play_physically(physical_round(table_size=4, dealer=0), 27)
    assert not state.partners_may_show_hands

    state = play_physically(state, 1)

    assert state.partners_may_show_hands
    assert not play_physically(physical_round(table_size=2), 34).partners_may_show_hands


def test_the_round_ends_after_the_last_trick_and_refuses_more_cards() -> None:
    state = play_physically(physical_round(table_size=6, dealer=0, briscola="7D"), 35)
    seat = state.seat_on_turn
    assert seat is not None

    events = decide(state, PlayCard(seat, next_physical_card(state, seat)))
    state = play_physically(state, 1)

    assert isinstance(events[-1], RoundEnded)
    assert state.is_finished
    assert state.seat_on_turn is None
    assert state.outcome is not None
    assert sum(state.outcome.points) == 120
    with pytest.raises(RoundAlreadyFinished) as error:
        play(state, (0, "1D"))
    assert error.value.code == "round_finished"


def test_a_physical_round_needs_its_briscola() -> None:
    with pytest.raises(MissingBriscola):
        start_round(StartRound(2, 0))


def test_the_briscola_must_belong_to_the_deck() -> None:
    with pytest.raises(CardNotInDeck):
        start_round(StartRound(6, 0, parse_card("2S")))


def test_the_dealer_must_sit_at_the_table() -> None:
    with pytest.raises(InvalidSeat):
        start_round(StartRound(4, 4, parse_card("7D")))


def test_cards_cannot_be_played_before_the_round_starts() -> None:
    with pytest.raises(RoundNotStarted):
        decide(None, PlayCard(0, parse_card("1D")))


def test_a_round_cannot_start_twice() -> None:
    state = physical_round()

    with pytest.raises(RoundInProgress):
        decide(state, StartRound(2, 0, parse_card("7D")))


def test_every_violation_has_a_stable_code_and_a_detail() -> None:
    with pytest.raises(RuleViolation) as error:
        play(physical_round(), (0, "5C"))

    assert error.value.to_dict() == {
        "code": "not_your_turn",
        "detail": "seat 0 cannot play now: it is seat 1's turn",
    }


@pytest.mark.parametrize(
    ("table_size", "dealer", "briscola"), [(2, 0, "2C"), (3, 2, "2C"), (4, 3, "2C"), (6, 5, "4C")]
)
def test_the_briscola_holder_down_to_its_last_card_must_play_the_briscola(
    table_size: int, dealer: int, briscola: str
) -> None:
    state = play_to_the_holders_last_card(
        physical_round(table_size=table_size, dealer=dealer, briscola=briscola)
    )
    holder = state.seat_on_turn
    assert holder is not None
    other_card = next(
        card for card in state.table.deck if not state.is_played(card) and card != state.briscola
    )

    with pytest.raises(BriscolaMustBePlayed) as error:
        decide(state, PlayCard(holder, other_card))

    assert error.value.code == "briscola_must_be_played"
    assert legal_cards(state) == (state.briscola,)
    assert decide(state, PlayCard(holder, state.briscola))[0] == CardLaid(holder, state.briscola)


def test_the_issues_two_player_round_can_no_longer_strand_the_briscola() -> None:
    """Seat 0 drew 2C and leads the last trick. Accepting its other card left 2C as the only
    card with seat 1 on turn: seat 1 got `briscola_not_drawn`, seat 0 `not_your_turn`."""
    state = play_to_the_holders_last_card(physical_round(dealer=0, briscola="2C"))
    assert (len(state.plays), state.briscola_holder, state.seat_on_turn) == (38, 0, 0)
    (seat_1s_card,) = (
        card for card in state.table.deck if not state.is_played(card) and card.code != "2C"
    )

    with pytest.raises(BriscolaMustBePlayed):
        play(state, (0, seat_1s_card.code))
    finished = play(state, (0, "2C"), (1, seat_1s_card.code))

    assert finished.is_finished
    assert sum(finished.points) == 120


def test_an_error_at_a_french_table_names_the_card_with_french_letters() -> None:
    state = physical_round(briscola="7D", variant=Variant(deck_names="french"))

    with pytest.raises(CardNotInDeck) as error:
        play_card(state, Play(1, parse_card("9S", "french")))

    assert error.value.detail == "9S is not in the 40-card deck of a table of 2"
