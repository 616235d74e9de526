"""The inline match projections: rows derived from a folded match stream.

The same row builders serve the inline update (same transaction as the append), the rebuild
from the log and the verification, so the three cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

from django.db import connection, transaction

from games.eventstore.api import (
    APPENDED_FIRST_AT,
    APPENDED_LAST_AT,
    APPENDED_LAST_POSITION,
    WRITTEN_IF_APPENDED,
    RecordedEvent,
    WrittenWithAppend,
    iter_all,
)
from games.matches.stream import (
    MatchAggregate,
    MatchEvent,
    MatchRound,
    evolve,
    match_event_from_stored,
)
from games.models import Match, Round

MATCH_STREAM = "match"

MATCH_UPDATED_FIELDS = [
    field.name for field in Match._meta.concrete_fields if field.name not in {"id", "created_at"}
]
ROUND_UPDATED_FIELDS = [
    field.name
    for field in Round._meta.concrete_fields
    if field.name not in {"id", "match", "number"}
]


def side_name(side: int | None) -> str | None:
    return None if side is None else f"side{side}"


def scoring_of(state: MatchAggregate) -> str:
    return "rounds" if state.setup.match_format.scoring == "best_of" else "points"


@dataclass
class StreamPosition:
    """Where a folded stream stands in the log."""

    version: int
    last_position: int
    created_at: datetime
    updated_at: datetime


def match_row(state: MatchAggregate, *, match_id: UUID, position: StreamPosition) -> Match:
    record = state.record
    return Match(
        id=match_id,
        table_size=state.table.size,
        scoring=scoring_of(state),
        best_of=state.setup.match_format.rounds,
        sides=[dict(side) for side in state.setup.sides],
        variant=state.setup.variant.to_dict(),
        first_dealer=state.setup.first_dealer,
        status=state.status,
        round_wins=list(record.round_wins),
        total_points=list(record.total_points),
        winner=state.winner,
        decider=state.setup.match_format.decider,
        deciding_round_due=state.deciding_round_due,
        forfeited_by=state.forfeited_by,
        confirmed_by=sorted(state.confirmed_by),
        disputed_by=sorted(state.disputed_by),
        version=position.version,
        last_position=position.last_position,
        created_at=position.created_at,
        updated_at=position.updated_at,
    )


def round_row(match_round: MatchRound, *, match_id: UUID, replay_of: int | None) -> Round:
    outcome = match_round.outcome
    return Round(
        match_id=match_id,
        number=match_round.number,
        status=match_round.status,
        dealer_seat=match_round.dealer,
        leader_seat=match_round.leader,
        briscola=None if match_round.briscola is None else match_round.briscola.code,
        plays=[play.to_list() for play in match_round.plays],
        points=[] if outcome is None else list(outcome.points),
        points_entered=match_round.entered is not None,
        result=None if outcome is None or match_round.voided else outcome.result,
        replay_of=replay_of,
        void_reason=match_round.void_reason,
        deck=deck_of(match_round),
    )


def deck_of(match_round: MatchRound) -> list[str] | None:
    cards = match_round.cards
    deck = None if cards is None else cards.setup.started.deck
    return None if deck is None else [card.code for card in deck]


def round_rows(state: MatchAggregate, *, match_id: UUID) -> list[Round]:
    replay_of = state.replay_of
    return [
        round_row(match_round, match_id=match_id, replay_of=replay_of.get(match_round.number))
        for match_round in state.rounds
    ]


def match_written_with_append(
    state: MatchAggregate,
    *,
    match_id: UUID,
    version: int,
    previous: MatchAggregate | None = None,
) -> WrittenWithAppend:
    """The match row and the round rows the command touched (all of them without `previous`),
    upserted by the append's own statement: one round trip for the events and their projection,
    no ORM compilation on the card path. The row's last position and times are the append's."""
    replay_of = state.replay_of
    touched = state.rounds
    if previous is not None:
        before, replayed_before = previous.rounds, previous.replay_of
        touched = tuple(
            match_round
            for index, match_round in enumerate(state.rounds)
            if index >= len(before)
            or before[index] is not match_round
            or replayed_before.get(match_round.number) != replay_of.get(match_round.number)
        )
    rounds = [
        round_row(match_round, match_id=match_id, replay_of=replay_of.get(match_round.number))
        for match_round in touched
    ]
    position = StreamPosition(version, 0, STAND_IN_TIME, STAND_IN_TIME)
    match = match_row(state, match_id=match_id, position=position)
    params = {
        f"m{index}": field.get_db_prep_save(getattr(match, field.attname), connection)
        for index, field in enumerate(MATCH_COLUMNS)
        if field.name not in SET_BY_THE_APPEND
    }
    for number, row in enumerate(rounds):
        params.update(
            (f"r{number}_{index}", field.get_db_prep_save(getattr(row, field.attname), connection))
            for index, field in enumerate(ROUND_COLUMNS)
        )
    return WrittenWithAppend(ctes=projection_ctes(len(rounds)), params=params)


STAND_IN_TIME = datetime.fromtimestamp(0, tz=UTC)
"""Never written: the row's times are the append's (`SET_BY_THE_APPEND`)."""
MATCH_COLUMNS = list(Match._meta.concrete_fields)
ROUND_COLUMNS = [field for field in Round._meta.concrete_fields if not field.primary_key]
SET_BY_THE_APPEND = {
    "last_position": APPENDED_LAST_POSITION,
    "created_at": APPENDED_FIRST_AT,
    "updated_at": APPENDED_LAST_AT,
}


def cast(name: str, field: Any) -> str:
    """A named placeholder with its column's type: rows in VALUES are typed on their own."""
    return f"CAST(%({name})s AS {field.db_type(connection)})"


