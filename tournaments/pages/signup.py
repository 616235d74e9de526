"""The public sign-up page (issue 26 §1, decision record 0053): phone first, a form that posts
to the same services as `POST .../registrations/`, a honeypot field, and the player key shown
once, with its QR code, kept in the browser by a small static script (sign_up.js)."""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from common.actors import Actor
from common.exceptions import status_for, translated_detail
from common.observability import current_request_id
from tournaments.api.signup import SignUpThrottle
from tournaments.errors import TournamentError
from tournaments.models.signup import PLAYER_KEY_PREFIX
from tournaments.pages.views import readable_tournament
from tournaments.selectors.signup import registration_of
from tournaments.services import signup
from tournaments.services.table_cards import qr_svg
from tournaments.stream.commands import PLAYERS_PER_ENTRANT

HONEYPOT = "website"
"""A field people never see nor fill (hidden by the style sheet, out of the tab order): a form
that comes back with it filled was filled by a robot, which is answered as if accepted and
records nothing."""

STATUS_TEXT = {
    "entered": gettext_lazy("You are in: your place is confirmed."),
    "waitlisted": gettext_lazy("The tournament is full: you are on the waiting list."),
    "pending": gettext_lazy("The organizer will confirm your place."),
}


def player_page_url(request: HttpRequest, key: str) -> str:
    """Where the player's own page will be (issue 26 §2): the key in the fragment, never sent."""
    return request.build_absolute_uri("/me/") + f"#key={key}"


def sign_up(request: HttpRequest, tournament_id: UUID) -> HttpResponse:
    tournament = readable_tournament(request, tournament_id)
    players_needed = PLAYERS_PER_ENTRANT[tournament.table_size]
    context: dict[str, Any] = {
        "tournament": tournament,
        "open": tournament.status == "registration"
        and registration_of(tournament.settings).accepts(timezone.now()),
        "players_needed": players_needed,
        "player_fields": range(1, players_needed + 1) if players_needed > 1 else (),
        "honeypot": HONEYPOT,
        "name_max": 200,
        "given": {},
    }
    if request.method != "POST":
        return render(request, "tournaments/sign_up.html", context)
    throttle = SignUpThrottle()
    if not throttle.allow_request(request, None):
        context["error"] = {"code": "throttled", "detail": gettext("Too many sign-ups: try later.")}
        return render(request, "tournaments/sign_up.html", context, status=429)
    name = request.POST.get("name", "").strip()
    players = [request.POST.get(f"player_{n}", "").strip() for n in context["player_fields"]]
    contact = request.POST.get("contact", "").strip()[:200]
    context["given"] = {"name": name, "players": players, "contact": contact}
    if request.POST.get(HONEYPOT):
        # A robot: answered as if accepted, with a key that opens nothing; nothing recorded.
        decoy = PLAYER_KEY_PREFIX + secrets.token_urlsafe(32)
        return answered(request, context, status="entered", key=decoy, position=None)
    try:
        signed_up = signup.application_submit(
            tournament_id=tournament.id,
            name=name,
            players=players or None,
            contact=contact,
            actor=Actor(user_id=request.user.pk, correlation_id=current_request_id()),
        )
    except TournamentError as refused:
        context["error"] = {"code": refused.code, "detail": translated_detail(refused)}
        return render(request, "tournaments/sign_up.html", context, status=status_for(refused.code))
    return answered(
        request,
        context,
        status=signed_up.status.value,
        key=signed_up.player_key,
        position=signed_up.position,
    )


def answered(
    request: HttpRequest, context: dict[str, Any], *, status: str, key: str, position: int | None
) -> HttpResponse:
    url = player_page_url(request, key)
    context |= {
        "result": {
            "status": status,
            "text": STATUS_TEXT[status],
            "position": position,
            "key": key,
            "me_url": url,
            "qr": mark_safe(qr_svg(url, label=gettext("Your player key as a QR code"))),  # noqa: S308 - drawn by us, the label escaped
        }
    }
    response = render(request, "tournaments/sign_up.html", context, status=201)
    response["Cache-Control"] = "no-store"
    return response
