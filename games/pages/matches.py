"""The match page and the card-by-card replay of a round.

Who may read them is the API's rule for `GET /api/v1/matches/{id}/` (accounts.permissions, READ
at the match's place): a private tournament's match is not found by outsiders. The hands shown
are those the API's replay shows the same viewer (games.visibility).
"""

from __future__ import annotations

from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from accounts.permissions import Action, Place, refusal
from common.parsing import ascii_int
from games.access import match_place
from games.match_sections import match_sections
from games.matches.execution import MatchNotFound
from games.matches.stream.errors import RoundNotFound
from games.pages.selectors import match_page, round_replay_page
from games.rules.errors import InvalidInput
from games.visibility import viewer_of


def readable_place(request: HttpRequest, match_id: UUID) -> Place:
    """The match's place, if the requester may read the match; 404 otherwise, as in the API."""
    try:
        place = match_place(match_id)
    except MatchNotFound:
        raise Http404("no such match") from None
    if refusal(request.user, None, Action.READ, place) is not None:
        raise Http404("no such match")
    return place


def match_detail(request: HttpRequest, match_id: UUID) -> HttpResponse:
    readable_place(request, match_id)
    page = match_page(match_id=match_id)
    # Each section is HTML its app rendered from its own template, escaped there.
    sections = [mark_safe(html) for html in match_sections(match_id, request.user)]  # noqa: S308
    return render(request, "games/match.html", {"page": page, "sections": sections})


def round_replay(request: HttpRequest, match_id: UUID, round_number: int) -> HttpResponse:
    place = readable_place(request, match_id)
    upto = step_asked(request)
    try:
        page = round_replay_page(
            match_id=match_id,
            round_number=round_number,
            upto=upto,
            viewer=viewer_of(request.user, match_id, place),
        )
    except (RoundNotFound, MatchNotFound):
        raise Http404("no such round") from None
    except InvalidInput:
        raise Http404("no such step in this round") from None
    return render(request, "games/round_replay.html", {"page": page})


def step_asked(request: HttpRequest) -> int | None:
    """`?upto=K`: the cards to replay; None (all of them) when absent; 404 when not a number."""
    value = request.GET.get("upto")
    if value is None or value == "":
        return None
    number = ascii_int(value)
    if number is None:
        raise Http404("upto is a number of cards")
    return number
