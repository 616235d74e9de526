"""Where a tournament request acts, for `accounts.permissions` to decide who may act there.

A tournament is run by its club; a tournament's match is at its fixture's table, and its
players are the entrants' players with an account (`Player.user`). Seats follow the sides: the
home entrant is side 0 and the away entrant side 1, and at a table of 2 x k seats the entrant's
player in position p sits at seat `side + 2 * p` (partners sit across, as the rules seat them).
At a table of three the third entrant is side 2 and each side is one seat.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from uuid import UUID

from django.db import connection
from django.utils.translation import gettext_noop
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView
from typing_extensions import override

from accounts.models import Club, Role
from accounts.permissions import (
    Authenticated,
    Place,
    PlaceAccess,
    denied,
    is_superuser,
)
from accounts.selectors import has_role
from common.db import server_bound_cursor
from tournaments.errors import InvalidTournament, TournamentNotFound
from tournaments.models import EntrantPlayer, Fixture, FixtureStatus, Player, Tournament
from tournaments.plan.silence import hides

"""Tournament matches are played by two sides."""


def _column(model: Any, name: str) -> str:
    return f'"{model._meta.get_field(name).column}"'


def tournament_not_found(tournament_id: UUID) -> Callable[[], Exception]:
    return lambda: TournamentNotFound.because(
        gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
    )


TOURNAMENT_PLACE = (
    f"SELECT {_column(Tournament, 'club')}, {_column(Tournament, 'public')}, "  # noqa: S608 - constant table names; values are bound
    f"{_column(Tournament, 'silent_from_round')} "
    f"FROM {Tournament._meta.db_table} WHERE {_column(Tournament, 'id')} = %s"
)


def tournament_place(tournament_id: UUID) -> Place:
    """The tournament's place; TournamentNotFound for an unknown tournament."""
    with server_bound_cursor() as cursor:  # every tournament request: prepared per connection
        cursor.execute(TOURNAMENT_PLACE, [tournament_id])
        found = cursor.fetchone()
    if found is None:
        raise tournament_not_found(tournament_id)()
    club_id, public, silent_from_round = found
    return Place(
        not_found=tournament_not_found(tournament_id),
        tournament_id=tournament_id,
        club_id=club_id,
        public=public,
        silent_from_round=silent_from_round,
        players=frozenset() if public else players_of(tournament_id),
    )


