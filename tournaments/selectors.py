"""Reads of tournaments, their entrants, matches, standings and bracket. Plain functions,
keyword-only.

Tournaments and entrants are read from their inline rows, which the services update in the same
transaction as the events. The standings and the bracket are read from `TournamentView`, which
the tournament consumer (`tournaments.projections.consume`) projects asynchronously: they lag
behind the writes until it has run.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import DeviceToken, Role, RoleGrant
from accounts.permissions import is_signed_in, is_superuser
from common.db import server_bound_cursor
from games.eventstore.api import last_position_of_streams, read_stream
from games.matches import selectors as match_selectors
from games.models import Match, MatchStatus
from games.side_names import SideRefs
from tournaments import rows
from tournaments.errors import TournamentMatchNotFound
from tournaments.models import (
    Checkpoint,
    Entrant,
    EntrantPlayer,
    Fixture,
    FixtureStatus,
    Format,
    Player,
    Tournament,
    TournamentView,
)
from tournaments.projections import CONSUMER
from tournaments.services import (
    ERASED_PLAYER,
    EntrantNotFound,
    TournamentCommandResult,
    TournamentNotFound,
    load_tournament,
)
from tournaments.state import CheckInWindow
from tournaments.stream import TournamentState

LEAGUE_FORMATS = (Format.ROUND_ROBIN, Format.SWISS)
"""Formats without a bracket: the standings decide the champion."""


def entrants_with_players() -> QuerySet[Entrant]:
    """Entrants with their players prefetched in seat order; seeded first, in seed order."""
    return Entrant.objects.prefetch_related(
        Prefetch("entrantplayer_set", EntrantPlayer.objects.select_related("player"))
    ).order_by("seed", "id")


def tournament_list(*, status: str | None = None, reader: Any = None) -> QuerySet[Tournament]:
    """Every tournament `reader` may read (all, given no reader), newest first (the id breaks
    a tie, so the order is total); with `status`, only those in it."""
    tournaments = Tournament.objects.order_by("-created_at", "-id")
    if reader is not None:
        tournaments = visible_tournaments(reader, tournaments)
    return tournaments if status is None else tournaments.filter(status=status)


TournamentKey = tuple[datetime, UUID]
"""Where a tournament stands in the list's order: its creation time and its id."""


Row = TypeVar("Row")
Key = TypeVar("Key")


@dataclass(frozen=True)
class Page(Generic[Row, Key]):
    """One page of a list in a total order: its rows, and the key of the last one when more
    rows follow (None on the last page)."""

    rows: list[Row]
    next_after: Key | None


def tournament_page(
    *,
    status: str | None = None,
    reader: Any = None,
    after: TournamentKey | None = None,
    limit: int,
) -> Page[Tournament, TournamentKey]:
    """At most `limit` tournaments of `tournament_list`, those after the key `after`: keyset
    pagination, so a page costs the same wherever it is, and a tournament created meanwhile
    (at the top) neither shifts nor repeats the rows of the pages that follow."""
    tournaments = tournament_list(status=status, reader=reader)
    if after is not None:
        created_at, tournament_id = after
        tournaments = tournaments.filter(
            Q(created_at__lt=created_at) | Q(created_at=created_at, id__lt=tournament_id)
        )
    rows = list(tournaments[: limit + 1])
    if len(rows) <= limit:
        return Page(rows, None)
    last = rows[limit - 1]
    return Page(rows[:limit], (last.created_at, last.id))


def tournament_get(*, tournament_id: UUID) -> Tournament:
    tournament = (
        Tournament.objects.prefetch_related(Prefetch("entrants", entrants_with_players()))
        .filter(id=tournament_id)
        .first()
    )
    if tournament is None:
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )
    return tournament


def check_tournament_exists(tournament_id: UUID) -> None:
    if not Tournament.objects.filter(id=tournament_id).exists():
        raise TournamentNotFound.because(
            gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
        )


def entrant_get(*, tournament_id: UUID, entrant_id: int) -> Entrant:
    entrant = entrants_with_players().filter(tournament_id=tournament_id, id=entrant_id).first()
    if entrant is None:
        check_tournament_exists(tournament_id)
        raise EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=entrant_id,
        )
    return entrant


