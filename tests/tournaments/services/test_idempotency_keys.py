"""The tournament services' idempotency keys, below the API: what a retry that lost a race
leaves behind, and where a replay ends."""

from uuid import UUID

import pytest

from common.actors import Actor
from games.eventstore import pipeline
from games.eventstore.api import last_position, read_stream
from tests.factories.tournaments import TournamentFactory
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.services import pipeline as tournament_pipeline
from tournaments.services import registration, running
from tournaments.services import running as tournament_running

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(user_id=None, device="admin")


def register_rossi(
    tournament_id: UUID, *, confirm_duplicate_name: bool = False
) -> tournament_pipeline.TournamentCommandResult:
    return registration.entrant_register(
        tournament_id=tournament_id,
        name="Rossi",
        players=["Rossi"],
        actor=ORGANIZER,
        confirm_duplicate_name=confirm_duplicate_name,
        idempotency_key="register-rossi",
    )


def test_a_retry_that_misses_the_key_before_deciding_rolls_its_rows_back_and_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament_id = TournamentFactory.create(entrants=0).id
    first = register_rossi(tournament_id)
    rows = (Entrant.objects.count(), Player.objects.count(), EntrantPlayer.objects.count())
    events = last_position()
    # As when the first request had not committed yet when the retry looked its key up.
    monkeypatch.setattr(pipeline, "find_append_by_idempotency_key", lambda **_: None)

    # Confirmed, so that the retry gets as far as the append (the duplicate name would stop it
    # first); the confirmation is not part of what makes it the same command.
    retry = register_rossi(tournament_id, confirm_duplicate_name=True)

    assert retry.duplicate
    assert not retry.recorded
    assert registration.registered_entrant_id(retry) == registration.registered_entrant_id(first)
    assert (Entrant.objects.count(), Player.objects.count(), EntrantPlayer.objects.count()) == rows
    assert last_position() == events


def test_a_replayed_start_ends_with_the_matches_the_start_created() -> None:
    tournament_id = TournamentFactory.create(entrants=4).id
    first = tournament_running.tournament_start(
        tournament_id=tournament_id, actor=ORGANIZER, idempotency_key="start"
    )
    registration.entrant_check_in(
        tournament_id=tournament_id, entrant_id=min(first.state.entrants), actor=ORGANIZER
    )

    retry = running.tournament_start(
        tournament_id=tournament_id, actor=ORGANIZER, idempotency_key="start"
    )

    assert retry.duplicate
    assert (retry.version, retry.state) == (first.version, first.state)
    assert len(retry.state.fixtures) == 2
    assert first.version < len(read_stream(stream_id=tournament_id))


def test_every_event_of_a_keyed_command_names_the_command_that_caused_it() -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    before = len(read_stream(stream_id=tournament_id))

    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER, idempotency_key="go")

    appended = read_stream(stream_id=tournament_id, from_version=before + 1)
    assert len(appended) > 1
    assert len({event.metadata.causation_id for event in appended}) == 1
    assert appended[0].metadata.causation_id is not None
    assert [event.metadata.idempotency_key for event in appended][:1] == ["go"]
