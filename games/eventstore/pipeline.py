"""One way to carry out a command on any stream: load, decide, append, project, notify.

Both the match and the tournament services run their commands through `run_command`; what
differs between the two is a `StreamKind` (how a stream of that kind folds, decides, encodes,
projects inline and announces). The steps, in one transaction:

1. The kind's lock is taken (a tournament's row) and the stream loaded
   (`games.eventstore.loading`: from the process's memo, reading only what it lacks, or nothing
   at the caller's `head`).
2. A repeated idempotency key is answered from the first command (`replayed`), nothing new;
   else the caller's expected version is checked.
3. The command, completed by the caller's `prepare` when given (which may write name rows:
   they roll back with the rest when the command is refused), is decided (pure).
4. The events are appended after the version loaded, with the idempotency key and the command's
   fingerprint (`common.fingerprints`); a racing retry that recorded the same key first rolls
   this attempt back and is answered like step 2.
5. The new state is folded and remembered once committed, the inline projections written
   (`kind.project`), the reactions run (`kind.react`: other streams' commands in the same
   transaction) and the notifications scheduled for after the commit (`kind.notify`); each hook
   receives the events as typed values beside their records (`Appended`).

Without an expected version, losing a race to another writer is retried (`retries` times).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar
from uuid import UUID

from django.db import transaction

from common.explained import Explained
from common.fingerprints import fingerprint as command_fingerprint
from games.eventstore.appending import append_to_stream, find_append_by_idempotency_key
from games.eventstore.errors import WrongExpectedVersion
from games.eventstore.loading import Head, Loaded, StreamFolding, load_latest, load_to
from games.eventstore.memo import Folded
from games.eventstore.reading import read_stream
from games.eventstore.records import (
    AppendResult,
    EventMetadata,
    NewEvent,
    RecordedEvent,
    WrittenWithAppend,
)

S = TypeVar("S")
E = TypeVar("E")
C = TypeVar("C")


@dataclass(frozen=True)
class Appended(Generic[E]):
    """What one command appended, as the hooks receive it: the events as typed values, beside
    the records the log stored for them (their versions, positions and times), in order."""

    result: AppendResult
    events: tuple[E, ...]

    @property
    def records(self) -> tuple[RecordedEvent, ...]:
        return self.result.events

    @property
    def last_version(self) -> int:
        return self.result.last_version


@dataclass(frozen=True, kw_only=True)
class StreamKind(StreamFolding[S, E], Generic[S, E, C]):
    """How the pipeline handles one kind of stream (S: its folded state, E: its events, C: its
    commands): how it folds and stores its events (`StreamFolding`), decides, projects and
    announces."""

    decide: Callable[[S | None, C], Sequence[E]]
    """The events a command records on the state loaded (None before the stream's first event:
    a command that does not create the stream is refused with `not_found` before it)."""
    creates: tuple[type[Any], ...]
    """The commands that may record a stream's first events."""
    not_found: Callable[[UUID], Exception]
    """The refusal of any other command on a stream with no events."""
    lock: Callable[[UUID], None] | None = None
    """Taken before the stream is loaded, in the command's transaction (a tournament's row: every
    writer of a tournament takes it before the log's append lock, so none waits the other way)."""
    project: Callable[[UUID, S | None, S, Appended[E]], None] | None = None
    """Write the inline projections (same transaction) from the state before and after."""
    project_with_append: Callable[[UUID, S | None, S, int], WrittenWithAppend] | None = None
    """The inline projections as writes of the append's own statement (one round trip fewer),
    from the state before and after and the version after; `project` then does the rest."""
    react: Callable[[UUID, S, Appended[E], EventMetadata], None] | None = None
    """Carry out what the recorded events call for on other streams (same transaction)."""
    notify: Callable[[UUID, S, Appended[E]], None] | None = None
    """Schedule what must happen once the transaction commits (never if it rolls back)."""
    transactional: bool = True
    """Run each attempt in a transaction. A kind whose attempt writes nothing but its append
    statement (its projections `project_with_append`, no `react`) may run without one, unless
    its caller opened one: that statement is atomic by itself and commits as it ends, so the
    log's append lock is never held while the app finishes its work and sends a COMMIT (held
    across a descheduled worker, it queued every other writer)."""

    def __post_init__(self) -> None:
        if not self.transactional and (
            self.react is not None or self.lock is not None or self.project_with_append is None
        ):
            raise ValueError("only a kind that writes with its append alone runs without one")


