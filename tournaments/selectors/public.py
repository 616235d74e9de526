"""The public pages: what a spectator follows, and when it last changed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import Q

from common.db import server_bound_cursor
from games.eventstore.api import last_position_of_streams
from games.models import Match
from tournaments.models import (
    Checkpoint,
    Entrant,
    EntrantPlayer,
    Fixture,
    FixtureStatus,
    Player,
    Season,
    SeasonTournament,
    Tournament,
    TournamentView,
)
from tournaments.projections.consumer import CONSUMER
from tournaments.selectors import silence
from tournaments.selectors.fixtures import (
    tournament_fixtures,
)
from tournaments.selectors.lookup import (
    visible_tournaments,
)
from tournaments.selectors.people import rows_of_person
from tournaments.selectors.projected import (
    entrant_names,
)
from tournaments.services.erasure import ERASED_PLAYER


def tournament_log_position(*, tournament_id: UUID) -> tuple[int, bool]:
    """How far the log has moved for this tournament: the last global position of its stream
    and of its matches' streams, and whether the tournament consumer has read up to it (after
    which the fixtures' statuses, the standings and the bracket reflect every one of those
    events). Two reads with the same answer show the same tournament."""
    match_ids = Fixture.objects.filter(tournament_id=tournament_id).values_list(
        "match_id", flat=True
    )
    consumed = Checkpoint.objects.filter(name=CONSUMER).values_list("position", flat=True).first()
    return log_position(tournament_id, match_ids, consumed)


def log_position(
    tournament_id: UUID, match_ids: Iterable[UUID], consumed: int | None
) -> tuple[int, bool]:
    """The last position of the tournament's stream and its matches', and whether the
    consumer's checkpoint (`consumed`, None before its first run) has reached it."""
    position = last_position_of_streams(stream_ids=[tournament_id, *match_ids])
    return position, (consumed or 0) >= position


_SHOWN_STATE = f"""
    SELECT t.version, t.names_signature,
        (SELECT md5(coalesce(string_agg(concat_ws('|', f.key, f.status, f."table",
                f.scheduled_at, f.called_at, f.deadline, f.decided_by, f.winner_id, f.places,
                f.home_id, f.away_id, f.third_id, m.status, m.round_wins), ',' ORDER BY f.key), ''))
         FROM {Fixture._meta.db_table} f LEFT JOIN {Match._meta.db_table} m ON m.id = f.match_id
         WHERE f.tournament_id = t.id),
        (SELECT v.inputs FROM {TournamentView._meta.db_table} v WHERE v.tournament_id = t.id),
        (SELECT string_agg(concat_ws('|', st.season_id, season.slug, season.name), ','
                           ORDER BY st.season_id)
         FROM {SeasonTournament._meta.db_table} st
         JOIN {Season._meta.db_table} season ON season.id = st.season_id
         WHERE st.tournament_id = t.id),
        ARRAY(SELECT f.match_id FROM {Fixture._meta.db_table} f WHERE f.tournament_id = t.id),
        (SELECT c.position FROM {Checkpoint._meta.db_table} c WHERE c.name = %(consumer)s)
    FROM {Tournament._meta.db_table} t
    WHERE t.id = %(tournament)s
"""  # noqa: S608 - constant table names; values are bound


def tournament_read_state(*, tournament_id: UUID) -> str:
    """Changes whenever what the tournament's pages show could, and only then: the tournament
    stream's version (its events, its rows), the names these pages show (`names_signature`,
    drawn anew by every service that writes one, an erasure included), its fixture rows and
    their matches' statuses and round wins, its view's standings and bracket (the digest each
    write of the view leaves, `TournamentView.inputs`, not its half megabyte of JSON), the seasons
    counting it (the page links to each: configuration, no event), and whether the consumer
    has read every event of it and of its matches. A card played within a round changes none of
    them, so a projector's refresh between two rounds' ends answers 304 (issue 25). The pages
    use it as their ETag: every poll runs it, so it is one prepared statement, and the log's
    position one probe a stream (decision 0068)."""
    with server_bound_cursor() as cursor:  # run by every poll: prepared per connection
        cursor.execute(_SHOWN_STATE, {"tournament": tournament_id, "consumer": CONSUMER})
        row = cursor.fetchone()
    if row is None:
        return "shown-0-none"
    *shown, match_ids, consumed = row
    _position, caught_up = log_position(tournament_id, match_ids, consumed)
    seen = hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()
    return f"shown-{int(caught_up)}-{seen}"


