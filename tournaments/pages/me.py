"""The player's own page, `/me/#key=KEY` (issue 26 §2, decision record 0055): phone first, a
shell whose script (tournaments/static/tournaments/me.js) keeps the player key on the phone (the
fragment never reaches the server), reads `GET /api/v1/me/` with it, follows the tournament's
feed to show a call the moment it is made, and sends the player's check-in, withdrawal,
confirmation and dispute. The server renders only the words, in the page's language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext


def me(request: HttpRequest) -> HttpResponse:
    response = render(request, "tournaments/me.html", {"strings": page_strings()})
    response["Cache-Control"] = "no-store"
    return response


def page_strings() -> dict[str, str]:
    """The words the script shows, in the page's language (no JavaScript catalogue)."""
    return {
        "status_entered": gettext("You are in."),
        "status_waitlisted": gettext("You are on the waiting list, number %(position)s."),
        "status_pending": gettext("The organizer will confirm your place."),
        "status_declined": gettext("The organizer declined your application."),
        "status_withdrawn": gettext("You have withdrawn."),
        "checked_in": gettext("You are checked in."),
        "check_in_open": gettext("Check-in is open: tell the organizer you are here."),
        "tournament_registration": pgettext("tournament", "Registration"),
        "tournament_in_progress": pgettext("tournament", "In progress"),
        "tournament_finished": pgettext("tournament", "Finished"),
        "called": gettext("Called to table %(table)s"),
        "at_table": gettext("Your match is at table %(table)s: wait to be called."),
        "no_table": gettext("Your match has no table yet."),
        "playing": gettext("Playing at table %(table)s"),
        "opponents": gettext("Against: %(names)s"),
        "round": pgettext("tournament round", "Round %(number)s"),
        "no_match": gettext("No match for you right now."),
        "won": pgettext("outcome", "Won"),
        "lost": pgettext("outcome", "Lost"),
        "tied": pgettext("outcome", "Tied"),
        "score": gettext("Rounds %(rounds)s, points %(points)s"),
        "confirmed": gettext("You confirmed this result."),
        "disputed": gettext("You dispute this result: %(reason)s"),
        "place": gettext("Your place in the standings: %(place)s"),
        "no_key": gettext(
            "This phone has no player key. Open the link or scan the code you were given when "
            "you signed up."
        ),
        "revoked": gettext("This player key was revoked: ask the organizer for a new one."),
        "offline": gettext("No network: what you see may be out of date."),
        "reason_needed": gettext("Say why."),
        "sound_on": gettext("Sound on"),
        "sound_off": gettext("Sound off"),
        "byes_requested": gettext("You sit out round(s) %(rounds)s (a requested bye)."),
        "paused": gettext("The organizer marked you absent: you are not drawn until you are back."),
        "bye_ask": gettext("Sit out round %(round)s (a requested bye)"),
    }
