"""Page views: thin adapters that read through selectors and render templates."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def table(request: HttpRequest) -> HttpResponse:
    return render(request, "games/table.html")
