"""A tournament's entrants ordered by their players' ratings, for a seeding by rating.

An entrant's strength is the mean of its players' displayed ratings (mu - 3 sigma) in the
tournament's club, overall for a tournament of no club; an unrated player counts as a new one
(0); player rows linked to one account are one person. Equal strengths keep the order of the
given seeds. The order is recorded in the `EntrantsSeeded` event, so a replay never reads the
ratings (decision record 0036).
"""

from __future__ import annotations

from uuid import UUID

from tournaments.models import EntrantPlayer, PlayerRating, Tournament
from tournaments.ratings.maths import Rating, team_ordinal
from tournaments.selectors.people import people
from tournaments.state import TournamentState
from tournaments.stream.entrant_checks import entrant_order


def rating_order(*, tournament_id: UUID, state: TournamentState) -> tuple[int, ...]:
    """The active entrants, strongest first."""
    given = entrant_order(state, method="given", random_seed=None)
    club_id = Tournament.objects.filter(id=tournament_id).values_list("club_id", flat=True)[0]
    known = people()
    players: dict[int, list[int]] = {}
    for entrant, player in EntrantPlayer.objects.filter(entrant_id__in=given).values_list(
        "entrant_id", "player_id"
    ):
        players.setdefault(entrant, []).append(known.get(player, player))
    scoped = {"club_id": club_id} if club_id is not None else {"club__isnull": True}
    rows = PlayerRating.objects.filter(
        player_id__in=[p for team in players.values() for p in team], **scoped
    )
    ratings = {row.player_id: Rating(row.mu, row.sigma) for row in rows}
    strength = {entrant: team_ordinal(players.get(entrant, []), ratings) for entrant in given}
    return tuple(sorted(given, key=lambda entrant: -strength[entrant]))


def rating_order_due(*, tournament_id: UUID, state: TournamentState) -> tuple[int, ...] | None:
    """At the start: the order by rating when the tournament is seeded by rating and no
    seeding was fixed before; None otherwise."""
    if state.settings.seeding != "rating" or state.seeding is not None:
        return None
    return rating_order(tournament_id=tournament_id, state=state)
