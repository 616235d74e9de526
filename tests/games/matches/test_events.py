"""Match events at the store boundary: each reads back from its stored type and payload equal to
the event that was decided, and a type the stream does not know is refused."""

import pytest

from games.matches.stream.commands import (
    ConfirmResult,
    CorrectCard,
    CorrectCardAfterRound,
    CreateMatch,
    DisputeResult,
    EnterRoundPoints,
    ForfeitMatch,
    MatchCommand,
    PlayCardInRound,
    RuleRoundResult,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.events import (
    MATCH_EVENT_TYPES,
    MatchEvent,
    SideRef,
    match_event_from_stored,
)
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate
from games.rules.cards import parse_card
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tests.games.matches.builders import (
    legal_swaps,
    new_match,
    played_round,
    random_plays,
    shuffled_deck,
)

SIDES: tuple[SideRef, ...] = ({"entrant": 7}, {})


def decided(state: MatchAggregate | None, *commands: MatchCommand) -> list[MatchEvent]:
    """Every event the commands record, each decided against the state the ones before left."""
    events: list[MatchEvent] = []
    for command in commands:
        new = decide(state, command)
        events += new
        state = fold(new, state)
    return events


def every_kind_of_event() -> list[MatchEvent]:
    briscola, plays = random_plays(2, dealer=0, seed=5)
    finished = played_round(new_match(best_of=1), seed=5)
    index, other, _points = legal_swaps(finished, 1)[0]
    swapped = finished.rounds[0].plays[other].card
    return [
        *decided(
            None,
            CreateMatch(2, MatchFormat.best_of(1), SIDES, DEFAULT_VARIANT),
            StartNextRound(briscola=parse_card(briscola)),
            *(PlayCardInRound(1, play.seat, play.card) for play in plays[:3]),
            UndoLastPlay(1),
            CorrectCard(1, 0, plays[0].card),
            VoidRound(1, "misdeal"),
            StartNextRound(briscola=None, deck=shuffled_deck(2, seed=2)),
            VoidRound(2),
            StartNextRound(briscola=None),
            EnterRoundPoints(3, (80, 40)),
            RuleRoundResult(3, (70, 50), "miscounted"),
            DisputeResult(0, "we had 62"),
            ConfirmResult(1),
        ),
        *decide(new_match(), ForfeitMatch(1, "no-show")),
        *decide(finished, CorrectCardAfterRound(1, index, swapped, "x")),
    ]


def test_every_event_reads_back_from_its_type_and_payload_as_it_was_decided() -> None:
    events = every_kind_of_event()

    assert {event.type for event in events} == set(MATCH_EVENT_TYPES)
    for event in events:
        assert match_event_from_stored(event.type, event.to_payload()) == event


def test_an_event_type_the_match_stream_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown match event 'TrickWon'"):
        match_event_from_stored("TrickWon", {"round": 1})
