"""The match projections rebuilt from the log, and compared with it (`manage.py
rebuild_projections`, `verify_projections`): the rows come from the same `match_values` and
`round_values` as the inline projection, so the two cannot drift apart. Other apps register their
own projections here (`register_projector`), or several rebuilt from one fold of the streams
they share (`register_shared_fold`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.db import connection, transaction

from common.db import copy_values
from games.eventstore.api import FoldedEvent, iter_all_to_fold
from games.matches.projections import (
    MATCH_STREAM,
    StreamPosition,
    match_event,
    match_row,
    match_values,
    round_rows,
    rounds_values,
)
from games.matches.stream.evolve import evolve
from games.matches.stream.state import MatchAggregate
from games.models import Match, Round

F = TypeVar("F")


@dataclass
class FoldedStream:
    state: MatchAggregate
    position: StreamPosition


def fold_match_log(events: Iterable[FoldedEvent]) -> Iterator[tuple[UUID, FoldedStream]]:
    """Fold every match stream in the log; yields each stream once, after its last event."""
    folded: dict[UUID, FoldedStream] = {}
    for event in events:
        current = folded.get(event.stream_id)
        if current is None:
            folded[event.stream_id] = FoldedStream(
                evolve(None, match_event(event)),
                StreamPosition(
                    event.stream_version,
                    event.global_position,
                    event.recorded_at,
                    event.recorded_at,
                ),
            )
            continue
        current.state = evolve(current.state, match_event(event))
        position = current.position
        position.version = event.stream_version
        position.last_position = event.global_position
        position.updated_at = event.recorded_at
    yield from folded.items()


def expected_rows(
    on_event: Callable[[], None] | None = None,
) -> Iterator[tuple[Match, list[Round]]]:
    """The rows every match should have, folded from the whole log."""
    for match_id, stream in fold_match_log(log_events(on_event)):
        yield (
            match_row(stream.state, match_id=match_id, position=stream.position),
            round_rows(stream.state, match_id=match_id),
        )


def log_events(on_event: Callable[[], None] | None) -> Iterator[FoldedEvent]:
    """The match events of the log, `on_event` called for each (a progress bar)."""
    for event in iter_all_to_fold(stream_types=[MATCH_STREAM]):
        if on_event is not None:
            on_event()
        yield event


def rebuild(*, batch_size: int = 2000, on_event: Callable[[], None] | None = None) -> int:
    """Drop the match projections and refill them from the log; returns the matches written.
    The rows are written as their values, the values `expected_rows` builds its rows from,
    without a model instance a row."""
    written = 0
    with transaction.atomic():
        with connection.cursor() as cursor:
            # DELETE rather than TRUNCATE: it also works in a transaction that already wrote
            # projection rows (TRUNCATE refuses while their deferred checks are pending).
            cursor.execute(f"DELETE FROM {Round._meta.db_table}")  # noqa: S608 - constant table names; values are bound
            cursor.execute(f"DELETE FROM {Match._meta.db_table}")  # noqa: S608 - constant table names; values are bound
        matches: list[dict[str, Any]] = []
        rounds: list[dict[str, Any]] = []
        # The whole log is read before the first stream comes out: no query meets a COPY.
        for match_id, stream in fold_match_log(log_events(on_event)):
            matches.append(match_values(stream.state, match_id=match_id, position=stream.position))
            rounds.extend(rounds_values(stream.state, match_id=match_id))
            if len(matches) >= batch_size:
                written += flush(matches, rounds)
        written += flush(matches, rounds)
    return written


def flush(matches: list[dict[str, Any]], rounds: list[dict[str, Any]]) -> int:
    count = len(matches)
    copy_values(Match, matches)
    copy_values(Round, rounds)
    matches.clear()
    rounds.clear()
    return count


def comparable(row: Match | Round) -> dict[str, Any]:
    return {
        field.attname: getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if field.name != "id" or isinstance(row, Match)
    }


VERIFY_BATCH = 500
"""Matches compared per pair of queries (their live rows and their rounds)."""


def verify(*, on_event: Callable[[], None] | None = None) -> list[str]:
    """Compare the live projections with a fold of the log; returns the differences found."""
    differences: list[str] = []
    expected_ids: set[UUID] = set()
    batch: list[tuple[Match, list[Round]]] = []
    for match, match_rounds in expected_rows(on_event):
        expected_ids.add(match.id)
        batch.append((match, match_rounds))
        if len(batch) == VERIFY_BATCH:
            differences.extend(compare_batch(batch))
            batch = []
    differences.extend(compare_batch(batch))
    extra = Match.objects.exclude(id__in=expected_ids).values_list("id", flat=True)
    differences.extend(f"match {match_id}: in the table but not in the log" for match_id in extra)
    return differences


def compare_batch(batch: list[tuple[Match, list[Round]]]) -> list[str]:
    """The differences of a batch of matches, read from the tables in two queries."""
    if not batch:
        return []
    ids = [match.id for match, _rounds in batch]
    live = Match.objects.in_bulk(ids)
    live_rounds: dict[UUID, dict[int, Round]] = {match_id: {} for match_id in ids}
    for live_round in Round.objects.filter(match_id__in=ids):
        live_rounds[live_round.match_id][live_round.number] = live_round
    differences: list[str] = []
    for expected, expected_rounds in batch:
        differences.extend(
            compare_match(
                expected, expected_rounds, live.get(expected.id), live_rounds[expected.id]
            )
        )
    return differences


def compare_match(
    expected: Match,
    expected_rounds: list[Round],
    live: Match | None,
    live_rounds: dict[int, Round],
) -> list[str]:
    if live is None:
        return [f"match {expected.id}: missing from the table"]
    differences = describe_differences(f"match {expected.id}", comparable(expected), live)
    for expected_round in expected_rounds:
        label = f"match {expected.id} round {expected_round.number}"
        live_round = live_rounds.pop(expected_round.number, None)
        if live_round is None:
            differences.append(f"{label}: missing from the table")
            continue
        differences.extend(describe_differences(label, comparable(expected_round), live_round))
    differences.extend(
        f"match {expected.id} round {number}: in the table but not in the log"
        for number in live_rounds
    )
    return differences


def describe_differences(label: str, expected: dict[str, Any], live: Match | Round) -> list[str]:
    actual = comparable(live)
    return [
        f"{label}: {name} is {actual[name]!r}, the log says {value!r}"
        for name, value in expected.items()
        if actual[name] != value
    ]


# The registry of other projections. Apps built on games (tournaments) register theirs in their
# AppConfig.ready(), so the rebuild and verify commands cover them while games imports none of
# them. The match projections are not registered: the commands always handle them first, since
# the others read the match rows.


@dataclass(frozen=True)
class Projector:
    """One app's projections: `rebuild` drops and refills them, returning how many it wrote;
    `verify` compares them with the log, returning the differences."""

    name: str
    rebuild: Callable[[], int]
    verify: Callable[[], list[str]]


@dataclass(frozen=True)
class SharingProjector(Generic[F]):
    """A projection rebuilt from a fold of the log it shares with others: `rebuild` drops and
    refills it from the fold it is given."""

    name: str
    rebuild: Callable[[F], int]
    verify: Callable[[], list[str]]


@dataclass(frozen=True)
class SharedFold(Generic[F]):
    """Projections of the same streams: the rebuild reads and folds those streams once
    (`fold`, named `name` in its report) and hands the fold to each of them in turn, instead of
    each reading and folding the same events again (decision record 0066)."""

    name: str
    fold: Callable[[], F]
    projectors: tuple[SharingProjector[F], ...]

    def alone(self, projector: SharingProjector[F]) -> Projector:
        """The projector as one rebuilt on its own: from a fold of its own."""
        return Projector(
            name=projector.name,
            rebuild=lambda: projector.rebuild(self.fold()),
            verify=projector.verify,
        )


_registered: dict[str, Projector | SharedFold[Any]] = {}


def register_projector(
    name: str, *, rebuild: Callable[[], int], verify: Callable[[], list[str]]
) -> None:
    """Register (or replace, so a repeated `ready()` is harmless) the projections named `name`."""
    _registered[name] = Projector(name=name, rebuild=rebuild, verify=verify)


def register_shared_fold(shared: SharedFold[Any]) -> None:
    """Register (or replace) projections rebuilt from one fold, under the fold's name."""
    _registered[shared.name] = shared


