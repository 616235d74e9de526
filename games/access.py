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

from django.db import connection
from django.utils.translation import gettext_noop
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.permissions import Place, PlaceAccess, side_refusal
from games import folded
from games.eventstore.api import RecordedEvent, read_stream_beside
from games.eventstore.loading import Head
from games.eventstore.models import Event
from games.matches.execution import MatchNotFound
from games.matches.projections import MATCH_STREAM
from games.models import Match, MatchStatus

PlaceResolver = Callable[[UUID, Callable[[], Exception]], Place | None]
"""Given a match id (and the error for a hidden match), its place, or None if not the resolver's."""

_resolvers: dict[str, PlaceResolver] = {}


def register_place_resolver(name: str, resolver: PlaceResolver) -> None:
    _resolvers[name] = resolver


def match_not_found(match_id: UUID) -> Callable[[], Exception]:
    return lambda: MatchNotFound.because(
        gettext_noop("there is no match %(match)s"), match=match_id
    )


PLACE_OF_MATCH = f"""
SELECT
    match.status,
    match.version,
    match.last_position,
    match.sides @? '$[*].entrant' AS in_tournament,
    CASE WHEN jsonb_typeof(created.metadata -> 'actor_id') = 'number'
        THEN (created.metadata ->> 'actor_id')::bigint END AS creator
FROM {Match._meta.db_table} AS match
LEFT JOIN {Event._meta.db_table} AS created
    ON created.stream_id = match.id
    AND created.stream_type = %(stream_type)s
    AND created.stream_version = 1
WHERE match.id = %(match_id)s
"""  # noqa: S608 - constant table names; values are bound
"""What every match request needs to know first, in one round trip: whether the match exists,
is finished, where its stream stands (`Place.stream_head`), is a tournament's (its sides
name entrants), and who created it."""


def match_place(match_id: UUID, *, for_command: bool = False) -> Place:
    """The match's place; MatchNotFound for an unknown match. A tournament's match is open
    until it is finished; a free-standing one is its creator's, finished or not. For a command,
    the same round trip reads the stream's events that this process's memo lacks."""
    not_found = match_not_found(match_id)
    params: dict[str, Any] = {"stream_type": MATCH_STREAM, "match_id": match_id}
    events: tuple[RecordedEvent, ...] | None = None
    known = folded.recall(match_id)
    from_version = 1 if known is None else known.version
    if for_command:
        found, read = read_stream_beside(
            PLACE_OF_MATCH, params, stream_id=match_id, from_version=from_version
        )
        events = tuple(read)
    else:
        with connection.cursor() as cursor:
            cursor.execute(PLACE_OF_MATCH, params)
            found = cursor.fetchone()
    if found is None:
        raise not_found()
    status, version, last_position, in_tournament, creator = found
    head = Head(version, last_position, events, from_version)
    if in_tournament:
        for resolver in _resolvers.values():
            place = resolver(match_id, not_found)
            if place is not None:
                return replace(
                    place, open=place.open and status != MatchStatus.FINISHED, stream_head=head
                )
        raise not_found()
    return Place(not_found=not_found, owner_id=creator, stream_head=head)


def head_of(request: Request) -> Head | None:
    """Where the request's match stream stood when its permission check found the match's
    place (read in the same round trip): the command's load starts from it."""
    place = getattr(request, "place", None)
    head = getattr(place, "stream_head", None)
    return head if isinstance(head, Head) else None


class MatchAccess(PlaceAccess):
    """For views under /matches/{match_id}/."""

    def place(self, request: Request, view: APIView) -> Place:
        return match_place(view.kwargs["match_id"], for_command=request.method not in SAFE_METHODS)


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