# What a command left: the answer to a tournament write, the same when its idempotency key is
# repeated later (decision record 0020). The facts come from the tournament state as the command
# left it; names come from the rows (an erased name stays erased).


def entrant_as_left(*, result: TournamentCommandResult, entrant_id: int) -> Entrant:
    """The entrant as the command left it (not saved)."""
    entrant = entrant_get(tournament_id=result.tournament_id, entrant_id=entrant_id)
    return entrant_in_state(entrant, result.state)


def entrant_in_state(entrant: Entrant, state: TournamentState) -> Entrant:
    """The row with its seed, check-in and withdrawal as `state` has them (`rows`)."""
    for name, value in rows.expected_entrant(state, entrant.id).items():
        setattr(entrant, name, value)
    return entrant


def tournament_as_left(*, result: TournamentCommandResult) -> dict[str, Any]:
    """The tournament as the command left it, in the shape TournamentOutput reads."""
    tournament = tournament_get(tournament_id=result.tournament_id)
    (last,) = read_stream(
        stream_id=result.tournament_id, from_version=result.version, to_version=result.version
    )
    entrants = [
        entrant_in_state(entrant, result.state)
        for entrant in tournament.entrants.all()
        if entrant.id in result.state.entrants
    ]
    entrants.sort(key=lambda e: (e.seed is None, e.seed or 0, e.id))
    return {
        **{f.attname: getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields},
        "status": result.state.status,
        "version": result.version,
        "updated_at": last.recorded_at,
        "entrants": entrants,
    }


def swiss_round_as_left(*, result: TournamentCommandResult) -> dict[str, Any]:
    """The last Swiss round paired as the command left it: its number, bye and matches (just
    created: ready, or finished by a withdrawn entrant's forfeit once the consumer sees it)."""
    state = result.state
    paired = state.swiss_rounds[-1]
    keys = {pairing[0] for pairing in paired.pairings}
    match_ids = {state.fixtures[key].match_id for key in keys if key in state.fixtures}
    fixtures = (
        Fixture.objects.filter(tournament_id=result.tournament_id, match_id__in=match_ids)
        .select_related("home", "away", "third")
        .order_by("id")
    )
    return {
        "round": paired.number,
        "bye": paired.bye,
        "matches": [fixture_in_state(fixture, state) for fixture in fixtures],
    }


def fixture_in_state(fixture: Fixture, state: TournamentState) -> Fixture:
    """The row as `state` has it, its match not started yet (`rows`)."""
    recorded = state.fixtures[fixture.key]
    for name, value in rows.expected_fixture(state, recorded, "not_started").items():
        setattr(fixture, name, value)
    return fixture


def check_in_window(*, tournament_id: UUID) -> CheckInWindow:
    """The tournament's check-in window, folded from its stream."""
    state, _ = load_tournament(tournament_id=tournament_id)
    return state.check_in


def check_in_window_view(window: CheckInWindow, *, now: datetime | None = None) -> dict[str, Any]:
    """The window as readers see it: open now or not, and its times."""
    return {
        "open": window.accepts(now or timezone.now()),
        "opened_at": window.opened_at,
        "closes_at": window.closes_at,
        "closed_at": window.closed_at,
    }


def check_match_of_tournament(*, tournament_id: UUID, match_id: UUID) -> None:
    """404 `match_not_found` for a match that is not this tournament's, like an entrant."""
    check_tournament_exists(tournament_id)
    if not Fixture.objects.filter(tournament_id=tournament_id, match_id=match_id).exists():
        raise TournamentMatchNotFound.because(
            gettext_noop("match %(match)s is not a match of this tournament"), match=match_id
        )


def tournament_fixture(*, tournament_id: UUID, match_id: UUID) -> Fixture:
    """One of the tournament's matches, as its row has it now."""
    return Fixture.objects.select_related("home", "away", "third").get(
        tournament_id=tournament_id, match_id=match_id
    )