def unregister_projector(name: str) -> None:
    _registered.pop(name, None)


def registered_projectors() -> list[Projector]:
    """The registered projections, in registration order (those of a shared fold each as if
    alone: what `verify` runs)."""
    projectors: list[Projector] = []
    for entry in _registered.values():
        if isinstance(entry, SharedFold):
            projectors.extend(entry.alone(projector) for projector in entry.projectors)
        else:
            projectors.append(entry)
    return projectors


@dataclass(frozen=True)
class Step:
    """One step of `rebuild_registered`: a fold made (`written` None) or projections rebuilt."""

    name: str
    written: int | None
    seconds: float


def rebuild_registered() -> Iterator[Step]:
    """Rebuild every registered projection in registration order, yielding each step as it
    ends; a shared fold is made once, just before the first of its projections."""
    for entry in list(_registered.values()):
        if isinstance(entry, Projector):
            yield timed(entry.name, entry.rebuild)
            continue
        started = time.perf_counter()
        folded = entry.fold()
        yield Step(entry.name, None, time.perf_counter() - started)
        for projector in entry.projectors:
            yield timed(projector.name, partial(projector.rebuild, folded))


def timed(name: str, rebuild: Callable[[], int]) -> Step:
    started = time.perf_counter()
    written = rebuild()
    return Step(name, written, time.perf_counter() - started)
