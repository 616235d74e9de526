"""The inline match projections: rows derived from a folded match stream.

The same row builders serve the inline update (same transaction as the append), the rebuild
from the log and the verification, so the three cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, lru_cache
from typing import Any
from uuid import UUID

from django.db import connection

from common.db import row_preparer
from games.eventstore.api import (
    APPENDED_FIRST_AT,
    APPENDED_LAST_AT,
    APPENDED_LAST_POSITION,
    WRITTEN_IF_APPENDED,
    FoldedEvent,
    WrittenWithAppend,
)
from games.matches.stream.events import CardCorrectedAfterRound, MatchEvent, match_event_from_stored
from games.matches.stream.state import MatchAggregate, MatchRound, ResultMark
from games.models import Match, Round

MATCH_STREAM = "match"
DECIDED_BY_DECIDING_ROUND = "deciding_round"
"""How a match level after its fixed rounds was won at its table (decision record 0045)."""

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
    return Match(**match_values(state, match_id=match_id, position=position))


def match_values(
    state: MatchAggregate, *, match_id: UUID, position: StreamPosition
) -> dict[str, Any]:
    """The match row's values by attribute name: what `match_row` is built from, and what the
    inline projection writes without building a model instance on the card path."""
    record = state.record
    deciding_round = state.deciding_round_of(record)
    regulation = state.regulation_points_of(record)
    return {
        "id": match_id,
        "table_size": state.table.size,
        "scoring": scoring_of(state),
        "best_of": state.setup.match_format.rounds,
        "sides": [dict(side) for side in state.setup.sides],
        "variant": state.setup.variant.to_dict(),
        "first_dealer": state.setup.first_dealer,
        "status": state.status_of(record),
        "round_wins": list(record.round_wins),
        "total_points": list(record.total_points),
        "winner": state.winner_of(record),
        "decider": state.setup.match_format.decider,
        "deciding_round_due": state.deciding_round_due_of(record),
        "deciding_round": deciding_round,
        "decided_by": None if deciding_round is None else DECIDED_BY_DECIDING_ROUND,
        "regulation_points": None if regulation is None else list(regulation),
        "forfeited_by": state.forfeited_by,
        "confirmed_by": sorted(state.confirmed_by),
        "disputed_by": sorted(state.disputed_by),
        "confirmations": [mark_of(mark) for mark in state.confirmations],
        "disputes": [dispute_of(mark) for mark in state.disputes],
        "version": position.version,
        "last_position": position.last_position,
        "created_at": position.created_at,
        "updated_at": position.updated_at,
    }


def mark_of(mark: ResultMark) -> dict[str, Any]:
    """A confirmation or a dispute as the match row keeps it (sides by index)."""
    result = mark.result
    return {
        "side": mark.side,
        "version": mark.version,
        "standing": mark.standing,
        "result": {
            "winner": result.winner,
            "forfeited_by": result.forfeited_by,
            "rounds": [
                {"number": number, "points": list(points)} for number, points in result.rounds
            ],
        },
    }


def dispute_of(mark: ResultMark) -> dict[str, Any]:
    """A dispute as the match row keeps it: a mark with its reason (decision record 0045)."""
    return {**mark_of(mark), "reason": mark.reason}


def round_row(match_round: MatchRound, *, match_id: UUID, replay_of: int | None) -> Round:
    return Round(**round_values(match_round, match_id=match_id, replay_of=replay_of))


def round_values(
    match_round: MatchRound, *, match_id: UUID, replay_of: int | None
) -> dict[str, Any]:
    """The round row's values by attribute name (see `match_values`)."""
    outcome = match_round.outcome
    return {
        "match_id": match_id,
        "number": match_round.number,
        "status": match_round.status,
        "dealer_seat": match_round.dealer,
        "leader_seat": match_round.leader,
        "briscola": None if match_round.briscola is None else match_round.briscola.code,
        "plays": [play.to_list() for play in match_round.plays],
        "points": [] if outcome is None else list(outcome.points),
        "points_entered": match_round.entered is not None,
        "result": None if outcome is None or match_round.voided else outcome.result,
        "replay_of": replay_of,
        "void_reason": match_round.void_reason,
        "ruling": ruling_of(match_round),
        "corrections": [correction_of(event) for event in match_round.corrections],
        "deck": deck_of(match_round),
    }


