"""The per-process memo of folded match states."""

import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest

from common.actors import Actor
from games import folded
from games.eventstore.api import read_stream
from games.matches import execution, services
from games.matches.projections import match_event
from games.matches.stream.evolve import fold

pytestmark = pytest.mark.django_db

SCORER = Actor(device="memo-test")
Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


@pytest.fixture(autouse=True)
def empty_memo() -> Iterator[None]:
    folded.forget_all()
    yield
    folded.forget_all()


def full_fold(match_id: uuid.UUID) -> object:
    return fold(map(match_event, read_stream(stream_id=match_id)))


def test_a_committed_command_remembers_the_folded_match(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
    with django_capture_on_commit_callbacks(execute=True):
        services.round_start(match_id=match_id, briscola="7D", actor=SCORER)

    known = folded.recall(match_id)

    assert known is not None
    assert known.version == 2
    assert known.state == full_fold(match_id)


def test_a_rolled_back_command_is_not_remembered() -> None:
    match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id

    assert folded.recall(match_id) is None


def test_newer_events_are_folded_onto_the_remembered_state(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
    stale = folded.recall(match_id)
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    services.card_play(match_id=match_id, round_number=1, seat=1, card="5C", actor=SCORER)
    assert folded.recall(match_id) == stale

    state, version = execution.load_match(match_id=match_id)

    assert version == 3
    assert state == full_fold(match_id)


def test_a_remembered_state_whose_event_changed_position_is_refolded(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
    known = folded.recall(match_id)
    assert known is not None
    other = services.match_create(table_size=4, sides=["C", "D"], actor=SCORER).state
    folded.forget_all()
    folded.memo.remember(match_id, folded.Folded(other, known.version, known.position + 1000))

    state, _ = execution.load_match(match_id=match_id)

    assert state.table.size == 2
