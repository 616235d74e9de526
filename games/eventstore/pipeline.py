"""One way to carry out a command on any stream: load, decide, append, project, notify.

Both the match and the tournament services run their commands through `run_command`; what
differs between the two is a `StreamKind` (how a stream of that kind is loaded, folded, encoded,
projected inline and announced). The steps, in one transaction:

1. The stream is loaded (`kind.load`, which may lock what the kind's writers lock first).
2. A repeated idempotency key is answered from the first command (`kind.replay`), nothing new;
   else the caller's expected version is checked.
3. `decide(state)` says which events to record: pure for the rules, though the caller's decider
   may write name rows first (they roll back with the rest when the command is refused).
4. The events are appended after the version loaded, with the idempotency key and the command's
   fingerprint; a racing retry that recorded the same key first rolls this attempt back and is
   answered like step 1.
5. The new state is folded, the inline projections written (`kind.project`), the reactions run
   (`kind.react`: other streams' commands in the same transaction) and the notifications
   scheduled for after the commit (`kind.notify`).

Without an expected version, losing a race to another writer is retried (`retries` times).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Generic, Self, TypeVar
from uuid import UUID

from django.db import transaction

from games.eventstore.appending import append_to_stream, find_append_by_idempotency_key
from games.eventstore.errors import WrongExpectedVersion
from games.eventstore.records import (
    AppendResult,
    EventMetadata,
    NewEvent,
    RecordedEvent,
    WrittenWithAppend,
)

S = TypeVar("S")
E = TypeVar("E")


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
class StreamKind(Generic[S, E]):
    """How the pipeline handles one kind of stream (S: its folded state, E: its events)."""

    stream_type: str
    load: Callable[[UUID], tuple[S | None, int]]
    """The stream's state and version (None and 0 when it has no events yet)."""
    fold: Callable[[Sequence[E], S | None], S]
    encode: Callable[[E], NewEvent]
    replay: Callable[[UUID, AppendResult], tuple[S, int]]
    """The state and version a repeated command is answered with, from its first append."""
    project: Callable[[UUID, S | None, S, Appended[E]], None]
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
        if not self.transactional and (self.react is not None or self.project_with_append is None):
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
    """Raised by a kind's `decide` that refused a command on a state it did not read from the
    stream in this attempt (a memo trusted at a head seen earlier in the request): a write may
    have landed since, so the pipeline tries again with a state read afresh."""


class _RecordedFirst(Exception):
    """A racing retry recorded the key first: rolls this attempt's transaction back."""

    def __init__(self, first: AppendResult) -> None:
        super().__init__("the command was recorded by an earlier request with the same key")
        self.first = first


def run_command(
    kind: StreamKind[S, E],
    *,
    stream_id: UUID,
    decide: Callable[[S | None], Sequence[E]],
    metadata: EventMetadata,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    fingerprint: str | None = None,
    retries: int = 5,
) -> Outcome[S]:
    """Carry out one command on `stream_id` (see the module's docstring)."""
    if idempotency_key is not None and fingerprint is None:
        raise ValueError("a command with an idempotency key needs its fingerprint")
    lost: WrongExpectedVersion | None = None
    for _attempt in range(max(retries, 1)):
        try:
            with transaction.atomic() if kind.transactional else nullcontext():
                return _run_once(
                    kind,
                    stream_id=stream_id,
                    decide=decide,
                    metadata=metadata,
                    expected_version=expected_version,
                    idempotency_key=idempotency_key,
                    fingerprint=fingerprint,
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
    kind: StreamKind[S, E],
    *,
    stream_id: UUID,
    decide: Callable[[S | None], Sequence[E]],
    metadata: EventMetadata,
    expected_version: int | None,
    idempotency_key: str | None,
    fingerprint: str | None,
) -> Outcome[S]:
    state, version = kind.load(stream_id)
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
    decided = decide(state)
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
        events=[kind.encode(decided_event) for decided_event in decided],
        expected_version=version,
        metadata=metadata,
        idempotency_key=idempotency_key,
        command_fingerprint=None if idempotency_key is None else fingerprint,
        alongside=alongside,
    )
    if appended.duplicate:
        raise _RecordedFirst(appended)
    typed = Appended(appended, tuple(decided))
    kind.project(stream_id, state, new_state, typed)
    if kind.react is not None:
        kind.react(stream_id, new_state, typed, metadata)
    if kind.notify is not None:
        kind.notify(stream_id, new_state, typed)
    return Outcome(
        stream_id=stream_id,
        state=new_state,
        version=appended.last_version,
        events=appended.events,
    )


def replayed(kind: StreamKind[S, E], stream_id: UUID, first: AppendResult) -> Outcome[S]:
    state, version = kind.replay(stream_id, first)
    return Outcome(
        stream_id=stream_id, state=state, version=version, events=first.events, duplicate=True
    )
