"""Reads of tournaments, their entrants, matches, standings and bracket. Plain functions,
keyword-only.

Tournaments and entrants are read from their inline rows, which the services update in the same
transaction as the events. The standings and the bracket are read from `TournamentView`, which
the tournament consumer (`tournaments.projections.consume`) projects asynchronously: they lag
behind the writes until it has run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import F, Prefetch, Q, QuerySet

from accounts.models import DeviceToken, Role, RoleGrant
from accounts.permissions import is_signed_in, is_superuser
from games import selectors as match_selectors
from games.eventstore.api import read_stream
from games.models import Match, MatchStatus
from games.side_names import SideRefs
from tournaments.models import (
    Entrant,
    EntrantPlayer,
    Fixture,
    FixtureStatus,
    Format,
    Tournament,
    TournamentView,
)
from tournaments.services import EntrantNotFound, TournamentCommandResult, TournamentNotFound
from tournaments.stream import TournamentState

LEAGUE_FORMATS = (Format.ROUND_ROBIN, Format.SWISS)
"""Formats without a bracket: the standings decide the champion."""


def entrants_with_players() -> QuerySet[Entrant]:
    """Entrants with their players prefetched in seat order; seeded first, in seed order."""
    return Entrant.objects.prefetch_related(
        Prefetch("entrantplayer_set", EntrantPlayer.objects.select_related("player"))
    ).order_by("seed", "id")


def tournament_list(*, status: str | None = None, reader: Any = None) -> QuerySet[Tournament]:
    """Every tournament `reader` may read (all, given no reader), newest first; with `status`,
    only those in it."""
    tournaments = Tournament.objects.order_by("-created_at")
    if reader is not None:
        tournaments = visible_tournaments(reader, tournaments)
    return tournaments if status is None else tournaments.filter(status=status)


def tournament_get(*, tournament_id: UUID) -> Tournament:
    tournament = (
        Tournament.objects.prefetch_related(Prefetch("entrants", entrants_with_players()))
        .filter(id=tournament_id)
        .first()
    )
    if tournament is None:
        raise TournamentNotFound(f"there is no tournament {tournament_id}")
    return tournament


def check_tournament_exists(tournament_id: UUID) -> None:
    if not Tournament.objects.filter(id=tournament_id).exists():
        raise TournamentNotFound(f"there is no tournament {tournament_id}")


def entrant_get(*, tournament_id: UUID, entrant_id: int) -> Entrant:
    entrant = entrants_with_players().filter(tournament_id=tournament_id, id=entrant_id).first()
    if entrant is None:
        check_tournament_exists(tournament_id)
        raise EntrantNotFound(f"entrant {entrant_id} is not registered in this tournament")
    return entrant


# What a command left: the answer to a tournament write, the same when its idempotency key is
# repeated later (decision record 0020). The facts come from the tournament state as the command
# left it; names come from the rows (an erased name stays erased).


def entrant_as_left(*, result: TournamentCommandResult, entrant_id: int) -> Entrant:
    """The entrant as the command left it (not saved)."""
    entrant = entrant_get(tournament_id=result.tournament_id, entrant_id=entrant_id)
    return entrant_in_state(entrant, result.state)


def entrant_in_state(entrant: Entrant, state: TournamentState) -> Entrant:
    """The row with its seed, check-in and withdrawal as `state` has them: the seeding's
    position once seeded, else the seed given at registration (as the services write them)."""
    record = state.entrants[entrant.id]
    seeding = state.seeding or ()
    entrant.seed = seeding.index(entrant.id) + 1 if entrant.id in seeding else record.seed
    entrant.checked_in, entrant.withdrawn = record.checked_in, record.withdrawn
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
    fixtures = Fixture.objects.filter(
        tournament_id=result.tournament_id, match_id__in=match_ids
    ).order_by("id")
    return {
        "round": paired.number,
        "bye": paired.bye,
        "matches": [fixture_in_state(fixture, state) for fixture in fixtures],
    }


def fixture_in_state(fixture: Fixture, state: TournamentState) -> Fixture:
    recorded = state.fixtures[fixture.key]
    result = state.results.get(fixture.key)
    fixture.status = FixtureStatus.READY if result is None else FixtureStatus.FINISHED
    fixture.winner_id = None if result is None else result.winner
    fixture.table = recorded.table
    fixture.scheduled_at = parse_datetime_or_none(recorded.scheduled_at)
    fixture.deadline = parse_datetime_or_none(recorded.deadline)
    return fixture


def parse_datetime_or_none(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


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
    fixtures = Fixture.objects.filter(tournament_id=tournament_id).exclude(
        status=FixtureStatus.RESET
    )
    if status is not None:
        fixtures = fixtures.filter(status=status)
    if stage is not None:
        fixtures = fixtures.filter(stage=stage)
    if round_number is not None:
        fixtures = fixtures.filter(round=round_number)
    return list(fixtures.order_by("id"))


def projected_view(tournament_id: UUID) -> TournamentView | None:
    """The tournament's projected view; None when the consumer has not projected it yet."""
    view = TournamentView.objects.filter(tournament_id=tournament_id).first()
    if view is None:
        check_tournament_exists(tournament_id)
    return view


def entrant_names(*, tournament_id: UUID) -> dict[int, str]:
    """Each entrant's name as it reads now (an erased player's entrant reads `erased player`).

    Names are not in the projected view: they are looked up here, at read time, so an erasure
    shows at once and the view stays a pure fold of the events."""
    return dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", "name"))


def tournament_standings(*, tournament_id: UUID) -> list[dict[str, Any]]:
    """The overall standings rows, best first, with the entrants' names; empty before the
    start."""
    view = projected_view(tournament_id)
    if view is None:
        return []
    names = entrant_names(tournament_id=tournament_id)
    return [row | {"name": names.get(row["entrant"], "")} for row in view.standings]


def tournament_bracket(*, tournament_id: UUID) -> dict[str, Any]:
    """The bracket document as projected, with its `champion` (null until there is one)."""
    view = projected_view(tournament_id)
    if view is None:
        tournament = Tournament.objects.get(id=tournament_id)
        return {
            "format": tournament.format,
            "status": tournament.status,
            "stages": [],
            "placements": [],
            "entrants": {},
            "champion": None,
        }
    bracket: dict[str, Any] = view.bracket
    names = entrant_names(tournament_id=tournament_id)
    return {
        **bracket,
        "entrants": {str(entrant): name for entrant, name in names.items()},
        "champion": champion_of(bracket, view.standings),
    }


def champion_of(bracket: dict[str, Any], standings: list[dict[str, Any]]) -> int | None:
    """First place of the last bracket (elimination formats and knockouts); for a league or
    Swiss tournament once finished, the entrant ranked first alone (null on a shared first)."""
    for placement in bracket.get("placements", []):
        if placement["place"] == 1:
            champion: int = placement["entrant"]
            return champion
    if bracket["format"] not in LEAGUE_FORMATS or bracket["status"] != "finished":
        return None
    first = [row["entrant"] for row in standings if row["rank"] == 1]
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
        for match_id, home, away in fixtures.values_list("match_id", "home_id", "away_id"):
            entrants_of[match_id] = [home, away]
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
        Q(home__name__icontains=term) | Q(away__name__icontains=term)
    ).values_list("match_id", flat=True)


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
