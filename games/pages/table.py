"""The table page: a scorer enters a physical round card by card, or its points, from a tablet.

The page is a shell: its script (games/static/games/table.js) reads and writes the match only
through the REST API, with the device key from the URL's fragment or the signed-in session.
The server renders what needs no permission: the deck of the match's table and the words of
the page in its language.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext

from games.matches import selectors
from games.matches.execution import MatchNotFound
from games.rules.cards import EXTRA_RANKS, FRENCH_EIGHT, FRENCH_NINE, RANKS, SUITS, Card, card_text
from games.rules.tables import Table
from games.rules.variants import Variant


def table(request: HttpRequest) -> HttpResponse:
    match_id = match_id_of(request.GET.get("match"))
    context: dict[str, Any] = {"match_id": match_id, "strings": page_strings()}
    if match_id is not None:
        context |= deck_context(match_id)
    return render(request, "games/table.html", context)


def match_id_of(value: str | None) -> UUID | None:
    if not value:
        return None
    try:
        return UUID(value)
    except ValueError:
        return None


def deck_context(match_id: UUID) -> dict[str, Any]:
    """The deck of the match's table, each card with what the page needs to follow a trick
    while the network is down; nothing for an unknown match (the API will say so)."""
    try:
        match = selectors.match_get(match_id=match_id)
    except MatchNotFound:
        return {}
    variant = Variant.from_recorded(match.variant)
    deck = Table(match.table_size, variant).deck
    ranks = rank_columns(deck)
    return {
        "table_size": match.table_size,
        "seats": range(match.table_size),
        "deck": [
            deck_card(card, variant, ranks[card.rank])
            for card in sorted(deck, key=lambda card: (SUITS.index(card.suit), ranks[card.rank]))
        ],
        "deck_columns": max(ranks.values()),
        "deck_names": variant.deck_names,
    }


DISPLAY_ORDER = (1, 2, 3, 4, 5, 6, 7, FRENCH_EIGHT, FRENCH_NINE, 8, 9, 10)


def rank_columns(deck: tuple[Card, ...]) -> dict[int, int]:
    """The grid column of each rank (from 1): a suit to a row, its ranks in their printed order
    (the French eight and nine of the 48-card deck before the jack), a gap for a removed card."""
    extras = any(card.rank in EXTRA_RANKS for card in deck)
    shown = [rank for rank in DISPLAY_ORDER if rank in RANKS or extras]
    return {rank: column for column, rank in enumerate(shown, start=1)}


def deck_card(card: Card, variant: Variant, column: int) -> dict[str, Any]:
    return {
        "code": card.code,
        "typed": card_text(card, variant.deck_names),  # what the API reads at this table
        "suit": str(card.suit),
        "points": card.points,
        "strength": variant.strength_of(card),
        "column": column,
    }


def page_strings() -> dict[str, str]:
    """The words the script shows, in the page's language (no JavaScript catalogue)."""
    return {
        "seat": gettext("Seat %(seat)s"),
        "seat_of": gettext("Seat %(seat)s: %(side)s"),
        "turn": gettext("To play: %(seat)s"),
        "trick_taken": gettext("Trick %(number)s taken by %(seat)s (%(points)s points)"),
        "round_title": gettext("Round %(number)s"),
        "round_won": gettext("Round %(number)s won by %(side)s, %(points)s"),
        "round_tied": gettext("Round %(number)s tied, %(points)s: it is played again"),
        "round_tied_counted": gettext("Round %(number)s tied, %(points)s: nobody wins it"),
        "round_voided": gettext("Round %(number)s was voided: %(reason)s"),
        "needs_wins": gettext("%(side)s needs %(wins)s more round win(s)"),
        "needs_rounds": gettext("%(rounds)s round(s) left to play"),
        "deciding_round": gettext(
            "Deciding round: the match is level after its %(rounds)s rounds; one more round "
            "decides it (a tied one is played again)."
        ),
        "deciding_round_one": gettext(
            "Deciding round: the match is level after its round; one more round decides it "
            "(a tied one is played again)."
        ),
        "match_result_won": gettext("Match over: %(side)s wins %(score)s"),
        "match_result_level": gettext("Match over: no winner, %(score)s"),
        "match_result_forfeit": gettext("Match over: %(side)s wins, %(loser)s forfeited"),
        "confirmed": gettext("Confirmed by %(sides)s"),
        "disputed": gettext("Disputed by %(sides)s"),
        "disputed_because": gettext("Disputed by %(side)s: %(reason)s"),
        "queued": gettext("waiting to be sent"),
        "offline": gettext("No network: cards are kept on this device and sent when it returns."),
        "refused": gettext("A waiting card was refused: %(detail)s"),
        "discard": gettext("Discard the waiting cards"),
        "no_access": gettext(
            "This device has no key. Open the link on the table card, or sign in."
        ),
        "no_matches": gettext("There is no match for you to score."),
        "choose_play": gettext("Choose the card to correct, then tap the card actually played."),
        "choose_new_card": gettext("Now tap the card actually played instead of %(card)s."),
        "choose_round": gettext("Choose the round whose card was recorded wrongly."),
        "choose_card_then_why": gettext(
            "The card actually played: %(card)s. Say why, then correct the card."
        ),
        "points_total": gettext("The points must total 120."),
        "reason_needed": gettext("Say why."),
        "other_side": gettext("%(side)s: %(points)s"),
        "wins": gettext("Rounds won: %(wins)s"),
        "round_points": pgettext("card points", "This round:"),
        "running_total": pgettext("card points", "In all:"),
        "tournament_table": gettext("%(tournament)s, table %(table)s"),
        "status_not_started": pgettext("match status", "not started"),
        "status_in_progress": pgettext("match status", "in progress"),
        "status_finished": pgettext("match status", "finished"),
        "side_name": gettext("Side %(side)s"),
        "confirm": gettext("Confirm for %(side)s"),
        "dispute": gettext("Dispute for %(side)s"),
        "points_for": gettext("Points of %(side)s"),
    }
