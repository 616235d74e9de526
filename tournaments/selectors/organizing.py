"""What a user organizes: the one answer the organizer's console filters every row by
(decision record 0040), and the webhooks' and seasons' forms narrow their choices to.

A club's organizer organizes the club's tournaments; a grant on one tournament organizes that
one; the creator of a free-standing match (outside any tournament) organizes it. A superuser
organizes everything; anybody signed out or inactive, nothing.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from accounts.permissions import is_signed_in, is_superuser
from accounts.selectors import organized_clubs, organized_tournament_ids
from games.eventstore.models import Event
from games.matches.projections import MATCH_STREAM
from tournaments.models import Fixture, Tournament


def organized_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` organizes (its own or its club's organizer role)."""
    if is_superuser(user):
        return Tournament.objects.all()
    return Tournament.objects.filter(
        Q(id__in=organized_tournament_ids(user)) | Q(club__in=organized_clubs(user))
    )


def organized_club_ids(user: Any) -> QuerySet[Any]:
    return organized_clubs(user).values("id")


def tournament_ids(user: Any) -> QuerySet[Any]:
    return organized_tournaments(user).values("id")


def created_free_standing_match_ids(user: Any) -> QuerySet[Any]:
    """The free-standing matches `user` created (the actor of their first event)."""
    if not is_signed_in(user):
        return Event.objects.none().values("stream_id")
    return (
        Event.objects.filter(stream_type=MATCH_STREAM, stream_version=1, metadata__actor_id=user.pk)
        .exclude(stream_id__in=Fixture.objects.values("match_id"))
        .values("stream_id")
    )


def organized_matches(user: Any, field: str = "id") -> Q:
    """The matches (by `field`, their id) of the tournaments `user` organizes, and the
    free-standing ones `user` created."""
    in_tournaments = Fixture.objects.filter(tournament__in=organized_tournaments(user))
    return Q(**{f"{field}__in": in_tournaments.values("match_id")}) | Q(
        **{f"{field}__in": created_free_standing_match_ids(user)}
    )


def organized_streams(user: Any, field: str = "stream_id") -> Q:
    """The streams (tournaments and matches) `user` organizes, by their id in `field`."""
    return Q(**{f"{field}__in": tournament_ids(user)}) | organized_matches(user, field)
