"""The names of the sides of tournament matches, for the scorer API and the match admin: games
asks for them through its side-namer registry (registered in TournamentsConfig.ready())."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from django.db.models import Q

from games.side_names import SideRefs
from tournaments.models import (
    Entrant,
    Fixture,
)


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