def ruling_of(match_round: MatchRound) -> dict[str, Any] | None:
    ruled = match_round.ruled
    if ruled is None:
        return None
    return {"points": list(ruled.points), "reason": match_round.ruling_reason}


def correction_of(event: CardCorrectedAfterRound) -> dict[str, Any]:
    """The organizer's correction of a finished round as the round row keeps it (0048)."""
    return {
        "play_index": event.play_index,
        "seat": event.seat,
        "card": event.card.code,
        "previous_card": event.previous_card.code,
        "swapped_with": event.swapped_with,
        "reason": event.reason,
    }


def deck_of(match_round: MatchRound) -> list[str] | None:
    cards = match_round.cards
    deck = None if cards is None else cards.setup.started.deck
    return None if deck is None else [card.code for card in deck]


def round_rows(state: MatchAggregate, *, match_id: UUID) -> list[Round]:
    return [Round(**values) for values in rounds_values(state, match_id=match_id)]


def rounds_values(state: MatchAggregate, *, match_id: UUID) -> list[dict[str, Any]]:
    """The values of every round row of the match (`round_values`)."""
    replay_of = state.replay_of
    return [
        round_values(match_round, match_id=match_id, replay_of=replay_of.get(match_round.number))
        for match_round in state.rounds
    ]


def match_written_with_append(
    match_id: UUID, previous: MatchAggregate | None, state: MatchAggregate, version: int
) -> WrittenWithAppend:
    """The match row and the round rows the command touched (all of them without `previous`),
    upserted by the append's own statement: one round trip for the events and their projection,
    no ORM compilation on the card path. The row's last position and times are the append's
    (the match command pipeline's `project_with_append` hook)."""
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
        round_values(match_round, match_id=match_id, replay_of=replay_of.get(match_round.number))
        for match_round in touched
    ]
    position = StreamPosition(version, 0, STAND_IN_TIME, STAND_IN_TIME)
    match = match_values(state, match_id=match_id, position=position)
    params = dict(zip(MATCH_PARAMETERS, prepared_match()(match), strict=True))
    for number, row in enumerate(rounds):
        names = (f"r{number}_{index}" for index in range(len(ROUND_COLUMNS)))
        params.update(zip(names, prepared_round()(row), strict=True))
    return WrittenWithAppend(ctes=projection_ctes(len(rounds)), params=params)


@cache
def prepared_match() -> Callable[[Mapping[str, Any]], list[Any]]:
    """The match row's parameters, but for the columns the append sets itself."""
    return row_preparer(
        [field for field in MATCH_COLUMNS if field.name not in SET_BY_THE_APPEND], connection
    )


@cache
def prepared_round() -> Callable[[Mapping[str, Any]], list[Any]]:
    return row_preparer(ROUND_COLUMNS, connection)


STAND_IN_TIME = datetime.fromtimestamp(0, tz=UTC)
"""Never written: the row's times are the append's (`SET_BY_THE_APPEND`)."""
MATCH_COLUMNS = list(Match._meta.concrete_fields)
ROUND_COLUMNS = [field for field in Round._meta.concrete_fields if not field.primary_key]
SET_BY_THE_APPEND = {
    "last_position": APPENDED_LAST_POSITION,
    "created_at": APPENDED_FIRST_AT,
    "updated_at": APPENDED_LAST_AT,
}
MATCH_PARAMETERS = [
    f"m{index}" for index, field in enumerate(MATCH_COLUMNS) if field.name not in SET_BY_THE_APPEND
]
"""The placeholders of the match row's values in `projection_ctes`, in the columns' order."""


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
        f'{ctes}, upserted_rounds AS (INSERT INTO "{Round._meta.db_table}" '  # noqa: S608 - constant table names; values are bound
        f"({column_list(ROUND_COLUMNS)}) SELECT * FROM (VALUES {rows}) AS touched "
        f"WHERE {WRITTEN_IF_APPENDED} {conflict})"
    )


def match_event(event: FoldedEvent) -> MatchEvent:
    return match_event_from_stored(event.event_type, event.payload)
