"""Tournaments and entrants read from their inline rows (which the services update in the same
transaction as the events): lists, pages, single reads and what a reader may see."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext_noop

from accounts.models import Club, RoleGrant
from accounts.permissions import is_signed_in, is_superuser
from accounts.selectors import club_by_slug
from tournaments.errors import ClubNotFound, EntrantNotFound, TournamentNotFound
from tournaments.models import (
    Entrant,
    EntrantPlayer,
    Tournament,
)


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


def club_get(slug: str) -> Club:
    """The club at this address (its slug), or `club_not_found`."""
    club = club_by_slug(slug=slug)
    if club is None:
        raise ClubNotFound.because(gettext_noop("there is no club %(club)s"), club=slug)
    return club
