"""The matches a scorer (or a scorer's device) may score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db.models import F, Q

from accounts.models import DeviceToken, Role, RoleGrant
from accounts.permissions import is_signed_in, is_superuser
from games.matches import selectors as match_selectors
from games.models import Match, MatchStatus
from tournaments.models import (
    Fixture,
    FixtureStatus,
)

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