def players_of(tournament_id: UUID) -> frozenset[int]:
    """The users who play in the tournament (a private one is theirs to read too)."""
    return frozenset(
        EntrantPlayer.objects.filter(
            entrant__tournament_id=tournament_id, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )


FIXTURE_PLACE = f"""
SELECT fixture.{_column(Fixture, "table")}, fixture.{_column(Fixture, "status")},
    fixture.{_column(Fixture, "home")}, fixture.{_column(Fixture, "away")},
    fixture.{_column(Fixture, "third")}, tournament.{_column(Tournament, "id")},
    tournament.{_column(Tournament, "club")}, tournament.{_column(Tournament, "public")},
    seated.{_column(EntrantPlayer, "entrant")}, seated.{_column(EntrantPlayer, "position")},
    player.{_column(Player, "user")}, fixture.{_column(Fixture, "stage")},
    fixture.{_column(Fixture, "round")}, tournament.{_column(Tournament, "silent_from_round")}
FROM {Fixture._meta.db_table} AS fixture
JOIN {Tournament._meta.db_table} AS tournament
    ON tournament.{_column(Tournament, "id")} = fixture.{_column(Fixture, "tournament")}
LEFT JOIN {EntrantPlayer._meta.db_table} AS seated
    ON seated.{_column(EntrantPlayer, "entrant")} IN (
        fixture.{_column(Fixture, "home")}, fixture.{_column(Fixture, "away")},
        fixture.{_column(Fixture, "third")}
    )
LEFT JOIN {Player._meta.db_table} AS player
    ON player.{_column(Player, "id")} = seated.{_column(EntrantPlayer, "player")}
WHERE fixture.{_column(Fixture, "match_id")} = %s
"""  # noqa: S608 - constant table names; values are bound
"""A tournament match's place in one round trip: the fixture, its tournament, and one row per
player of its entrants (none when no entrant has players)."""


def fixture_place(match_id: UUID, not_found: Callable[[], Exception]) -> Place | None:
    """The place of a tournament's match; None for a match no tournament created."""
    with connection.cursor() as cursor:
        cursor.execute(FIXTURE_PLACE, [match_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    table, status, home_id, away_id, third_id, tournament_id, club_id, public = rows[0][:8]
    sides = [home_id, away_id] if third_id is None else [home_id, away_id, third_id]
    seats = seats_of_players(sides, [row[8:11] for row in rows if row[10] is not None])
    stage, round_number, silent_from_round = rows[0][11:]
    return Place(
        not_found=not_found,
        tournament_id=tournament_id,
        club_id=club_id,
        public=public,
        table=table,
        open=status != FixtureStatus.RESET,
        silent_match=hides(silent_from_round, stage, round_number),
        player_seats=seats,
        player_sides={
            user_id: frozenset(seat % len(sides) for seat in held)
            for user_id, held in seats.items()
        },
    )


def player_seats(*entrant_ids: int) -> dict[int, frozenset[int]]:
    """Each player's seats (by user id) at a match of these entrants, in side order (two sides,
    or three at a table of three: seat `side + sides x position`, as the match seats them)."""
    rows = EntrantPlayer.objects.filter(
        entrant_id__in=entrant_ids, player__user__isnull=False
    ).values_list("entrant_id", "position", "player__user_id")
    return seats_of_players(entrant_ids, rows)


def seats_of_players(
    entrant_ids: Sequence[int], rows: Iterable[Sequence[Any]]
) -> dict[int, frozenset[int]]:
    """Each player's seats from (entrant, position, user) rows of the entrants' players."""
    sides = {entrant_id: side for side, entrant_id in enumerate(entrant_ids)}
    seats: dict[int, set[int]] = defaultdict(set)
    for entrant_id, position, user_id in rows:
        seats[user_id].add(sides[entrant_id] + len(entrant_ids) * position)
    return {user_id: frozenset(held) for user_id, held in seats.items()}


class TournamentAccess(PlaceAccess):
    """For views under /tournaments/{tournament_id}/."""

    @override
    def place(self, request: Request, view: APIView) -> Place:
        return tournament_place(view.kwargs["tournament_id"])


class TournamentCreateAccess(Authenticated):
    """Anyone lists tournaments; a signed-in user creates one, in a club they organize
    (`club_for_new_tournament`, once the body names the club)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().has_permission(request, view)


def club_for_new_tournament(user: Any, slug: str | None) -> Club | None:
    """The club a new tournament belongs to: the one named, which the user must organize, or
    the only club they organize. A superuser may create a tournament of no club."""
    if slug is not None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise InvalidTournament.because(gettext_noop("there is no club %(club)r"), club=slug)
        if not (is_superuser(user) or has_role(user, Role.ORGANIZER, club_id=club.pk)):
            raise denied(
                gettext_noop("only the organizers of %(club)s create its tournaments"),
                club=club.name,
            )
        return club
    clubs = list(
        Club.objects.filter(
            role_grants__user_id=user.pk, role_grants__role=Role.ORGANIZER
        ).distinct()[:2]
    )
    if len(clubs) == 1:
        return clubs[0]
    if len(clubs) > 1:
        raise InvalidTournament.because(
            gettext_noop("you organize several clubs: name the tournament's `club`")
        )
    if is_superuser(user):
        return None
    raise denied(gettext_noop("only a club's organizers create tournaments"))


class PublicRead(BasePermission):
    """Views anybody reads (the ratings: only public results are rated); they answer GET only
    (any other method: 405)."""

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        return True
