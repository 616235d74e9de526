"""A whole tournament as a JSON Lines archive, and the archive imported on another instance.

The archive is the tournament's log and its names, nothing derived: every event of the
tournament's stream and of its matches' streams as stored (payload at its recorded schema,
metadata, `recorded_at`), in global order, their idempotency keys, and the name rows the events
refer to by id (decision 0018): the tournament, its entrants, their players, and the named sides
of its matches if any. Importing inserts the same streams (same ids, versions, payloads,
metadata and times, in the same order) and writes the name rows; the caller then rebuilds the
projections, after which the API answers about the tournament as the source did
(docs/decisions/0030-exports-and-archives.md).

One JSON object per line, each with its `kind`: first `archive` (format, version, counts), then
`tournament`, `player`, `entrant` (its players' ids by seat), `side`, `event` and
`idempotency_key` lines. Entrant and player ids are kept: events refer to them. Accounts
(users, clubs, roles, device tokens) belong to each instance and are not carried: a player's
account link is dropped, and the tournament joins the club of the same slug on the other
instance if there is one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from accounts.models import Club
from common.explained import Explained
from games.eventstore.api import (
    StoredEvent,
    StoredKey,
    StreamsExist,
    insert_stored,
    read_stored_events,
    read_stored_keys,
    read_stream,
)
from games.models import MatchSide
from tournaments.models import Entrant, EntrantPlayer, Player, Tournament
from tournaments.selectors.lookup import check_tournament_exists
from tournaments.stream.events import EntrantCorrected, TournamentEvent, tournament_event
from tournaments.stream.fixture_events import FixtureCreated

FORMAT = "briscola-tournament-archive"
VERSION = 1


class ArchiveRefused(Explained):
    """The archive cannot be imported here; nothing was written."""

    code = "archive_refused"


# Exporting.


def tournament_stream_ids(tournament_id: UUID, events: Iterable[TournamentEvent]) -> list[UUID]:
    """The tournament's stream and every match stream its events name (replaced ones too)."""
    matches: dict[UUID, None] = {}
    for event in events:
        if isinstance(event, FixtureCreated):
            matches.setdefault(UUID(event.match_id), None)
    return [tournament_id, *matches]


def corrected_players(events: Iterable[TournamentEvent]) -> set[int]:
    """The players an entrant correction seated, those replaced later too."""
    return {
        player
        for event in events
        if isinstance(event, EntrantCorrected)
        for player in event.players or ()
    }


