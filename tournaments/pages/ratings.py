"""The rating pages: a club's leaderboard, the charts on a player's page and the rating
changes on a match page (decision record 0036)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from common.parsing import ascii_int
from tournaments.errors import ClubNotFound
from tournaments.models import Player
from tournaments.pages.rating_chart import chart
from tournaments.ratings import selectors as rating_selectors
from tournaments.selectors.lookup import club_get


def min_matches_asked(request: HttpRequest) -> int:
    """The `min_matches` of the query, the default when absent or not a whole number >= 0."""
    number = ascii_int(request.GET.get("min_matches"))
    return rating_selectors.DEFAULT_MIN_MATCHES if number is None else number


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        club = club_get(slug)
    except ClubNotFound:
        raise Http404("no such club") from None
    min_matches = min_matches_asked(request)
    board = rating_selectors.club_leaderboard(
        club=club, reader=request.user, min_matches=min_matches
    )
    context = {"club": club, "board": board, "min_matches": min_matches}
    return render(request, "tournaments/club_ratings.html", context)


def rating_charts(player: Player) -> list[dict[str, Any]]:
    """Per scope (overall first, then each club): its name, current rating and chart."""
    charts = []
    for scope in rating_selectors.player_scopes(player=player):
        values = [change.rating_after for change in scope.history]
        if scope.history:
            values.insert(0, scope.history[0].rating_before)
        charts.append(
            {
                "club": scope.club,
                "rating": scope.current.rating,
                "matches": scope.current.matches,
                "chart": chart(values),
                "last": scope.history[-1] if scope.history else None,
            }
        )
    return charts


def match_ratings_section(match_id: UUID, reader: Any) -> str:
    """The match page's lines of rating changes, as `reader` may see the players; empty while
    the match is not rated."""
    changes = rating_selectors.match_rating_changes(match_id=match_id, reader=reader)
    if not changes:
        return ""
    return render_to_string("tournaments/_match_ratings.html", {"changes": changes})