def on_conflict_update(fields: list[Any], *, conflict: str, updated: list[str]) -> str:
    updates = ", ".join(
        f'"{field.column}" = EXCLUDED."{field.column}"' for field in fields if field.name in updated
    )
    return f"ON CONFLICT ({conflict}) DO UPDATE SET {updates}"


def column_list(fields: list[Any]) -> str:
    return ", ".join(f'"{field.column}"' for field in fields)


@lru_cache(maxsize=64)
def projection_ctes(round_count: int) -> str:
    """The upserts of the match row and of `round_count` round rows, as CTEs of the append's
    statement, each writing only if the append did; built once per count."""
    match_values = ", ".join(
        SET_BY_THE_APPEND.get(field.name) or cast(f"m{index}", field)
        for index, field in enumerate(MATCH_COLUMNS)
    )
    match_conflict = on_conflict_update(
        MATCH_COLUMNS, conflict='"id"', updated=MATCH_UPDATED_FIELDS
    )
    ctes = (
        f'upserted_match AS (INSERT INTO "{Match._meta.db_table}" ({column_list(MATCH_COLUMNS)}) '
        f"SELECT {match_values} WHERE {WRITTEN_IF_APPENDED} {match_conflict})"
    )
    if not round_count:
        return ctes
    rows = ", ".join(
        "("
        + ", ".join(cast(f"r{number}_{index}", f) for index, f in enumerate(ROUND_COLUMNS))
        + ")"
        for number in range(round_count)
    )
    conflict = on_conflict_update(
        ROUND_COLUMNS, conflict='"match_id", "number"', updated=ROUND_UPDATED_FIELDS
    )
    return (
        f'{ctes}, upserted_rounds AS (INSERT INTO "{Round._meta.db_table}" '
        f"({column_list(ROUND_COLUMNS)}) SELECT * FROM (VALUES {rows}) AS touched "
        f"WHERE {WRITTEN_IF_APPENDED} {conflict})"
    )


def match_event(event: RecordedEvent) -> MatchEvent:
    return match_event_from_stored(event.event_type, event.payload)


@dataclass
class FoldedStream:
    state: MatchAggregate
    position: StreamPosition


def fold_match_log(events: Iterable[RecordedEvent]) -> Iterator[tuple[UUID, FoldedStream]]:
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

    def events() -> Iterator[RecordedEvent]:
        for event in iter_all(stream_types=[MATCH_STREAM]):
            if on_event is not None:
                on_event()
            yield event

    for match_id, stream in fold_match_log(events()):
        yield (
            match_row(stream.state, match_id=match_id, position=stream.position),
            round_rows(stream.state, match_id=match_id),
        )


def rebuild(*, batch_size: int = 2000, on_event: Callable[[], None] | None = None) -> int:
    """Drop the match projections and refill them from the log; returns the matches written."""
    written = 0
    with transaction.atomic():
        with connection.cursor() as cursor:
            # DELETE rather than TRUNCATE: it also works in a transaction that already wrote
            # projection rows (TRUNCATE refuses while their deferred checks are pending).
            cursor.execute(f"DELETE FROM {Round._meta.db_table}")
            cursor.execute(f"DELETE FROM {Match._meta.db_table}")
        matches: list[Match] = []
        rounds: list[Round] = []
        for match, match_rounds in expected_rows(on_event):
            matches.append(match)
            rounds.extend(match_rounds)
            if len(matches) >= batch_size:
                written += flush(matches, rounds)
        written += flush(matches, rounds)
    return written


def flush(matches: list[Match], rounds: list[Round]) -> int:
    count = len(matches)
    Match.objects.bulk_create(matches)
    Round.objects.bulk_create(rounds)
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


_projectors: dict[str, Projector] = {}


def register_projector(
    name: str, *, rebuild: Callable[[], int], verify: Callable[[], list[str]]
) -> None:
    """Register (or replace, so a repeated `ready()` is harmless) the projections named `name`."""
    _projectors[name] = Projector(name=name, rebuild=rebuild, verify=verify)


def unregister_projector(name: str) -> None:
    _projectors.pop(name, None)


def registered_projectors() -> list[Projector]:
    """The registered projections, in registration order."""
    return list(_projectors.values())