def moment(value: datetime) -> str:
    return value.isoformat()


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Every read inside sees the database at one moment: a match created while the archive is
    read is in it with its stream, or not at all. Inside a caller's transaction, the caller's
    isolation holds (REPEATABLE READ can only be chosen before a transaction's first read)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def tournament_archive_lines(*, tournament_id: UUID) -> Iterator[str]:
    """The archive, line by line (each ends with a newline). Two exports of a tournament that
    did not change are the same text."""
    with one_snapshot():
        documents = archive_documents(tournament_id)
    for document in documents:
        yield json.dumps(document, ensure_ascii=False, sort_keys=True) + "\n"


def archive_documents(tournament_id: UUID) -> list[dict[str, Any]]:
    check_tournament_exists(tournament_id)
    tournament = Tournament.objects.select_related("club").get(id=tournament_id)
    tournament_events = [tournament_event(e) for e in read_stream(stream_id=tournament_id)]
    stream_ids = tournament_stream_ids(tournament_id, tournament_events)
    entrants = list(Entrant.objects.filter(tournament_id=tournament_id).order_by("id"))
    seats: dict[int, list[dict[str, int]]] = {}
    for entrant_id, player_id, position in (
        EntrantPlayer.objects.filter(entrant__tournament_id=tournament_id)
        .order_by("entrant_id", "position")
        .values_list("entrant_id", "player_id", "position")
    ):
        seats.setdefault(entrant_id, []).append({"position": position, "player": player_id})
    events = read_stored_events(stream_ids=stream_ids)
    # The players seated now, and those an entrant correction seated once and replaced later:
    # the events refer to them by id.
    player_ids = {seat["player"] for taken in seats.values() for seat in taken}
    player_ids.update(corrected_players(tournament_events))
    players = list(Player.objects.filter(id__in=player_ids).order_by("id"))
    sides = list(MatchSide.objects.filter(match_id__in=stream_ids[1:]).order_by("match_id", "side"))
    keys = read_stored_keys(stream_ids=stream_ids)
    lines: list[dict[str, Any]] = [
        {
            "kind": "archive",
            "format": FORMAT,
            "version": VERSION,
            "tournament": str(tournament_id),
            "streams": len(stream_ids),
            "events": len(events),
        },
        {
            "kind": "tournament",
            "id": str(tournament.id),
            "name": tournament.name,
            "public": tournament.public,
            "club": tournament.club.slug if tournament.club else None,
            "created_at": moment(tournament.created_at),
        },
        *(
            {"kind": "player", "id": player.id, "name": player.name, "erased": player.erased}
            for player in players
        ),
        *(
            {
                "kind": "entrant",
                "id": entrant.id,
                "name": entrant.name,
                "registered_at": moment(entrant.registered_at),
                "players": seats.get(entrant.id, []),
            }
            for entrant in entrants
        ),
        *(
            {"kind": "side", "match_id": str(side.match_id), "side": side.side, "name": side.name}
            for side in sides
        ),
        *(
            {
                "kind": "event",
                "global_position": event.global_position,
                "stream_id": str(event.stream_id),
                "stream_type": event.stream_type,
                "stream_version": event.stream_version,
                "event_type": event.event_type,
                "schema_version": event.schema_version,
                "payload": event.payload,
                "metadata": event.metadata,
                "recorded_at": moment(event.recorded_at),
            }
            for event in events
        ),
        *(
            {
                "kind": "idempotency_key",
                "stream_id": str(key.stream_id),
                "key": key.key,
                "command_fingerprint": key.command_fingerprint,
                "first_version": key.first_version,
                "last_version": key.last_version,
                "recorded_at": moment(key.recorded_at),
            }
            for key in keys
        ),
    ]
    return lines


# Importing.


@dataclass(frozen=True)
class Archive:
    header: dict[str, Any]
    tournament: dict[str, Any]
    players: list[dict[str, Any]]
    entrants: list[dict[str, Any]]
    sides: list[dict[str, Any]]
    events: list[StoredEvent]
    keys: list[StoredKey]

    @property
    def tournament_id(self) -> UUID:
        return UUID(self.tournament["id"])


def archive_read(lines: Iterable[str]) -> Archive:
    """The archive's lines parsed and checked (ArchiveRefused: what is wrong, and where)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            document = json.loads(line)
            kind = document["kind"]
        except (ValueError, TypeError, KeyError):
            raise ArchiveRefused.because(
                gettext_noop("line %(line)s is not an archive line (JSON with a `kind`)"),
                line=number,
            ) from None
        found.setdefault(kind, []).append(document)
    headers = found.get("archive", [])
    if len(headers) != 1 or headers[0].get("format") != FORMAT:
        raise ArchiveRefused.because(
            gettext_noop("this is not a tournament archive (no `archive` line)")
        )
    header = headers[0]
    if header.get("version") != VERSION:
        raise ArchiveRefused.because(
            gettext_noop("archive version %(version)s is not known here (only %(known)s)"),
            version=header.get("version"),
            known=VERSION,
        )
    tournament = next(iter(found.get("tournament", [])), {})
    try:
        events = [
            StoredEvent(
                stream_id=UUID(e["stream_id"]),
                stream_type=e["stream_type"],
                stream_version=e["stream_version"],
                event_type=e["event_type"],
                schema_version=e["schema_version"],
                payload=e["payload"],
                metadata=e["metadata"],
                recorded_at=datetime.fromisoformat(e["recorded_at"]),
                global_position=e.get("global_position"),
            )
            for e in found.get("event", [])
        ]
        keys = [
            StoredKey(
                stream_id=UUID(k["stream_id"]),
                key=k["key"],
                command_fingerprint=k["command_fingerprint"],
                first_version=k["first_version"],
                last_version=k["last_version"],
                recorded_at=datetime.fromisoformat(k["recorded_at"]),
            )
            for k in found.get("idempotency_key", [])
        ]
        archive = Archive(
            header=header,
            tournament=tournament,
            players=found.get("player", []),
            entrants=found.get("entrant", []),
            sides=found.get("side", []),
            events=events,
            keys=keys,
        )
        archive_id = archive.tournament_id
    except (KeyError, ValueError, TypeError) as error:
        raise ArchiveRefused.because(
            gettext_noop("the archive is incomplete or damaged: %(error)s"), error=repr(error)
        ) from None
    if str(archive_id) != header.get("tournament") or len(events) != header.get("events"):
        raise ArchiveRefused.because(
            gettext_noop(
                "the archive is incomplete: its header announces %(announced)s events of "
                "tournament %(tournament)s, it holds %(held)s"
            ),
            announced=header.get("events"),
            tournament=header.get("tournament"),
            held=len(events),
        )
    return archive


@dataclass(frozen=True)
class ImportedArchive:
    tournament_id: UUID
    events: int
    streams: int
    entrants: int
    players: int
    club: str | None


TAKEN_IDS = {
    "entrant": gettext_noop(
        "entrant ids %(ids)s are used here by another tournament (the events refer "
        "to entrants by id): nothing imported"
    ),
    "player": gettext_noop(
        "player ids %(ids)s are used here already (the events refer to players by "
        "id): nothing imported"
    ),
}
"""Why an import is refused when some of its entrant or player ids are taken here."""


def refuse_taken_ids(kind: str, rows: QuerySet[Entrant] | QuerySet[Player]) -> None:
    """Refuse the import when any of the archive's ids of this `kind` is taken here."""
    taken = sorted(rows.values_list("id", flat=True))
    if taken:
        raise ArchiveRefused.because(TAKEN_IDS[kind], ids=", ".join(map(str, taken)))


def tournament_archive_import(
    *, archive: Archive, on_event: Callable[[], None] | None = None
) -> ImportedArchive:
    """Append the archive's events (same streams, versions, payloads, metadata and times, in
    the archive's order) and write its name rows, all in one transaction; refused, with nothing
    written, when the tournament, one of its streams or one of its entrant ids exists here.
    The projections are not rebuilt here: `manage.py import_tournament` runs the rebuild.
    `archive`: from `archive_read`."""
    tournament_id = archive.tournament_id
    with transaction.atomic():
        if Tournament.objects.filter(id=tournament_id).exists():
            raise ArchiveRefused.because(
                gettext_noop("tournament %(tournament)s exists here already: nothing imported"),
                tournament=tournament_id,
            )
        refuse_taken_ids(
            "entrant", Entrant.objects.filter(id__in=[row["id"] for row in archive.entrants])
        )
        refuse_taken_ids(
            "player", Player.objects.filter(id__in=[row["id"] for row in archive.players])
        )
        club_slug = archive.tournament.get("club")
        club = Club.objects.filter(slug=club_slug).first() if club_slug else None
        created_at = datetime.fromisoformat(archive.tournament["created_at"])
        # The derived columns are placeholders until the rebuild refills them from the log.
        Tournament.objects.create(
            id=tournament_id,
            name=archive.tournament["name"],
            public=archive.tournament.get("public", True),
            club=club,
            format="",
            table_size=0,
            settings={},
            created_at=created_at,
            updated_at=created_at,
        )
        Player.objects.bulk_create(
            Player(id=player["id"], name=player["name"], erased=player["erased"])
            for player in archive.players
        )
        for entrant in archive.entrants:
            row = Entrant.objects.create(
                id=entrant["id"],
                tournament_id=tournament_id,
                name=entrant["name"],
                registered_at=datetime.fromisoformat(entrant["registered_at"]),
            )
            EntrantPlayer.objects.bulk_create(
                EntrantPlayer(entrant=row, player_id=seat["player"], position=seat["position"])
                for seat in entrant["players"]
            )
        MatchSide.objects.bulk_create(
            MatchSide(match_id=UUID(side["match_id"]), side=side["side"], name=side["name"])
            for side in archive.sides
        )
        # Ids were given, not drawn: the next registration here must not reuse one.
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), [Entrant, Player]):
                cursor.execute(statement)
        try:
            insert_stored(events=archive.events, keys=archive.keys, on_event=on_event)
        except StreamsExist as exists:
            raise ArchiveRefused.because(
                gettext_noop("streams %(streams)s exist here already: nothing imported"),
                streams=", ".join(sorted(map(str, exists.stream_ids))),
            ) from None
        except ValueError as error:
            raise ArchiveRefused.because(
                gettext_noop("the archive's events are out of order: %(error)s"), error=str(error)
            ) from None
    return ImportedArchive(
        tournament_id=tournament_id,
        events=len(archive.events),
        streams=len({event.stream_id for event in archive.events}),
        entrants=len(archive.entrants),
        players=len(archive.players),
        club=club.slug if club else None,
    )
