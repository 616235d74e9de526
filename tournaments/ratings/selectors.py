"""Rating reads: a club's leaderboard, a player's ratings with their history, and what one
match changed (decision record 0036). Every rating is public: only public tournaments' results
are rated. But a rating is kept under its person's first row (`tournaments.selectors.people`), which
may be a private one: each read shows its reader the person by a row they may know of
(`tournaments.selectors.players`, decision record 0043)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from accounts.models import Club
from tournaments.models import Player, PlayerRating, RatingChange, Tournament
from tournaments.selectors.people import people
from tournaments.selectors.players import persons_shown
from tournaments.services.erasure import ERASED_PLAYER

DEFAULT_MIN_MATCHES = 5
"""A player appears on a club's leaderboard after this many rated matches there."""


def player_name(player: Player) -> str:
    return ERASED_PLAYER if player.erased else player.name


def club_leaderboard(
    *, club: Club, reader: Any, min_matches: int = DEFAULT_MIN_MATCHES
) -> list[dict[str, Any]]:
    """The club's rated players with at least `min_matches` matches, best rating first, each by
    a row `reader` may know of (a person they may know of by none is left out); equal ratings
    share a rank."""
    rows = list(
        PlayerRating.objects.filter(club=club, matches__gte=min_matches).order_by(
            "-rating", "player_id"
        )
    )
    shown = persons_shown(persons=[row.player_id for row in rows], reader=reader)
    board: list[dict[str, Any]] = []
    for row in rows:
        player = shown.get(row.player_id)
        if player is None:
            continue
        tied = board and board[-1]["rating"] == row.rating
        board.append(
            {
                "rank": board[-1]["rank"] if tied else len(board) + 1,
                "player": player.id,
                "name": player_name(player),
                "mu": row.mu,
                "sigma": row.sigma,
                "rating": row.rating,
                "matches": row.matches,
            }
        )
    return board


@dataclass(frozen=True)
class ScopeRatings:
    club: Club | None
    current: PlayerRating
    history: list[RatingChange]


def player_scopes(*, player: Player) -> list[ScopeRatings]:
    """The player's rating overall first, then in each club by name, each with its history
    (oldest match first). The rows of one account are one person: any of them reads the
    ratings of the first."""
    person = people().get(player.id, player.id)
    currents = PlayerRating.objects.filter(player_id=person).select_related("club")
    changes = RatingChange.objects.filter(player_id=person).order_by("position")
    by_scope: dict[int | None, list[RatingChange]] = {}
    for change in changes:
        by_scope.setdefault(change.club_id, []).append(change)
    return [
        ScopeRatings(row.club, row, by_scope.get(row.club_id, []))
        for row in sorted(
            currents, key=lambda r: (r.club is not None, r.club.name if r.club else "")
        )
    ]


def player_ratings(*, player: Player) -> dict[str, Any]:
    """What the API answers for a player: their ratings overall and per club, with history."""
    scopes = player_scopes(player=player)
    tournaments = tournament_names(
        {change.tournament_id for scope in scopes for change in scope.history}
    )
    return {
        "player": player.id,
        "name": player_name(player),
        "ratings": [
            {
                "club": None if scope.club is None else scope.club.slug,
                "club_name": None if scope.club is None else scope.club.name,
                "mu": scope.current.mu,
                "sigma": scope.current.sigma,
                "rating": scope.current.rating,
                "matches": scope.current.matches,
                "history": [
                    {
                        "match_id": change.match_id,
                        "tournament": change.tournament_id,
                        "tournament_name": tournaments.get(change.tournament_id, ""),
                        "rating_before": change.rating_before,
                        "rating_after": change.rating_after,
                        "mu": change.mu_after,
                        "sigma": change.sigma_after,
                    }
                    for change in scope.history
                ],
            }
            for scope in scopes
        ],
    }


def tournament_names(ids: set[UUID]) -> dict[UUID, str]:
    return dict(Tournament.objects.filter(id__in=ids).values_list("id", "name"))


def match_rating_changes(*, match_id: UUID, reader: Any) -> list[dict[str, Any]]:
    """Each player's rating change in the match, in the tournament's club (or overall when the
    tournament has no club), each player by a row `reader` may know of: empty while the match
    is not rated."""
    changes = list(RatingChange.objects.filter(match_id=match_id))
    club_ids = {change.club_id for change in changes}
    scope = next((club for club in club_ids if club is not None), None)
    in_scope = [change for change in changes if change.club_id == scope]
    shown = persons_shown(persons=[change.player_id for change in in_scope], reader=reader)
    lines = [
        {
            "player": shown[change.player_id].id,
            "name": player_name(shown[change.player_id]),
            "before": change.rating_before,
            "after": change.rating_after,
            "change": change.rating_after - change.rating_before,
        }
        for change in in_scope
        if change.player_id in shown
    ]
    return sorted(lines, key=lambda line: line["player"])