def tournament_fixtures(
    *,
    tournament_id: UUID,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
) -> list[Fixture]:
    """The tournament's matches in the order they were created; a match replaced after a
    corrected result (status `reset`) is left out."""
    check_tournament_exists(tournament_id)
    fixtures = live_fixtures(tournament_id, status=status, stage=stage, round_number=round_number)
    return list(fixtures.select_related("home", "away", "third").order_by("id"))


def live_fixtures(
    tournament_id: UUID,
    *,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
) -> QuerySet[Fixture]:
    fixtures = Fixture.objects.filter(tournament_id=tournament_id).exclude(
        status=FixtureStatus.RESET
    )
    if status is not None:
        fixtures = fixtures.filter(status=status)
    if stage is not None:
        fixtures = fixtures.filter(stage=stage)
    if round_number is not None:
        fixtures = fixtures.filter(round=round_number)
    return fixtures


FIXTURE_ROW_FIELDS = (
    "id",
    "match_id",
    "key",
    "stage",
    "round",
    "home_id",
    "away_id",
    "third_id",
    "home__name",
    "away__name",
    "third__name",
    "places",
    "status",
    "table",
    "scheduled_at",
    "called_at",
    "deadline",
    "winner_id",
    "decided_by",
)
"""A fixture's columns and its entrants' names, as `tournament_fixture_page` gives them."""


def tournament_fixture_page(
    *,
    tournament_id: UUID,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
    after: int | None = None,
    limit: int,
) -> Page[dict[str, Any], int]:
    """At most `limit` of `tournament_fixtures`, those after the fixture `after` (a key of the
    order: the fixture's id, increasing as they were created), as plain rows of
    FIXTURE_ROW_FIELDS (a page can be 500 matches: no model instances)."""
    check_tournament_exists(tournament_id)
    fixtures = live_fixtures(tournament_id, status=status, stage=stage, round_number=round_number)
    if after is not None:
        fixtures = fixtures.filter(id__gt=after)
    rows = list(fixtures.order_by("id").values(*FIXTURE_ROW_FIELDS)[: limit + 1])
    if len(rows) <= limit:
        return Page(rows, None)
    return Page(rows[:limit], rows[limit - 1]["id"])


def overdue_fixtures(*, tournament_id: UUID, now: datetime) -> list[Fixture]:
    """Ready matches past their no-show deadline that nobody forfeited (both sides absent, or
    both present but not playing): for the organizer to settle."""
    return list(
        Fixture.objects.filter(
            tournament_id=tournament_id, status=FixtureStatus.READY, deadline__lte=now
        ).order_by("id")
    )


def projected_view(tournament_id: UUID, *fields: str) -> TournamentView | None:
    """The tournament's projected view (with only `fields` loaded, when given: its documents
    are large); None when the consumer has not projected it yet."""
    views = TournamentView.objects.filter(tournament_id=tournament_id)
    view = (views.only(*fields) if fields else views).first()
    if view is None:
        check_tournament_exists(tournament_id)
    return view


def projected(tournament_id: UUID, document: str) -> Any:
    """One document of the projected view (`standings` or `bracket`), alone; None before it."""
    view = projected_view(tournament_id, document)
    return None if view is None else getattr(view, document)


def entrant_names(*, tournament_id: UUID) -> dict[int, str]:
    """Each entrant's name as it reads now (an erased player's entrant reads `erased player`).

    Names are not in the projected view: they are looked up here, at read time, so an erasure
    shows at once and the view stays a pure fold of the events."""
    return dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", "name"))


def tournament_standings(*, tournament_id: UUID) -> list[dict[str, Any]]:
    """The overall standings rows, best first, with the entrants' names; empty before the
    start."""
    standings = projected(tournament_id, "standings")
    if standings is None:
        return []
    names = entrant_names(tournament_id=tournament_id)
    return [row | {"name": names.get(row["entrant"], "")} for row in standings]


