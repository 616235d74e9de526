"""Public pages: the home page lists the tournaments its visitor may read."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import lookup

HOME_TOURNAMENTS = 50
"""The newest this many; the API lists them all (`GET /api/v1/tournaments/`)."""


def home(request: HttpRequest) -> HttpResponse:
    tournaments = lookup.tournament_list(reader=request.user)[:HOME_TOURNAMENTS]
    return render(request, "home.html", {"tournaments": tournaments})
