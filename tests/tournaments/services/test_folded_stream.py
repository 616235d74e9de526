"""The per-process memo of folded tournament states (`tournaments.folded`)."""

import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import transaction

from games.eventstore.api import read_stream
from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments import folded
from tournaments.models import Fixture
from tournaments.services import pipeline, registration, running
from tournaments.services import running as tournament_running
from tournaments.state import TournamentState
from tournaments.stream.events import decode
from tournaments.stream.evolve import fold

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


@pytest.fixture(autouse=True)
def empty_memo() -> Iterator[None]:
    folded.forget_all()
    yield
    folded.forget_all()


def full_fold(tournament_id: uuid.UUID) -> tuple[TournamentState, int]:
    events = read_stream(stream_id=tournament_id)
    return fold(decode(e.event_type, e.payload) for e in events), events[-1].stream_version


def register(tournament_id: uuid.UUID, name: str) -> None:
    registration.entrant_register(
        tournament_id=tournament_id, name=name, players=[name], actor=ORGANIZER
    )


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first version of every tournament stream read by the loads."""
    first_versions: list[int] = []

    def reading(**arguments: Any) -> Any:
        first_versions.append(arguments.get("from_version", 1))
        return read_stream(**arguments)

    monkeypatch.setattr("games.eventstore.loading.read_stream", reading)
    return first_versions


def test_a_committed_command_remembers_the_tournament_as_the_log_folds_it(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="swiss", entrants=6).id

    known = folded.recall(tournament_id)

    assert known is not None
    assert (known.state, known.version) == full_fold(tournament_id)
    assert known.version == 7


def test_a_rolled_back_command_is_not_remembered() -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4
    ).id  # the test's transaction never commits

    assert folded.recall(tournament_id) is None


def test_a_command_rolled_back_after_a_committed_one_leaves_the_memo_where_it_was(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="swiss", entrants=4).id
    before = folded.recall(tournament_id)

    with transaction.atomic():
        register(tournament_id, "Rolled back")
        transaction.set_rollback(True)  # the request fails after the command

    assert folded.recall(tournament_id) == before
    assert pipeline.load_tournament(tournament_id=tournament_id) == full_fold(tournament_id)
    assert len(full_fold(tournament_id)[0].entrants) == 4


def test_a_command_reads_only_the_events_after_the_remembered_version(
    django_capture_on_commit_callbacks: Capture, reads: list[int]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="swiss", entrants=8).id
    reads.clear()

    with django_capture_on_commit_callbacks(execute=True):
        register(tournament_id, "Late")

    assert reads == [9]
    assert pipeline.load_tournament(tournament_id=tournament_id) == full_fold(tournament_id)


def test_events_another_process_appended_are_folded_onto_the_remembered_state(
    django_capture_on_commit_callbacks: Capture, reads: list[int]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
    remembered = folded.recall(tournament_id)
    # Appended by "another process": its commit never reaches this process's memo.
    register(tournament_id, "Fifth")
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    folded.forget_all()
    assert remembered is not None
    folded.memo.remember(tournament_id, remembered)
    reads.clear()

    with django_capture_on_commit_callbacks(execute=True):
        state, version = pipeline.load_tournament(tournament_id=tournament_id)

    assert reads == [remembered.version]
    assert (state, version) == full_fold(tournament_id)
    assert state.started
    known = folded.recall(tournament_id)
    assert known is not None
    assert (known.state, known.version) == (state, version)


def test_a_remembered_state_whose_event_is_not_at_its_position_is_folded_again(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="swiss", entrants=4).id
        other = TournamentFactory.create(format="round_robin", entrants=3).id
    known = folded.recall(tournament_id)
    wrong = folded.recall(other)
    assert known is not None
    assert wrong is not None
    # A log rebuilt under the process: the memo's state is not what the stream says.
    folded.memo.remember(
        tournament_id, folded.Folded(wrong.state, known.version, known.position + 10_000)
    )

    assert pipeline.load_tournament(tournament_id=tournament_id) == full_fold(tournament_id)


def test_a_remembered_version_the_stream_does_not_reach_is_folded_again() -> None:
    tournament_id = TournamentFactory.create(format="swiss", entrants=4).id
    state, version = full_fold(tournament_id)
    folded.memo.remember(tournament_id, folded.Folded(state, version + 3, 10**9))

    assert pipeline.load_tournament(tournament_id=tournament_id) == (state, version)


def test_syncing_a_match_that_moved_folds_nothing_already_remembered(
    django_capture_on_commit_callbacks: Capture, reads: list[int]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format="single_elimination", entrants=4).id
        tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    _, version = full_fold(tournament_id)
    fixture = Fixture.objects.filter(tournament_id=tournament_id).first()
    assert fixture is not None
    match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
    reads.clear()

    with django_capture_on_commit_callbacks(execute=True):
        recorded = running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)

    assert not recorded
    assert reads == [version]
    assert Fixture.objects.get(pk=fixture.pk).status == "in_progress"


@pytest.mark.parametrize(
    "format", ["single_elimination", "double_elimination", "round_robin", "swiss"]
)
def test_a_tournament_played_through_with_the_memo_is_the_tournament_the_log_folds(
    format: str, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament_id = TournamentFactory.create(format=format, entrants=5).id
        tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    while ready := list(Fixture.objects.filter(tournament_id=tournament_id, status="ready")):
        for fixture in ready:
            with django_capture_on_commit_callbacks(execute=True):
                match_services.round_start(
                    match_id=fixture.match_id, briscola=None, actor=ORGANIZER
                )
                match_services.round_points_enter(
                    match_id=fixture.match_id, round_number=1, points=[80, 40], actor=ORGANIZER
                )
                running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)
            known = folded.recall(tournament_id)
            assert known is not None
            assert (known.state, known.version) == full_fold(tournament_id)

    assert pipeline.load_tournament(tournament_id=tournament_id)[0].finished
