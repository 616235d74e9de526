"""Where a match request acts, for `accounts.permissions` to decide who may act there.

A free-standing match (created through `POST /api/v1/matches/`) belongs to whoever created it:
the actor of its first event. A tournament's match is placed by the `tournaments` app, which
registers a resolver at start-up (games must not import tournaments): the tournament, its club,
the match's table and its players' seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any
from uuid import UUID

from django.utils.translation import gettext_noop
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.permissions import Place, PlaceAccess, side_refusal
from games.eventstore.models import Event
from games.models import Match, MatchStatus
from games.projections import MATCH_STREAM
from games.services import MatchNotFound

PlaceResolver = Callable[[UUID, Callable[[], Exception]], Place | None]
"""Given a match id (and the error for a hidden match), its place, or None if not the resolver's."""

_resolvers: dict[str, PlaceResolver] = {}


def register_place_resolver(name: str, resolver: PlaceResolver) -> None:
    _resolvers[name] = resolver


def match_not_found(match_id: UUID) -> Callable[[], Exception]:
    return lambda: MatchNotFound.because(
        gettext_noop("there is no match %(match)s"), match=match_id
    )


def match_place(match_id: UUID) -> Place:
    """The match's place; MatchNotFound for an unknown match. A tournament's match is open
    until it is finished; a free-standing one is its creator's, finished or not."""
    not_found = match_not_found(match_id)
    for resolver in _resolvers.values():
        place = resolver(match_id, not_found)
        if place is not None:
            status = Match.objects.filter(id=match_id).values_list("status", flat=True).first()
            if status is None:
                raise not_found()
            return replace(place, open=place.open and status != MatchStatus.FINISHED)
    created = (
        Event.objects.filter(stream_id=match_id, stream_version=1, stream_type=MATCH_STREAM)
        .values_list("metadata", flat=True)
        .first()
    )
    if created is None:
        raise not_found()
    actor = created.get("actor_id") if isinstance(created, dict) else None
    return Place(not_found=not_found, owner_id=actor if isinstance(actor, int) else None)


class MatchAccess(PlaceAccess):
    """For views under /matches/{match_id}/."""

    def place(self, request: Request, view: APIView) -> Place:
        return match_place(view.kwargs["match_id"])


def seats_of(user: Any, place: Place) -> frozenset[int]:
    """The seats the user plays at the match."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    return place.player_seats.get(user.pk, frozenset())


def check_acting_side(request: Request, side: int) -> None:
    """Refuse a player acting for a side they do not play for (the place is the request's)."""
    refusal = side_refusal(request.user, request.place, side)  # type: ignore[attr-defined]
    if refusal is not None:
        raise refusal
