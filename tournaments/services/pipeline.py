"""The tournament command pipeline: every write is a command on the tournament's stream,
decided from the folded state by `tournaments.stream.decide` and carried out by
`games.eventstore.pipeline`: appended with its actor, expected version and idempotency key,
projected inline into the tournament's rows (`tournaments.rows`), followed by the policies'
reactions on the match streams (`tournaments.reactions`) and, after the commit, a signal.

The loads (`load_tournament`, `load_for_command`) and `run`, which the services call.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.utils.translation import gettext_noop

from common.actors import Actor
from games.eventstore.api import AppendResult, EventMetadata, NewEvent, RecordedEvent, read_stream
from games.eventstore.pipeline import Appended, Outcome, StreamKind, run_command
from tournaments import folded, reactions, rows
from tournaments.errors import (
    InvalidTournament,
    TournamentNotFound,
)
from tournaments.models import Fixture, Tournament
from tournaments.signals import tournament_events_appended_on_commit
from tournaments.state import TournamentState
from tournaments.stream.commands import CreateTournament, TournamentCommand
from tournaments.stream.decide import decide as decide_command
from tournaments.stream.events import TournamentEvent, decode, encode
from tournaments.stream.evolve import fold

TOURNAMENT_STREAM = "tournament"


@dataclass(frozen=True, kw_only=True)
class TournamentCommandResult(Outcome[TournamentState]):
    """What a tournament write left: the state and version after it, the events it recorded
    (for a repeated idempotency key, the first command's, with `duplicate` set)."""

    @property
    def tournament_id(self) -> UUID:
        return self.stream_id


# Loading.


def load_tournament(*, tournament_id: UUID) -> tuple[TournamentState, int]:
    state, version = load_stream(tournament_id)
    if state is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    return state, version


def load_stream(
    tournament_id: UUID, *, to_version: int | None = None
) -> tuple[TournamentState | None, int]:
    if to_version is None:
        return load_latest(tournament_id)
    events = read_stream(stream_id=tournament_id, to_version=to_version)
    if not events:
        return None, 0
    return fold(tournament_events(events)), events[-1].stream_version


def tournament_events(events: Iterable[RecordedEvent]) -> Iterator[TournamentEvent]:
    return (decode(e.event_type, e.payload) for e in events)


def load_latest(tournament_id: UUID) -> tuple[TournamentState | None, int]:
    """The tournament as it stands, folding only the events this process has not folded before
    (`tournaments.folded`): the stream is read from the memo's version on, and folded again
    from the start only when the event there is not the one the memo was folded from."""
    known = folded.recall(tournament_id)
    if known is not None:
        loaded = fold_read(
            tournament_id,
            known,
            read_stream(stream_id=tournament_id, from_version=known.version),
        )
        if loaded is not None:
            return loaded
    loaded = fold_read(tournament_id, None, read_stream(stream_id=tournament_id))
    return (None, 0) if loaded is None else loaded


def fold_read(
    tournament_id: UUID,
    known: folded.Folded[TournamentState] | None,
    events: list[RecordedEvent],
) -> tuple[TournamentState, int] | None:
    """The tournament after `events` (`games.eventstore.memo.StreamMemo.fold_read`)."""
    return folded.memo.fold_read(tournament_id, known, events, fold_tournament_events)


def fold_tournament_events(
    events: Sequence[RecordedEvent], state: TournamentState | None
) -> TournamentState:
    return fold(tournament_events(events), state)


def remember(tournament_id: UUID, state: TournamentState, last: RecordedEvent) -> None:
    folded.remember_on_commit(
        tournament_id, folded.Folded(state, last.stream_version, last.global_position)
    )


def load_for_command(tournament_id: UUID) -> tuple[TournamentState | None, int]:
    """The tournament for a command, its row locked until the transaction ends. Every command
    takes this lock before it appends anything (to its own stream or, creating matches, to
    theirs), so that all writers take the tournament's row before the log's append lock and
    never wait for each other the other way round."""
    Tournament.objects.select_for_update().filter(id=tournament_id).values_list("id").first()
    try:
        return load_tournament(tournament_id=tournament_id)
    except TournamentNotFound:
        return None, 0


def replay_from(tournament_id: UUID, first: AppendResult) -> tuple[TournamentState, int]:
    """The tournament as the first command with a repeated key left it. Commands record one
    append each; a command recorded before that (several appends carrying its causation id) is
    followed to its last append."""
    causation_id = first.events[0].metadata.causation_id
    last_version = first.last_version
    for later in read_stream(stream_id=tournament_id, from_version=last_version + 1):
        if causation_id is None or later.metadata.causation_id != causation_id:
            break
        last_version = later.stream_version
    state, version = load_stream(tournament_id, to_version=last_version)
    if state is None:
        raise RuntimeError("the tournament's stream has events")
    return state, version


def notify(
    tournament_id: UUID, state: TournamentState, appended: Appended[TournamentEvent]
) -> None:
    remember(tournament_id, state, appended.records[-1])
    tournament_events_appended_on_commit(
        tournament_id=tournament_id,
        event_types=[e.type for e in appended.events],
        running=state.started and not state.finished,
    )


TOURNAMENT_KIND: StreamKind[TournamentState, TournamentEvent] = StreamKind(
    stream_type=TOURNAMENT_STREAM,
    load=load_for_command,
    fold=lambda events, state: fold(events, state),
    encode=lambda event: NewEvent(*encode(event)),
    replay=replay_from,
    project=rows.project_appended,
    react=reactions.react_inline,
    notify=notify,
)
"""How the command pipeline handles tournament streams."""


def command_fingerprint(tournament_id: UUID, command: str, arguments: dict[str, Any]) -> str:
    """What makes two tournament commands the same: the tournament, the command and its
    arguments (not who sends it, nor from which device)."""
    document = json.dumps(
        [str(tournament_id), command, arguments], sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(document.encode()).hexdigest()


def run(
    *,
    tournament_id: UUID,
    command: TournamentCommand | Callable[[TournamentState | None], TournamentCommand],
    actor: Actor,
    idempotency_key: str | None = None,
    name: str = "",
    arguments: dict[str, Any] | None = None,
) -> TournamentCommandResult:
    """Carry out one tournament command (decision record 0020 for idempotency keys: a command
    sent again with its key records nothing and is answered from what the first one left).
    `command` may be a function of the loaded state that writes name rows first: it runs
    after the idempotency check, in the command's transaction."""

    def decide(state: TournamentState | None) -> list[TournamentEvent]:
        if state is None and not isinstance(command, CreateTournament):
            raise TournamentNotFound.because(
                gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
            )
        decided = command(state) if callable(command) else command
        return decide_command(state, decided)

    if idempotency_key is not None and actor.causation_id is None:
        # Every event the command causes (its matches' too) names it.
        actor = replace(actor, causation_id=f"command:{uuid.uuid4()}")
    outcome = run_command(
        TOURNAMENT_KIND,
        stream_id=tournament_id,
        decide=decide,
        metadata=EventMetadata.of(actor),
        idempotency_key=idempotency_key,
        fingerprint=None
        if idempotency_key is None
        else command_fingerprint(tournament_id, name, arguments or {}),
        # Writers take the tournament's row lock first: losing a race anyway is reported (409).
        retries=1,
    )
    return TournamentCommandResult.of(outcome)


def tournament_of_match(match_id: UUID) -> UUID:
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise InvalidTournament.because(
            gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
        )
    return tournament_id
