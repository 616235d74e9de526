"""What makes two commands the same for an idempotency key (`common.fingerprints`): their stream,
class, fields and the names they bring, except what a field's metadata leaves out."""

import dataclasses
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.fingerprints import LEFT_OUT, counted_as, fingerprint
from games.matches.stream import commands as match_commands
from games.matches.stream.commands import StartNextRound
from games.rules.cards import parse_card
from tournaments.stream import commands as tournament_commands
from tournaments.stream.commands import CheckInEntrant, RegisterEntrant

STREAM = UUID(int=1)
OTHER_STREAM = UUID(int=2)


@dataclass(frozen=True)
class Inner:
    number: int


@dataclass(frozen=True)
class Move:
    seat: int
    inner: Inner | None = None
    at: datetime | None = field(default=None, metadata=LEFT_OUT)
    cards: tuple[str, ...] | None = field(default=None, metadata=counted_as(lambda c: c is None))


@dataclass(frozen=True)
class Other:
    seat: int


@given(st.integers(), st.integers())
def test_two_commands_have_the_same_fingerprint_exactly_when_their_fields_are_equal(
    a: int, b: int
) -> None:
    assert (fingerprint(STREAM, Move(a)) == fingerprint(STREAM, Move(b))) == (a == b)


def test_the_stream_the_class_and_the_names_each_make_two_commands_different() -> None:
    same = fingerprint(STREAM, Move(1), names=["Rossi"])

    assert fingerprint(STREAM, Move(1), names=["Rossi"]) == same
    assert fingerprint(OTHER_STREAM, Move(1), names=["Rossi"]) != same
    assert fingerprint(STREAM, Other(1), names=["Rossi"]) != same
    assert fingerprint(STREAM, Move(1), names=["Bianchi"]) != same
    assert fingerprint(STREAM, Move(1, Inner(2))) != fingerprint(STREAM, Move(1, Inner(3)))


def test_a_field_left_out_never_makes_two_commands_different() -> None:
    morning = datetime(2026, 11, 29, 9, tzinfo=UTC)
    evening = datetime(2026, 11, 29, 21, tzinfo=UTC)

    assert fingerprint(STREAM, Move(1, at=morning)) == fingerprint(STREAM, Move(1, at=evening))
    assert fingerprint(STREAM, CheckInEntrant(7, morning)) == fingerprint(
        STREAM, CheckInEntrant(7, evening)
    )
    assert fingerprint(STREAM, CheckInEntrant(7, morning)) != fingerprint(
        STREAM, CheckInEntrant(7, morning, by_player=True)
    )


def test_a_field_counted_by_a_summary_differs_only_where_the_summary_does() -> None:
    assert fingerprint(STREAM, Move(1, cards=("1D",))) == fingerprint(
        STREAM, Move(1, cards=("3C",))
    )
    assert fingerprint(STREAM, Move(1, cards=("1D",))) != fingerprint(STREAM, Move(1))


def test_a_server_deal_counts_as_a_server_deal_whatever_the_deck_shuffled() -> None:
    one = StartNextRound(None, deck=(parse_card("1D"), parse_card("3C")))
    another = StartNextRound(None, deck=(parse_card("3C"), parse_card("1D")))

    assert fingerprint(STREAM, one) == fingerprint(STREAM, another)
    assert fingerprint(STREAM, one) != fingerprint(STREAM, StartNextRound(None))
    assert fingerprint(STREAM, StartNextRound(parse_card("1D"))) != fingerprint(
        STREAM, StartNextRound(parse_card("3C"))
    )


def test_a_command_with_a_group_and_a_table_is_not_the_one_without() -> None:
    plain = RegisterEntrant(0, 1, None)

    assert fingerprint(STREAM, RegisterEntrant(0, 1, None, group="Bar")) != fingerprint(
        STREAM, plain
    )
    assert fingerprint(STREAM, RegisterEntrant(0, 1, None, fixed_table=3)) != fingerprint(
        STREAM, plain
    )


def test_only_a_dataclass_instance_is_a_command() -> None:
    with pytest.raises(TypeError):
        fingerprint(STREAM, {"seat": 1})
    with pytest.raises(TypeError):
        fingerprint(STREAM, Move)


@pytest.mark.parametrize("module", [tournament_commands, match_commands])
def test_the_time_a_request_arrived_is_left_out_of_every_commands_fingerprint(module: Any) -> None:
    """`now` is the server's clock when the request arrived: a retry arrives later (a time the
    client gives, as when a check-in window closes, counts)."""
    timed = [
        (command.__name__, each.name)
        for command in vars(module).values()
        if dataclasses.is_dataclass(command) and isinstance(command, type)
        for each in dataclasses.fields(command)
        if each.name == "now"
    ]

    if module is tournament_commands:
        assert len(timed) >= 7
    for command_name, field_name in timed:
        field_of = {f.name: f for f in dataclasses.fields(getattr(module, command_name))}
        assert field_of[field_name].metadata == LEFT_OUT, (command_name, field_name)
