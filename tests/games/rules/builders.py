"""Small builders for rules tests: rounds from readable card lists, without fixtures."""

from collections.abc import Callable, Sequence

from games.rules.cards import Card, parse_card
from games.rules.commands import StartRound
from games.rules.replay import legal_cards, play_card, start_round
from games.rules.round_state import RoundState
from games.rules.tables import Table
from games.rules.tricks import Play
from games.rules.variants import DEFAULT_VARIANT, Variant


def cards(codes: str) -> tuple[Card, ...]:
    """`cards("1D 3C 10S")`."""
    return tuple(map(parse_card, codes.split()))


def deck_starting_with(
    codes: str, table_size: int = 2, variant: Variant = DEFAULT_VARIANT
) -> tuple[Card, ...]:
    """A dealt deck that starts with the given cards; the rest follow in canonical order."""
    first = cards(codes)
    rest = tuple(card for card in Table(table_size, variant).deck if card not in first)
    return first + rest


def physical_round(
    *,
    table_size: int = 2,
    dealer: int = 0,
    briscola: str = "7D",
    variant: Variant = DEFAULT_VARIANT,
) -> RoundState:
    return start_round(StartRound(table_size, dealer, parse_card(briscola), variant))


def dealt_round(
    deck: Sequence[Card],
    *,
    table_size: int = 2,
    dealer: int = 0,
    variant: Variant = DEFAULT_VARIANT,
) -> RoundState:
    return start_round(StartRound(table_size, dealer, variant=variant, deck=tuple(deck)))


def play(state: RoundState, *plays: tuple[int, str]) -> RoundState:
    """Play `(seat, code)` pairs in order."""
    for seat, code in plays:
        state = play_card(state, Play(seat, parse_card(code)))
    return state


def play_in_turn(state: RoundState, codes: str) -> RoundState:
    """Play the given cards, each by the seat on turn."""
    for card in cards(codes):
        seat = state.seat_on_turn
        assert seat is not None
        state = play_card(state, Play(seat, card))
    return state


def play_out(state: RoundState, plays: int | None = None) -> RoundState:
    """Dealt rounds: play `plays` cards (default: to the end), each seat its first card."""
    return play_with(state, first_card_in_hand, plays)


def play_physically(state: RoundState, plays: int | None = None) -> RoundState:
    """Physical rounds: play `plays` cards (default: to the end), each by the seat on turn.

    The seat that drew the briscola plays it at its first turn; otherwise the first unplayed card
    of the deck is played.
    """
    return play_with(state, next_physical_card, plays)


def play_with(
    state: RoundState, choose: Callable[[RoundState, int], Card], plays: int | None
) -> RoundState:
    played = 0
    while state.seat_on_turn is not None and played != plays:
        state = play_card(state, Play(state.seat_on_turn, choose(state, state.seat_on_turn)))
        played += 1
    return state


def first_card_in_hand(state: RoundState, seat: int) -> Card:
    assert state.hands is not None
    return state.hands[seat][0]


def next_physical_card(state: RoundState, seat: int) -> Card:
    if seat == state.briscola_holder and not state.is_played(state.briscola):
        return state.briscola
    unplayed = (c for c in state.table.deck if not state.is_played(c) and c != state.briscola)
    return next(unplayed)


def play_to_the_holders_last_card(state: RoundState) -> RoundState:
    """Play in turn until the briscola's holder is on turn with one card left, never playing
    the briscola: the holder plays its highest other trump (to win tricks and lead), the other
    seats their first card that is not a trump."""
    while (seat := state.seat_on_turn) is not None:
        if seat == state.briscola_holder and state.plays_left(seat) == 1:
            return state
        others = [card for card in legal_cards(state) if card != state.briscola]
        trumps = [card for card in others if card.suit == state.trump]
        plain = [card for card in others if card.suit != state.trump]
        card = (trumps or others)[-1] if seat == state.briscola_holder else (plain or others)[0]
        state = play_card(state, Play(seat, card))
    raise AssertionError("the round ended before the holder's last card")