def tournament_bracket(*, tournament_id: UUID) -> dict[str, Any]:
    """The bracket document as projected, with its `champion` (null until there is one)."""
    view = projected_view(tournament_id, "bracket")
    if view is None:
        tournament = Tournament.objects.get(id=tournament_id)
        return {
            "format": tournament.format,
            "status": tournament.status,
            "stages": [],
            "placements": [],
            "entrants": {},
            "champion": None,
            "champion_name": None,
        }
    bracket: dict[str, Any] = view.bracket
    names = entrant_names(tournament_id=tournament_id)
    champion = champion_of(bracket, lambda: projected(tournament_id, "standings") or [])
    return {
        **bracket,
        "stages": [named_stage(stage, names) for stage in bracket["stages"]],
        "placements": [
            placement | {"name": names.get(placement["entrant"], "")}
            for placement in bracket["placements"]
        ],
        "entrants": {str(entrant): name for entrant, name in names.items()},
        "champion": champion,
        "champion_name": None if champion is None else names.get(champion, ""),
    }


def name_of(entrant: int | None, names: dict[int, str]) -> str | None:
    return None if entrant is None else names.get(entrant, "")


def named_stage(stage: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The stage with names beside the entrant ids of its matches and byes."""
    rounds = []
    for round_ in stage["rounds"]:
        matches = [
            match
            | {
                "entrant_names": [name_of(entrant, names) for entrant in match["entrants"]],
                "winner_name": name_of(match["winner"], names),
            }
            for match in round_["matches"]
        ]
        rounds.append(round_ | {"matches": matches, "bye_name": name_of(round_.get("bye"), names)})
    return stage | {"rounds": rounds}


def champion_of(
    bracket: dict[str, Any], standings_of: Callable[[], list[dict[str, Any]]]
) -> int | None:
    """First place of the last bracket (elimination formats and knockouts); for a league or
    Swiss tournament once finished, the entrant ranked first alone (null on a shared first).
    The standings are read only then."""
    for placement in bracket.get("placements", []):
        if placement["place"] == 1:
            champion: int = placement["entrant"]
            return champion
    if bracket["format"] not in LEAGUE_FORMATS or bracket["status"] != "finished":
        return None
    first = [row["entrant"] for row in standings_of() if row["rank"] == 1]
    return first[0] if len(first) == 1 else None


def visible_tournaments(user: object, tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """The tournaments the user may read: public ones, and private ones where they hold a role
    (in the tournament or its club) or play."""
    if is_superuser(user):  # type: ignore[arg-type]
        return tournaments
    if not is_signed_in(user):  # type: ignore[arg-type]
        return tournaments.filter(public=True)
    grants = RoleGrant.objects.filter(user_id=user.pk)  # type: ignore[attr-defined]
    return tournaments.filter(
        Q(public=True)
        | Q(club_id__in=grants.filter(club__isnull=False).values("club_id"))
        | Q(id__in=grants.filter(tournament_id__isnull=False).values("tournament_id"))
        | Q(entrants__players__user_id=user.pk)  # type: ignore[attr-defined]
    ).distinct()


# The names of the sides of tournament matches, for the scorer API and the match admin: games
# asks for them through its side-namer registry (registered in TournamentsConfig.ready()).


def match_side_names(refs: SideRefs) -> dict[UUID, list[str]]:
    """The side names of the tournament matches among `refs`: from the entrant each side refers
    to (`{"entrant": 17}`), or, for a match created before its events carried entrant ids (their
    sides upcast to `{}`), from its fixture's home and away entrants."""
    entrants_of: dict[UUID, list[int]] = {
        match_id: [side["entrant"] for side in sides]
        for match_id, sides in refs.items()
        if sides and all("entrant" in side for side in sides)
    }
    older = [match_id for match_id in refs if match_id not in entrants_of]
    if older:
        fixtures = Fixture.objects.filter(match_id__in=older)
        seated = fixtures.values_list("match_id", "home_id", "away_id", "third_id")
        for match_id, home, away, third in seated:
            entrants_of[match_id] = [home, away, *([] if third is None else [third])]
    if not entrants_of:
        return {}
    wanted = {entrant for entrants in entrants_of.values() for entrant in entrants}
    names = dict(Entrant.objects.filter(id__in=wanted).values_list("id", "name"))
    return {
        match_id: [names.get(entrant, f"entrant {entrant}") for entrant in entrants]
        for match_id, entrants in entrants_of.items()
    }


def matches_with_entrant_named(term: str) -> Iterable[UUID]:
    """The tournament matches with an entrant whose name contains `term` (case-insensitive)."""
    return Fixture.objects.filter(
        Q(home__name__icontains=term)
        | Q(away__name__icontains=term)
        | Q(third__name__icontains=term)
    ).values_list("match_id", flat=True)


# The public pages: what a spectator follows, and when it last changed.


def tournament_log_position(*, tournament_id: UUID) -> tuple[int, bool]:
    """How far the log has moved for this tournament: the last global position of its stream
    and of its matches' streams, and whether the tournament consumer has read up to it (after
    which the fixtures' statuses, the standings and the bracket reflect every one of those
    events). Two reads with the same answer show the same tournament."""
    match_ids = Fixture.objects.filter(tournament_id=tournament_id).values_list(
        "match_id", flat=True
    )
    position = last_position_of_streams(stream_ids=[tournament_id, *match_ids])
    consumed = Checkpoint.objects.filter(name=CONSUMER).values_list("position", flat=True).first()
    return position, (consumed or 0) >= position


def tournament_read_state(*, tournament_id: UUID) -> str:
    """Changes whenever what the tournament's readers see could: a new event of the tournament
    or of its matches, the consumer catching up with them, or a renamed (erased) entrant. The
    pages and the API's reads use it as their ETag."""
    position, caught_up = tournament_log_position(tournament_id=tournament_id)
    names = entrant_names(tournament_id=tournament_id)
    names_crc = zlib.crc32(repr(sorted(names.items())).encode())
    return f"{position}-{int(caught_up)}-{names_crc:x}"


_PROJECTED_STATE = f"""
    SELECT t.version, coalesce(v.position, 0),
        (SELECT concat(
            to_hex(coalesce(bit_xor(hashtextextended(
                e.id::text || ':' || e.xmin::text || ':' || e.name, 0)), 0)),
            '.', count(*))
         FROM {Entrant._meta.db_table} e WHERE e.tournament_id = t.id),
        CASE WHEN %(now)s::timestamptz IS NULL THEN 0 ELSE
            (SELECT count(*) FROM {Fixture._meta.db_table} f
             WHERE f.tournament_id = t.id AND f.status = 'ready' AND f.deadline <= %(now)s)
        END
    FROM {Tournament._meta.db_table} t
    LEFT JOIN {TournamentView._meta.db_table} v ON v.tournament_id = t.id
    WHERE t.id = %(tournament)s
"""


def tournament_projected_state(*, tournament_id: UUID, now: datetime | None = None) -> str:
    """Changes whenever the API's tournament reads could (the standings, the bracket, the
    match list), in one cheap query: the tournament stream's version (its rows, the fixtures
    included, change in the same transaction as its events), the log position the consumer
    last folded into its view (the match results, the fixture rows following their matches,
    the standings and the bracket), its entrants' names and the transaction that last wrote
    each entrant's row (`xmin`: an erasure rewrites the row without an event, even when the
    name comes out the same, as a single registered as `erased player`, while the CSV's
    players change), and with `now` the matches overdue then. Unlike `tournament_read_state`
    it does not move with a card played: these reads show nothing of a match until the
    consumer has read it. A tournament that does not exist reads `none`."""
    with server_bound_cursor() as cursor:  # run by every poll: prepared per connection
        cursor.execute(_PROJECTED_STATE, {"tournament": tournament_id, "now": now})
        row = cursor.fetchone()
    if row is None:
        return "none"
    version, position, names, overdue = row
    return f"{version}.{position}.{names}" + ("" if now is None else f".o{overdue}")


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


def player_get(*, player_id: int, reader: Any) -> Player:
    """The player, if they play in a tournament `reader` may read; Player.DoesNotExist if not
    (a player known only from private tournaments is nobody's business but theirs)."""
    visible = visible_tournaments(reader, Tournament.objects.all())
    return Player.objects.filter(id=player_id, entries__tournament__in=visible).distinct().get()


def player_matches(*, player: Player, reader: Any) -> list[dict[str, Any]]:
    """The player's entries in the tournaments `reader` may read, newest tournament first, each
    with its matches (not reset) in order: opponent, status, round wins and the outcome."""
    visible = visible_tournaments(reader, Tournament.objects.all())
    entrants = (
        Entrant.objects.filter(players=player, tournament__in=visible)
        .select_related("tournament")
        .order_by("-tournament__created_at", "id")
        .distinct()
    )
    entries = []
    for entrant in entrants:
        fixtures = list(
            Fixture.objects.filter(Q(home=entrant) | Q(away=entrant) | Q(third=entrant))
            .exclude(status=FixtureStatus.RESET)
            .select_related("home", "away", "third")
            .order_by("id")
        )
        scores = match_scores(fixture.match_id for fixture in fixtures)
        matches = []
        for fixture in fixtures:
            side = fixture.entrant_ids.index(entrant.id)
            others = [index for index in range(len(fixture.entrant_ids)) if index != side]
            opponents = [fixture.seated[index] for index in others]
            score = scores.get(fixture.match_id)
            wins = None if score is None else score["round_wins"]
            if fixture.status != FixtureStatus.FINISHED:
                outcome = None
            elif fixture.winner_id is None:
                outcome = "tied"
            else:
                outcome = "won" if fixture.winner_id == entrant.id else "lost"
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
                }
            )
        entries.append({"entrant": entrant, "tournament": entrant.tournament, "matches": matches})
    return entries


