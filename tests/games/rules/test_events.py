import json
import random

import pytest

from games.rules.cards import parse_card
from games.rules.commands import PlayCard
from games.rules.errors import RoundNotStarted
from games.rules.events import (
    CardLaid,
    RoundDealt,
    RoundEnded,
    RoundEvent,
    StockEmptied,
    TrickWon,
    event_from_dict,
)
from games.rules.outcome import RoundOutcome
from games.rules.replay import fold_events, handle, start_command_of
from games.rules.round import evolve
from games.rules.simulate import simulate_round
from games.rules.tables import Table
from games.rules.tricks import Play, Trick
from games.rules.variants import Variant
from tests.games.rules.builders import cards


def test_round_started_is_stored_with_its_deck_for_dealt_rounds() -> None:
    started = RoundDealt(2, 0, 1, parse_card("7D"), Variant(), None)

    assert started.to_dict() == {
        "type": "RoundDealt",
        "table_size": 2,
        "dealer": 0,
        "leader": 1,
        "briscola": "7D",
        "variant": Variant().to_dict(),
        "deck": None,
    }
    dealt = RoundDealt(2, 0, 1, parse_card("7D"), Variant(), cards("1D 2D"))
    assert dealt.to_dict()["deck"] == ["1D", "2D"]


def test_card_trick_stock_and_end_events_have_plain_dict_shapes() -> None:
    trick = Trick(1, (Play(1, parse_card("5C")), Play(0, parse_card("1C"))), 0, 11)

    assert CardLaid(1, parse_card("5C")).to_dict() == {
        "type": "CardLaid",
        "seat": 1,
        "card": "5C",
    }
    assert TrickWon(3, trick).to_dict() == {
        "type": "TrickWon",
        "number": 3,
        "leader": 1,
        "plays": [[1, "5C"], [0, "1C"]],
        "winner": 0,
        "points": 11,
    }
    assert StockEmptied(17, 0).to_dict() == {
        "type": "StockEmptied",
        "after_trick": 17,
        "briscola_holder": 0,
    }
    assert RoundEnded(RoundOutcome((60, 60), None)).to_dict() == {
        "type": "RoundEnded",
        "points": [60, 60],
        "winning_side": None,
    }


def round_events(table_size: int, seed: int) -> list[RoundEvent]:
    """The events of a simulated round, decided again command by command."""
    finished = simulate_round(random.Random(seed), table_size)
    events, state = handle(None, start_command_of(finished))
    for seat, card in finished.plays:
        new_events, state = handle(state, PlayCard(seat, card))
        events += new_events
    return events


@pytest.mark.parametrize("table_size", [2, 3, 4, 6])
def test_events_survive_a_trip_through_json(table_size: int) -> None:
    events = round_events(table_size, seed=table_size)

    stored = json.loads(json.dumps([event.to_dict() for event in events]))

    assert [event_from_dict(data) for data in stored] == events


def test_folding_stored_events_rebuilds_the_round() -> None:
    events = round_events(4, seed=1)

    state = fold_events(event_from_dict(event.to_dict()) for event in events)

    assert state.is_finished
    assert state == fold_events(events)


def test_events_before_the_round_started_cannot_be_folded() -> None:
    with pytest.raises(RoundNotStarted):
        evolve(None, CardLaid(0, parse_card("1D")))


def test_a_round_recorded_before_the_two_rule_folds_with_the_card_it_removed() -> None:
    recorded = {
        "type": "RoundDealt",
        "table_size": 3,
        "dealer": 0,
        "leader": 1,
        "briscola": "7D",
        "variant": {**Variant().to_dict(), "removed_card_for_three": "4C"},
        "deck": None,
    }

    started = event_from_dict(recorded)

    assert isinstance(started, RoundDealt)
    assert started.to_dict() == recorded
    table = Table(3, started.variant)
    assert parse_card("4C") not in table.deck
    assert parse_card("2B") in table.deck


def test_a_french_round_is_stored_with_the_same_canonical_codes_as_before() -> None:
    variant = Variant(deck_names="french")
    started = RoundDealt(2, 0, 1, parse_card("AH", "french"), variant, None)

    assert started.to_dict()["briscola"] == "1C"
    assert started.to_dict()["variant"] == {**Variant().to_dict(), "deck_names": "french"}
    assert event_from_dict(started.to_dict()) == started
