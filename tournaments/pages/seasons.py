"""The season pages: a club's seasons, and a season's standings over its tournaments
(decision record 0037)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.errors import ClubNotFound, SeasonNotFound
from tournaments.seasons import selectors as season_selectors


def club_seasons(request: HttpRequest, club_slug: str) -> HttpResponse:
    try:
        club, lines = season_selectors.club_season_lines(club_slug=club_slug)
    except ClubNotFound:
        raise Http404("no such club") from None
    return render(request, "tournaments/club_seasons.html", {"club": club, "lines": lines})


def season_detail(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    try:
        season = season_selectors.season_of(club_slug=club_slug, season_slug=season_slug)
    except (ClubNotFound, SeasonNotFound):
        raise Http404("no such season") from None
    standings = season_selectors.standings_of(season, reader=request.user)
    columns = [str(line.id) for line in standings.tournaments]
    rows: list[dict[str, Any]] = []
    for row in standings.rows:
        by_tournament = {result.tournament: result for result in row.results}
        rows.append({"row": row, "cells": [by_tournament.get(column) for column in columns]})
    context = {
        "season": season,
        "club": season.club,
        "table": standings.table,
        "tournaments": standings.tournaments,
        "rows": rows,
        "running": any(not line.counted for line in standings.tournaments),
    }
    return render(request, "tournaments/season_detail.html", context)