_PROJECTED_STATE = f"""
    SELECT t.version, coalesce(v.position, 0), t.names_signature,
        CASE WHEN %(now)s::timestamptz IS NULL THEN 0 ELSE
            (SELECT count(*) FROM {Fixture._meta.db_table} f
             WHERE f.tournament_id = t.id AND f.status = 'ready' AND f.deadline <= %(now)s)
        END
    FROM {Tournament._meta.db_table} t
    LEFT JOIN {TournamentView._meta.db_table} v ON v.tournament_id = t.id
    WHERE t.id = %(tournament)s
"""  # noqa: S608 - constant table names; values are bound


def tournament_projected_state(*, tournament_id: UUID, now: datetime | None = None) -> str:
    """Changes whenever the API's tournament reads could (the standings, the bracket, the
    match list), in one query of index lookups: the tournament stream's version (its rows, the
    fixtures included, change in the same transaction as its events), the log position the
    consumer last folded into its view (the match results, the fixture rows following their
    matches, the standings and the bracket), its names signature (drawn anew by every service
    that changes a name these reads show, an erasure included, which appends no event:
    `tournaments.services.names.names_changed`), and with `now` the matches overdue then. Unlike
    `tournament_read_state` it does not move with a card played: these reads show nothing of a
    match until the consumer has read it. A tournament that does not exist reads `none`."""
    with server_bound_cursor() as cursor:  # run by every poll: prepared per connection
        cursor.execute(_PROJECTED_STATE, {"tournament": tournament_id, "now": now})
        row = cursor.fetchone()
    if row is None:
        return "none"
    version, position, names, overdue = row
    return f"{version}.{position}.{names.hex}" + ("" if now is None else f".o{overdue}")


def entrant_players(*, tournament_id: UUID) -> dict[int, list[Player]]:
    """Each entrant's players in seat order (an erased player reads `erased player`)."""
    players: dict[int, list[Player]] = {}
    memberships = EntrantPlayer.objects.filter(entrant__tournament_id=tournament_id)
    for membership in memberships.select_related("player").order_by("entrant_id", "position"):
        players.setdefault(membership.entrant_id, []).append(membership.player)
    return players


def entrant_player_names(*, tournament_id: UUID) -> dict[int, list[str]]:
    """Each entrant's players' names in seat order, as `entrant_players` reads them (`erased
    player` for an erased one), without a model instance per player."""
    names: dict[int, list[str]] = {}
    memberships = EntrantPlayer.objects.filter(entrant__tournament_id=tournament_id)
    seated = memberships.order_by("entrant_id", "position").values_list(
        "entrant_id", "player__name", "player__erased"
    )
    for entrant, name, erased in seated:
        names.setdefault(entrant, []).append(ERASED_PLAYER if erased else name)
    return names


def match_scores(match_ids: Iterable[UUID]) -> dict[UUID, dict[str, Any]]:
    """The round wins and card points of each match, as its projection has them."""
    rows = Match.objects.filter(id__in=list(match_ids)).values(
        "id", "status", "round_wins", "total_points"
    )
    return {row["id"]: dict(row) for row in rows}


