"""Page views: thin adapters that read through selectors and render templates."""

from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import selectors


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list(reader=request.user)
    return render(request, "tournaments/tournament_list.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, tournament_id: UUID) -> HttpResponse:
    tournament = get_object_or_404(selectors.tournament_list(reader=request.user), id=tournament_id)
    return render(request, "tournaments/tournament_detail.html", {"tournament": tournament})
