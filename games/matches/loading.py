"""A match folded from its stream: from the start, up to a version, or from what this process
folded before (`games.folded`), reading nothing when the request's place already told where
the stream stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from django.utils.translation import gettext_noop

from games import folded
from games.eventstore.api import AppendResult, RecordedEvent, read_stream
from games.matches.projections import match_event
from games.matches.stream import MatchAggregate, fold
from games.rules import RuleViolation


class MatchNotFound(RuleViolation):
    code = "match_not_found"


def load_match(*, match_id: UUID, to_version: int | None = None) -> tuple[MatchAggregate, int]:
    """The match folded from its stream (up to `to_version`), and the version folded."""
    if to_version is None:
        return load_latest(match_id)
    events = read_stream(stream_id=match_id, to_version=to_version)
    if not events:
        raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
    return fold(map(match_event, events)), events[-1].stream_version


def load_latest(match_id: UUID) -> tuple[MatchAggregate, int]:
    """The match as it stands, folding only what this process has not folded before; reading
    nothing when the request's place already told where the stream stands (`games.folded`)."""
    known = folded.recall(match_id)
    head = folded.take_head(match_id)
    folded.loaded_unread(None)
    if head is not None:
        if known is not None and head.at == (known.version, known.position):
            folded.loaded_unread(match_id)
            return known.state, known.version
        if known is None and head == folded.EMPTY_STREAM:
            # An id this request just drew: no stream has it (were it taken, the append, which
            # expects an empty stream, would be refused and the command retried after a read).
            raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
        if head.events is not None and head.from_version == (known.version if known else 1):
            loaded = fold_read(match_id, known, list(head.events))
            if loaded is not None:
                folded.loaded_unread(match_id)
                return loaded
    from_version = 1 if known is None else known.version
    loaded = fold_read(match_id, known, read_stream(stream_id=match_id, from_version=from_version))
    if loaded is None and known is not None:  # the log changed under the memo: fold it all
        loaded = fold_read(match_id, None, read_stream(stream_id=match_id))
    if loaded is None:
        raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
    return loaded


def fold_read(
    match_id: UUID, known: folded.Folded[MatchAggregate] | None, events: list[RecordedEvent]
) -> tuple[MatchAggregate, int] | None:
    """The match after `events` (`games.eventstore.memo.StreamMemo.fold_read`)."""
    return folded.memo.fold_read(match_id, known, events, fold_match_events)


def fold_match_events(
    events: Sequence[RecordedEvent], state: MatchAggregate | None
) -> MatchAggregate:
    return fold(map(match_event, events), state)


def remember(match_id: UUID, state: MatchAggregate, last: RecordedEvent) -> None:
    folded.remember_on_commit(
        match_id, folded.Folded(state, last.stream_version, last.global_position)
    )


def load_for_command(match_id: UUID) -> tuple[MatchAggregate | None, int]:
    """The match as a command finds it: None and version 0 before its creation."""
    try:
        return load_latest(match_id)
    except MatchNotFound:
        return None, 0


def replay_from(match_id: UUID, first: AppendResult) -> tuple[MatchAggregate, int]:
    return load_match(match_id=match_id, to_version=first.last_version)
