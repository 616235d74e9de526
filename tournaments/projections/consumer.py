"""Asynchronous tournament projections: the bracket and standings readers see.

A consumer reads the global log after its checkpoint. For each match event of a tournament's
match it runs the tournament's policy (`tournaments.policies.matches.match_moved`: the result
recorded, the tournament advanced, the fixture's row following its match); for each touched
tournament it recomputes the view from the tournament stream and the rows. Both steps are
idempotent, so reading an event twice is harmless, and `rebuild_views` can drop and refill every
view from the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from django.db import transaction
from django.db.models import OuterRef, Subquery

from common.db import copy_rows
from games.eventstore.api import RecordedEvent, last_position, read_all
from games.matches.projections import MATCH_STREAM
from games.models import Match, MatchStatus
from tournaments.formats.bracket import Bracket, Known, WinnerOf
from tournaments.formats.resolution import BracketState
from tournaments.formats.threes_knockout import KnockoutTable, TableStatus, ThreesKnockoutState
from tournaments.models import Checkpoint, Fixture, FixtureStatus, Tournament, TournamentView
from tournaments.plan import drawing, fixture_specs, silence
from tournaments.policies import matches as match_policies
from tournaments.projections.folded_log import TournamentLog, fold_tournament_log
from tournaments.services.pipeline import TOURNAMENT_STREAM, load_tournament
from tournaments.state import Result, TournamentState

CONSUMER = "tournaments"
BATCH = 500


# The view of one tournament.


@dataclass(frozen=True, slots=True)
class FixtureRow:
    """What the view shows of a live fixture's row, with its match's status (None before the
    match's projection has a row)."""

    match_id: UUID
    table: int | None
    scheduled_at: datetime | None
    decided_by: str | None
    match_status: str | None


def fixture_rows(tournament_id: UUID) -> dict[str, FixtureRow]:
    """The live (not reset) fixture rows by key, each with its match's status: one query."""
    rows = (
        Fixture.objects.filter(tournament_id=tournament_id)
        .exclude(status=FixtureStatus.RESET)
        .annotate(
            match_status=Subquery(Match.objects.filter(id=OuterRef("match_id")).values("status"))
        )
        .values_list("key", "match_id", "table", "scheduled_at", "decided_by", "match_status")
    )
    return {key: FixtureRow(*fields) for key, *fields in rows}


def fixture_view(
    key: str,
    entrants: list[int | None],
    winner: int | None,
    row: FixtureRow | None,
    status: str,
) -> dict[str, Any]:
    return {
        "key": key,
        "match_id": None if row is None else str(row.match_id),
        "entrants": entrants,
        "status": status,
        "winner": winner,
        "table": None if row is None else row.table,
        "scheduled_at": None
        if row is None or row.scheduled_at is None
        else row.scheduled_at.isoformat(),
        "decided_by": None if row is None else row.decided_by,
    }


def status_of(row: FixtureRow | None, resolved: str) -> str:
    """`finished`/`in_progress`/`ready` from the match when there is one, else the bracket's."""
    if row is None:
        return resolved
    match_status = row.match_status or MatchStatus.NOT_STARTED
    return FixtureStatus.READY if match_status == MatchStatus.NOT_STARTED else match_status


def bracket_rounds(
    bracket: Bracket,
    resolved: BracketState,
    rows: dict[str, FixtureRow],
) -> list[dict[str, Any]]:
    rounds = []
    for round_ in bracket.rounds:
        views = []
        for slot_id in round_.slot_ids:
            slot, state = bracket.slot(slot_id), resolved.slot(slot_id)
            sides = [s if isinstance(s, int) else None for s in (state.home, state.away)]
            view = fixture_view(
                slot_id,
                sides,
                state.winner,
                rows.get(slot_id),
                status_of(rows.get(slot_id), state.status.value),
            )
            view["winner_to"] = advance_view(slot.winner_to)
            view["loser_to"] = advance_view(slot.loser_to)
            views.append(view)
        rounds.append(
            {"number": round_.number, "section": round_.section.name.lower(), "matches": views}
        )
    return rounds


def advance_view(advance: Any) -> dict[str, str] | None:
    return None if advance is None else {"key": advance.slot, "side": advance.side}


def league_rounds(
    state: TournamentState,
    stage: fixture_specs.Stage,
    rows: dict[str, FixtureRow],
) -> list[dict[str, Any]]:
    by_round: dict[int, list[dict[str, Any]]] = {}
    for fixture in stage.fixtures:
        result = state.results.get(fixture.id)
        row = rows.get(fixture.id)
        by_round.setdefault(fixture.round, []).append(
            fixture_view(
                fixture.id,
                list(fixture.entrants),
                None if result is None else result.winner,
                row,
                status_of(row, "finished" if result else "pending"),
            )
            | {"winner_to": None, "loser_to": None}
            | places_view(result)
        )
    byes = dict(stage.byes)
    return [
        {"number": number, "section": stage.name, "matches": views, "bye": byes.get(number)}
        for number, views in sorted(by_round.items())
    ]


def places_view(result: Result | None) -> dict[str, Any]:
    """At tables of three: each entrant's place, once there is a result."""
    if result is None or result.places is None:
        return {}
    return {"places": list(result.places)}


def threes_rounds(
    state: TournamentState,
    stage: fixture_specs.Stage,
    rows: dict[str, FixtureRow],
) -> list[dict[str, Any]]:
    """A knockout in tables of three: per round its tables, each with the (two or three)
    entrants known so far, and where its winner goes."""
    knockout, resolved = stage.threes, stage.threes_state
    if knockout is None or resolved is None:
        raise RuntimeError("a threes stage has its knockout and its state")
    rounds = []
    for number, tables in enumerate(knockout.rounds, start=1):
        views = []
        for table in tables:
            seated = resolved.tables[table.id]
            row = rows.get(table.id)
            result = state.results.get(table.id)
            views.append(
                fixture_view(
                    table.id,
                    threes_seats(table, resolved),
                    seated.winner,
                    row,
                    status_of(row, seated.status.value),
                )
                | {
                    "winner_to": None
                    if table.feeds is None
                    else {"key": table.feeds, "side": "seat"},
                    "loser_to": None,
                }
                | places_view(result)
            )
        rounds.append({"number": number, "section": fixture_specs.KNOCKOUT, "matches": views})
    return rounds


def threes_seats(table: KnockoutTable, resolved: ThreesKnockoutState) -> list[int | None]:
    """Who sits at a knockout table of three as far as it is known: an entrant, or None for
    the winner of a table not decided yet; byes and empty tables take no seat."""
    seats: list[int | None] = []
    for source in table.sources:
        if isinstance(source, Known):
            seats.append(source.entrant)
        elif isinstance(source, WinnerOf):
            feeder = resolved.tables[source.slot]
            if feeder.status is not TableStatus.EMPTY:
                seats.append(feeder.winner)
    return seats


def build_view(
    state: TournamentState, tournament_id: UUID, rows: dict[str, FixtureRow] | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """The bracket document and the standings rows of a tournament, by entrant ids: names are
    added when read (`tournaments.selectors`), so an erasure needs no new projection. `rows`:
    the tournament's `fixture_rows`, when the caller has them."""
    rows = fixture_rows(tournament_id) if rows is None else rows
    drawn = drawing.stages(state)
    return bracket_document(state, drawn, rows), standings_rows(state, drawn)


def bracket_document(
    state: TournamentState, drawn: Sequence[fixture_specs.Stage], rows: dict[str, FixtureRow]
) -> dict[str, Any]:
    """The bracket of the stages drawn: each stage's rounds and the placements known."""
    stages = []
    placements: list[dict[str, int]] = []
    for stage in drawn:
        if stage.bracket is not None and stage.bracket_state is not None:
            rounds = bracket_rounds(stage.bracket, stage.bracket_state, rows)
            placements = [
                {"entrant": p.entrant, "place": p.place} for p in stage.bracket_state.placements
            ]
            kind = stage.bracket.kind.value
        elif stage.threes is not None:
            rounds = threes_rounds(state, stage, rows)
            placements = [
                {"entrant": entrant, "place": place}
                for entrant, place in drawing.threes_placements(state, stage)
            ]
            kind = "threes_knockout"
        else:
            rounds = league_rounds(state, stage, rows)
            kind = state.settings.format if stage.name in ("league", "swiss") else "group"
            if stage.playoff_of is not None:
                kind = "playoff"
        stages.append(
            {"name": stage.name, "kind": kind, "complete": stage.complete, "rounds": rounds}
        )
    return {
        "format": state.settings.format,
        "status": state.status,
        "stages": stages,
        "placements": placements,
    }


def standings_rows(state: TournamentState, drawn: Sequence[fixture_specs.Stage]) -> list[Any]:
    """The overall standings of the stages drawn (none before the start)."""
    standings = (
        [row.to_dict() for row in drawing.overall_standings(state, drawn)] if state.started else []
    )
    sat_out = drawing.swiss_sit_outs(state)
    for row in standings:
        # The rounds drawn without the entrant (decision record 0058), only when there are.
        if row["entrant"] in sat_out:
            row["sat_out"] = [
                {"round": number, "kind": kind} for number, kind in sat_out[row["entrant"]]
            ]
    return standings


def build_public_view(
    state: TournamentState, tournament_id: UUID, rows: dict[str, FixtureRow] | None = None
) -> dict[str, Any] | None:
    """While the last rounds are silent (decision record 0060): what the public reads, the
    standings after the last open round and the bracket without the silent results; None when
    nothing is hidden. Each is computed once, from the stages as the public sees them."""
    public = silence.as_public_sees(state)
    from_round = silence.silent_from_round(state)
    if public is None or from_round is None:
        return None
    rows = fixture_rows(tournament_id) if rows is None else rows
    bracket = bracket_document(public, drawing.stages(public), rows)
    before_silence = silence.standings_state(public, from_round)
    standings = standings_rows(before_silence, drawing.stages(before_silence))
    return {"after_round": from_round - 1, "standings": standings, "bracket": bracket}


def tournament_view(tournament_id: UUID, *, position: int) -> TournamentView:
    """The tournament's view as the log and the rows have it now (not saved)."""
    state, _ = load_tournament(tournament_id=tournament_id)
    return view_of(state, tournament_id, position=position)


def view_of(
    state: TournamentState,
    tournament_id: UUID,
    *,
    position: int,
    rows: dict[str, FixtureRow] | None = None,
    inputs: str = "",
) -> TournamentView:
    """The view of the tournament in `state` (not saved): its fixture rows read once (unless
    given), `inputs` the digest of both when the caller made it (`view_inputs`)."""
    rows = fixture_rows(tournament_id) if rows is None else rows
    bracket, standings = build_view(state, tournament_id, rows)
    return TournamentView(
        tournament_id=tournament_id,
        bracket=bracket,
        standings=standings,
        position=position,
        public=build_public_view(state, tournament_id, rows),
        inputs=inputs,
    )


def view_inputs(version: int, rows: dict[str, FixtureRow]) -> str:
    """A digest of everything a tournament's view is computed from: its stream's version (the
    state) and its live fixture rows with their matches' statuses."""
    seen = repr((version, sorted(rows.items()))).encode()
    return hashlib.blake2b(seen, digest_size=16).hexdigest()


def project_tournament(tournament_id: UUID, *, position: int) -> None:
    """The tournament's view brought up to `position`: computed again only when what it is
    computed from moved. A card within a round moves neither the tournament's stream nor a
    fixture row, so at a championship's 70 cards a second the consumer does not compute the
    standings of every entrant 70 times a second (decision record 0068)."""
    state, version = load_tournament(tournament_id=tournament_id)
    rows = fixture_rows(tournament_id)
    inputs = view_inputs(version, rows)
    same = TournamentView.objects.filter(tournament_id=tournament_id, inputs=inputs)
    if same.update(position=position):
        return
    view = view_of(state, tournament_id, position=position, rows=rows, inputs=inputs)
    TournamentView.objects.update_or_create(
        tournament_id=tournament_id,
        defaults={
            "bracket": view.bracket,
            "standings": view.standings,
            "position": position,
            "public": view.public,
            "inputs": inputs,
        },
    )


# The consumer.


def tournaments_touched(events: Iterable[RecordedEvent]) -> tuple[set[UUID], list[UUID]]:
    """The tournaments whose streams moved, and the tournament matches that moved (in order)."""
    tournaments: set[UUID] = set()
    matches: list[UUID] = []
    for recorded in events:
        if recorded.stream_type == TOURNAMENT_STREAM:
            tournaments.add(recorded.stream_id)
        elif recorded.stream_type == MATCH_STREAM and recorded.stream_id not in matches:
            matches.append(recorded.stream_id)
    owners = dict(
        Fixture.objects.filter(match_id__in=matches).values_list("match_id", "tournament_id")
    )
    tournaments.update(owners.values())
    return tournaments, [match for match in matches if match in owners]


def consume(*, batch: int = BATCH) -> int:
    """Process the log after the checkpoint, one batch at a time; returns events processed.

    Each match's result is synced, and each view projected, in a transaction of its own: a
    batch touching two tournaments never holds one's locks while waiting for the other's (the
    services lock a tournament row before they append, and an append holds the log's lock until
    commit). Every step is idempotent, so a batch cut short is simply done again; the checkpoint
    only moves forward.
    """
    processed = 0
    while True:
        checkpoint, _ = Checkpoint.objects.get_or_create(name=CONSUMER)
        events = read_all(
            after=checkpoint.position,
            limit=batch,
            stream_types=[TOURNAMENT_STREAM, MATCH_STREAM],
        )
        if not events:
            return processed
        tournaments, matches = tournaments_touched(events)
        for match_id in matches:
            match_policies.match_moved(match_id=match_id)
        position = events[-1].global_position
        for tournament_id in tournaments:
            with transaction.atomic():
                project_tournament(tournament_id, position=position)
        Checkpoint.objects.filter(name=CONSUMER, position__lt=position).update(position=position)
        processed += len(events)


def rebuild_views(log: TournamentLog | None = None) -> int:
    """Drop every tournament view and recompute it from the tournament streams (`log`, folded
    once for the whole rebuild, or a fold made now). The checkpoint stays: match results the
    consumer has not read yet are still recorded by its next run."""
    log = fold_tournament_log() if log is None else log
    with transaction.atomic():
        TournamentView.objects.all().delete()
        ids = list(Tournament.objects.values_list("id", flat=True))
        copy_rows(TournamentView, [folded_view(log, t) for t in ids])
    return len(ids)


def folded_view(log: TournamentLog, tournament_id: UUID) -> TournamentView:
    """The tournament's view from the shared fold, at its head (a tournament the fold does not
    know is loaded as `tournament_view` loads it)."""
    found = log.tournaments.get(tournament_id)
    view = (
        tournament_view(tournament_id, position=log.head)
        if found is None
        else view_of(found.state, tournament_id, position=log.head)
    )
    view.inputs = uuid4().hex  # a revision of its own: the pages' ETag moves with every rebuild
    return view


def verify_views() -> list[str]:
    """Recompute every view in memory and report those that differ from the stored one."""
    differences = []
    for view in TournamentView.objects.all():
        state, _ = load_tournament(tournament_id=view.tournament_id)
        rows = fixture_rows(view.tournament_id)
        bracket, standings = build_view(state, view.tournament_id, rows)
        if bracket != view.bracket:
            differences.append(f"tournament {view.tournament_id}: the bracket differs")
        if standings != view.standings:
            differences.append(f"tournament {view.tournament_id}: the standings differ")
        if build_public_view(state, view.tournament_id, rows) != view.public:
            differences.append(f"tournament {view.tournament_id}: the public view differs")
    missing = Tournament.objects.filter(view__isnull=True).values_list("id", flat=True)
    differences.extend(f"tournament {t}: no view" for t in missing)
    return differences


# The consumer's health.


@dataclass(frozen=True, slots=True)
class ConsumerLag:
    """How far the consumer trails the log: events not yet read, and how long the oldest of them
    has waited (0 when it is up to date)."""

    head: int
    checkpoint: int
    seconds: float

    @property
    def events(self) -> int:
        return self.head - self.checkpoint


def consumer_lag(*, now: datetime) -> ConsumerLag:
    checkpoint = (
        Checkpoint.objects.filter(name=CONSUMER).values_list("position", flat=True).first() or 0
    )
    head = last_position()
    oldest = read_all(after=checkpoint, limit=1, stream_types=[TOURNAMENT_STREAM, MATCH_STREAM])
    seconds = (now - oldest[0].recorded_at).total_seconds() if oldest else 0.0
    return ConsumerLag(head=head, checkpoint=checkpoint, seconds=max(seconds, 0.0))
