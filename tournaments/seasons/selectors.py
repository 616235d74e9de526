"""Reads of a club's seasons, and a season's standings computed from its tournaments' events.

The standings are never stored: each tournament's final places are folded from its stream (the
process memo keeps that cheap, `load_latest`), so `rebuild_projections` cannot change them. Names
are read from the name rows at read time, like every other page (an erasure shows at once).

A season's player is a person across tournaments, as the ratings count them
(`tournaments.selectors.people`): rows with the same linked account are one person, and so are rows
with the same name; an erased row is a person of its own, `erased player`. Each is linked by the
first of their rows the reader may know of (`tournaments.selectors.players`, decision record 0043):
the person's first row may be a private tournament's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q
from django.utils.translation import gettext_noop

from accounts.models import Club, Role
from accounts.selectors import has_role
from tournaments.errors import SeasonNotFound
from tournaments.models import EntrantPlayer, Season, Tournament, TournamentStatus
from tournaments.plan.final_places import final_places
from tournaments.plan.silence import silent_from_round
from tournaments.selectors.lookup import club_get
from tournaments.selectors.people import people
from tournaments.selectors.players import persons_shown
from tournaments.services.erasure import ERASED_PLAYER
from tournaments.services.pipeline import load_tournament
from tournaments.standings.seasons import (
    PointsTable,
    SeasonRow,
    TournamentPlaces,
    season_standings,
)


def club_seasons(*, club_slug: str) -> tuple[Club, list[Season]]:
    """The club and its seasons, newest first."""
    club = club_get(club_slug)
    return club, list(Season.objects.filter(club=club).order_by("-created_at", "-id"))


@dataclass(frozen=True, slots=True)
class ClubSeasonLine:
    season: Season
    tournaments: int
    """Its public tournaments (a private one is never counted)."""
    running: bool
    """Whether one of them is not finished yet (it shows no points until it is)."""


def club_season_lines(*, club_slug: str) -> tuple[Club, list[ClubSeasonLine]]:
    """The club and its seasons, newest first, each with its number of tournaments and whether
    one is still running; ClubNotFound for an unknown club."""
    club = club_get(club_slug)
    public = Q(tournaments__public=True)
    found = (
        Season.objects.filter(club=club)
        .annotate(
            counted=Count("tournaments", filter=public),
            unfinished=Count(
                "tournaments",
                filter=public & ~Q(tournaments__status=TournamentStatus.FINISHED),
            ),
        )
        .order_by("-created_at", "-id")
    )
    return club, [ClubSeasonLine(season, season.counted, season.unfinished > 0) for season in found]


def season_of(*, club_slug: str, season_slug: str) -> Season:
    club = club_get(club_slug)
    season = Season.objects.filter(club=club, slug=season_slug).select_related("club").first()
    if season is None:
        raise SeasonNotFound.because(
            gettext_noop("%(club)s has no season %(season)s"), club=club.name, season=season_slug
        )
    return season


def may_organize(user: AbstractBaseUser | AnonymousUser, club_id: int) -> bool:
    """A club's organizers (and superusers) set its seasons."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return True
    return has_role(user, Role.ORGANIZER, club_id=club_id)


def seasons_of_tournament(tournament_id: UUID) -> list[Season]:
    """The seasons that count a tournament (for its page to link to)."""
    seasons = Season.objects.filter(tournaments__id=tournament_id).select_related("club")
    return list(seasons.order_by("-created_at", "id"))


@dataclass(frozen=True, slots=True)
class SeasonTournamentLine:
    id: UUID
    name: str
    status: str
    counted: bool
    """Finished: its places count. A tournament still running counts once it finishes."""


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    season: Season
    table: PointsTable
    tournaments: list[SeasonTournamentLine]
    rows: list[SeasonRow]


def season_tournaments(season: Season) -> list[Tournament]:
    """The season's public tournaments, oldest first (a private one is never counted)."""
    return list(Tournament.objects.filter(seasons=season, public=True).order_by("created_at", "id"))


def standings_of(season: Season, *, reader: Any) -> SeasonStandings:
    """The season's standings now: its finished tournaments' final places, as points, each
    player by a row `reader` may know of."""
    table = PointsTable(tuple(season.points), season.participation)
    lines: list[SeasonTournamentLine] = []
    entrant_places: dict[UUID, dict[int, int]] = {}
    for tournament in season_tournaments(season):
        state, _ = load_tournament(tournament_id=tournament.id)
        # A tournament whose last rounds are silent has no final places until they are
        # revealed, for every reader (decision record 0060).
        places = final_places(state) if silent_from_round(state) is None else {}
        if places:
            entrant_places[tournament.id] = places
        lines.append(
            SeasonTournamentLine(tournament.id, tournament.name, state.status, bool(places))
        )
    persons, names = players_of_entrants(
        (entrant for places in entrant_places.values() for entrant in places), reader=reader
    )
    entries = []
    for tournament_id, places in entrant_places.items():
        person_places: dict[int, int] = {}
        for entrant, place in places.items():
            for person in persons.get(entrant, ()):
                person_places[person] = min(place, person_places.get(person, place))
        entries.append(TournamentPlaces(str(tournament_id), person_places))
    rows = season_standings(entries, table, best_n=season.best_n, names=names)
    return SeasonStandings(season, table, lines, rows)


def players_of_entrants(
    entrant_ids: Iterable[int], *, reader: Any
) -> tuple[dict[int, list[int]], dict[int, str]]:
    """Each entrant's people and each person's name (their latest row's), each person by the id
    of the first of their rows `reader` may know of (a row of these entrants, at the latest)."""
    rows = list(
        EntrantPlayer.objects.filter(entrant_id__in=set(entrant_ids))
        .order_by("player_id")
        .values_list("entrant_id", "player_id", "player__name", "player__erased")
    )
    known = people()
    shown = persons_shown(persons={known.get(row[1], row[1]) for row in rows}, reader=reader)
    names: dict[int, str] = {}
    people_of: dict[int, list[int]] = {}
    for entrant, player, name, erased in rows:
        person = known.get(player, player)
        shown_as = shown[person].id if person in shown else player
        names[shown_as] = ERASED_PLAYER if erased else name
        people_of.setdefault(entrant, []).append(shown_as)
    return people_of, names