@dataclass(frozen=True, kw_only=True)
class Outcome(Generic[S]):
    """What a command left: the state and version after it, the events it recorded (for a
    repeated idempotency key, those of the first command), and whether it was such a repeat."""

    stream_id: UUID
    state: S
    version: int
    events: tuple[RecordedEvent, ...] = ()
    duplicate: bool = False

    @property
    def recorded(self) -> bool:
        return bool(self.events) and not self.duplicate

    @classmethod
    def of(cls, outcome: Outcome[S]) -> Self:
        """The same outcome as this kind's own result class (which adds names, not fields)."""
        return cls(
            stream_id=outcome.stream_id,
            state=outcome.state,
            version=outcome.version,
            events=outcome.events,
            duplicate=outcome.duplicate,
        )


class Reload(Exception):
    """A command refused (`Explained`) on a state trusted at the caller's head without reading
    the log: a write may have landed since, so the pipeline tries again with a state read
    afresh. Any other error is raised as it is."""


class _RecordedFirst(Exception):
    """A racing retry recorded the key first: rolls this attempt's transaction back."""

    def __init__(self, first: AppendResult) -> None:
        super().__init__("the command was recorded by an earlier request with the same key")
        self.first = first


def run_command(
    kind: StreamKind[S, E, C],
    *,
    stream_id: UUID,
    command: C,
    metadata: EventMetadata,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    names: Sequence[Any] = (),
    head: Head | None = None,
    prepare: Callable[[S | None, C], C] | None = None,
    retries: int = 5,
) -> Outcome[S]:
    """Carry out `command` on `stream_id` (see the module's docstring). `names` are what the
    command brings that the events do not hold (they count in its fingerprint); `head` is where
    the caller saw the stream (`games.eventstore.loading`); `prepare` completes the command on
    the loaded state after the idempotency check (it may write name rows, which roll back with
    the rest when the command is refused)."""
    fingerprint = (
        None if idempotency_key is None else command_fingerprint(stream_id, command, names=names)
    )
    lost: WrongExpectedVersion | None = None
    for attempt in range(max(retries, 1)):
        try:
            with transaction.atomic() if kind.transactional else nullcontext():
                return _run_once(
                    kind,
                    stream_id=stream_id,
                    command=command,
                    prepare=prepare,
                    metadata=metadata,
                    expected_version=expected_version,
                    idempotency_key=idempotency_key,
                    fingerprint=fingerprint,
                    head=head if attempt == 0 else None,
                )
        except _RecordedFirst as raced:
            return replayed(kind, stream_id, raced.first)
        except Reload:
            continue
        except WrongExpectedVersion as conflict:
            if expected_version is not None:
                raise
            lost = conflict
    if lost is None:
        raise RuntimeError("every attempt asked to reload the stream")
    raise lost