SCORER_MATCHES_LIMIT = 100
"""The most matches the scorer's list shows: the open ones come first."""


@dataclass(frozen=True)
class ScorerMatch:
    """A match the requester may score, as the table page lists it."""

    id: UUID
    status: str
    sides: list[str]
    table: int | None = None
    tournament: dict[str, Any] | None = None
    round: int | None = None


def scorer_matches(*, user: Any, device: DeviceToken | None = None) -> list[ScorerMatch]:
    """The matches the user may score, open ones first (at the lowest table), then the
    finished ones. With a device token limited to a tournament or tables, only those; without
    one, the free-standing matches the user created too."""
    if not is_signed_in(user):
        return []
    fixtures = Fixture.objects.exclude(status=FixtureStatus.RESET).filter(scored_by(user))
    if device is not None:
        if device.tournament_id is not None:
            fixtures = fixtures.filter(tournament_id=device.tournament_id)
        if device.tables:
            fixtures = fixtures.filter(table__in=device.tables)
    rows = list(
        fixtures.select_related("tournament")
        .annotate(done=Q(status=FixtureStatus.FINISHED))
        .order_by("done", F("table").asc(nulls_last=True), "-id")[:SCORER_MATCHES_LIMIT]
    )
    matches = {
        match.id: match
        for match in match_selectors.with_side_names(
            matches=Match.objects.filter(id__in=[fixture.match_id for fixture in rows])
        )
    }
    listed = [
        ScorerMatch(
            id=fixture.match_id,
            status=matches[fixture.match_id].status,
            sides=matches[fixture.match_id].side_names or [],
            table=fixture.table,
            tournament={"id": fixture.tournament.id, "name": fixture.tournament.name},
            round=fixture.round,
        )
        for fixture in rows
        if fixture.match_id in matches
    ]
    if device is None:
        created = match_selectors.matches_created_by(user_id=user.pk, limit=SCORER_MATCHES_LIMIT)
        listed += [
            ScorerMatch(id=match.id, status=match.status, sides=match.side_names or [])
            for match in created
            if match.id not in matches
        ]
    return sorted(listed, key=lambda found: found.status == MatchStatus.FINISHED)


def scored_by(user: Any) -> Q:
    """Which tournament matches the user scores: all of a club's or a tournament's that they
    organize or score, those at their tables when a scorer's grant names tables."""
    if is_superuser(user):
        return Q()
    where = Q(pk__in=[])
    for role, club_id, tournament_id, tables in RoleGrant.objects.filter(
        user_id=user.pk, role__in=[Role.ORGANIZER, Role.SCORER]
    ).values_list("role", "club_id", "tournament_id", "tables"):
        if club_id is not None:
            where |= Q(tournament__club_id=club_id)
        elif role == Role.SCORER and tables:
            where |= Q(tournament_id=tournament_id, table__in=tables)
        else:
            where |= Q(tournament_id=tournament_id)
    return where