def tournament_fixtures_named(*, tournament_id: UUID) -> list[dict[str, Any]]:
    """The tournament's live matches (not reset), by stage and round, with each side's entrant,
    name and players, and each match's round wins."""
    fixtures = tournament_fixtures(tournament_id=tournament_id)
    names = entrant_names(tournament_id=tournament_id)
    players = entrant_players(tournament_id=tournament_id)
    scores = match_scores(fixture.match_id for fixture in fixtures)
    rows: list[dict[str, Any]] = []
    for fixture in fixtures:
        score = scores.get(fixture.match_id)
        rows.append(
            {
                "match_id": fixture.match_id,
                "key": fixture.key,
                "stage": fixture.stage,
                "round": fixture.round,
                "status": fixture.status,
                "table": fixture.table,
                "scheduled_at": fixture.scheduled_at,
                "entrants": fixture.entrant_ids,
                "sides": [
                    {"entrant": e, "name": names.get(e, ""), "players": players.get(e, [])}
                    for e in fixture.entrant_ids
                ],
                "places": fixture.places,
                "winner": fixture.winner_id,
                "round_wins": None if score is None else score["round_wins"],
                "decided_by": fixture.decided_by,
            }
        )
    # Stages in the order they began (winners before losers, groups before the knockout),
    # then rounds; within a round, the order the matches were created.
    stage_order: dict[str, int] = {}
    for row in rows:
        stage_order.setdefault(row["stage"], len(stage_order))
    rows.sort(key=lambda row: (stage_order[row["stage"]], row["round"]))
    return rows


def player_matches(*, player: Player, reader: Any) -> list[dict[str, Any]]:
    """The entries of the person the player is (every row of theirs, `tournaments.selectors.people`)
    in the tournaments `reader` may read, newest tournament first, each with its matches (not
    reset) in order: opponent, status, round wins and the outcome."""
    visible = visible_tournaments(reader, Tournament.objects.all())
    entrants = (
        Entrant.objects.filter(players__in=rows_of_person(player.id), tournament__in=visible)
        .select_related("tournament")
        .order_by("-tournament__created_at", "id")
        .distinct()
    )
    own = player.user_id is not None and player.user_id == getattr(reader, "pk", None)
    return [
        {
            "entrant": entrant,
            "tournament": entrant.tournament,
            "matches": entrant_matches(entrant_id=entrant.id)
            if own
            else silence.redacted_fixtures(
                entrant_matches(entrant_id=entrant.id),
                silence.hidden_round_of_tournament(reader, entrant.tournament),
            ),
        }
        for entrant in entrants
    ]


def entrant_matches(*, entrant_id: int) -> list[dict[str, Any]]:
    """The entrant's matches (not reset) in the order they were made: opponents, table, status,
    round wins (the entrant's first) and the outcome; `fixture` and `side` for a reader that
    needs more of them (the player's own page, tournaments.selectors.me)."""
    fixtures = list(
        Fixture.objects.filter(Q(home=entrant_id) | Q(away=entrant_id) | Q(third=entrant_id))
        .exclude(status=FixtureStatus.RESET)
        .select_related("home", "away", "third")
        .order_by("id")
    )
    scores = match_scores(fixture.match_id for fixture in fixtures)
    matches = []
    for fixture in fixtures:
        side = fixture.entrant_ids.index(entrant_id)
        others = [index for index in range(len(fixture.entrant_ids)) if index != side]
        opponents = [fixture.seated[index] for index in others]
        score = scores.get(fixture.match_id)
        wins = None if score is None else score["round_wins"]
        if fixture.status != FixtureStatus.FINISHED:
            outcome = None
        elif fixture.winner_id is None:
            outcome = "tied"
        else:
            outcome = "won" if fixture.winner_id == entrant_id else "lost"
        matches.append(
            {
                "match_id": fixture.match_id,
                "stage": fixture.stage,
                "round": fixture.round,
                "table": fixture.table,
                "status": fixture.status,
                "opponent": opponents[0],
                "opponents": opponents,
                "outcome": outcome,
                "place": None if fixture.places is None else fixture.places[side],
                "round_wins": None
                if wins is None
                else [wins[side], *(wins[index] for index in others)],
                "match_status": None if score is None else score["status"],
                "fixture": fixture,
                "side": side,
            }
        )
    return matches