def _run_once(
    kind: StreamKind[S, E, C],
    *,
    stream_id: UUID,
    command: C,
    prepare: Callable[[S | None, C], C] | None,
    metadata: EventMetadata,
    expected_version: int | None,
    idempotency_key: str | None,
    fingerprint: str | None,
    head: Head | None,
) -> Outcome[S]:
    if kind.lock is not None:
        kind.lock(stream_id)
    loaded = load_latest(kind, stream_id, head=head)
    state, version = loaded.state, loaded.version
    if idempotency_key is not None:
        # After loading: a kind whose load locks the stream's owner sees a racing retry that
        # recorded the key while this one waited, and answers from it instead of deciding again.
        first = find_append_by_idempotency_key(
            stream_id=stream_id, idempotency_key=idempotency_key, command_fingerprint=fingerprint
        )
        if first is not None:
            return replayed(kind, stream_id, first)
    if expected_version is not None and expected_version != version:
        raise WrongExpectedVersion(
            stream_id=stream_id,
            stream_type=kind.stream_type,
            expected_version=expected_version,
            current_version=version,
        )
    decided = _decided(kind, stream_id, loaded, command, prepare)
    if not decided:
        if state is None:
            raise ValueError("a command on a new stream must record its first event")
        return Outcome(stream_id=stream_id, state=state, version=version)
    new_state = kind.fold(decided, state)
    alongside = (
        None
        if kind.project_with_append is None
        else kind.project_with_append(stream_id, state, new_state, version + len(decided))
    )
    appended = append_to_stream(
        stream_id=stream_id,
        stream_type=kind.stream_type,
        events=[stored_event(kind, decided_event) for decided_event in decided],
        expected_version=version,
        metadata=metadata,
        idempotency_key=idempotency_key,
        command_fingerprint=fingerprint,
        alongside=alongside,
    )
    if appended.duplicate:
        raise _RecordedFirst(appended)
    _after_append(kind, stream_id, state, new_state, Appended(appended, tuple(decided)), metadata)
    return Outcome(
        stream_id=stream_id,
        state=new_state,
        version=appended.last_version,
        events=appended.events,
    )


def stored_event(kind: StreamKind[S, E, C], event: E) -> NewEvent:
    """The event as the store keeps it, at its type's current schema version."""
    event_type, payload = kind.codec.encode(event)
    return NewEvent(event_type, payload, schema_version=kind.codec.schema_version_of(event_type))


def _decided(
    kind: StreamKind[S, E, C],
    stream_id: UUID,
    loaded: Loaded[S],
    command: C,
    prepare: Callable[[S | None, C], C] | None,
) -> Sequence[E]:
    try:
        if loaded.state is None and not isinstance(command, kind.creates):
            raise kind.not_found(stream_id)
        return kind.decide(
            loaded.state, command if prepare is None else prepare(loaded.state, command)
        )
    except Explained:
        if loaded.unread:
            raise Reload from None  # refused on a state that a landed write may have moved
        raise


def _after_append(
    kind: StreamKind[S, E, C],
    stream_id: UUID,
    state: S | None,
    new_state: S,
    appended: Appended[E],
    metadata: EventMetadata,
) -> None:
    """The new state remembered once committed; the kind's hooks."""
    last = appended.records[-1]
    kind.memo.remember_on_commit(
        stream_id, Folded(new_state, last.stream_version, last.global_position)
    )
    if kind.project is not None:
        kind.project(stream_id, state, new_state, appended)
    if kind.react is not None:
        kind.react(stream_id, new_state, appended, metadata)
    if kind.notify is not None:
        kind.notify(stream_id, new_state, appended)


def replayed(kind: StreamKind[S, E, C], stream_id: UUID, first: AppendResult) -> Outcome[S]:
    """The answer to a repeated idempotency key: the stream as the first command left it. A
    command records one append on its stream; one recorded before that (several appends carrying
    its causation id) is followed to its last append."""
    causation_id = first.events[0].metadata.causation_id
    last_version = first.last_version
    if causation_id is not None:
        for later in read_stream(stream_id=stream_id, from_version=last_version + 1):
            if later.metadata.causation_id != causation_id:
                break
            last_version = later.stream_version
    loaded = Loaded(*load_to(kind, stream_id, last_version))
    state, version = loaded.state, loaded.version
    if state is None:
        raise RuntimeError("a recorded command's stream has events")
    return Outcome(
        stream_id=stream_id, state=state, version=version, events=first.events, duplicate=True
    )
