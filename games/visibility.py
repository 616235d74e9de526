"""Who sees what of a match: the one place that decides which hands a reader is shown.

A round dealt by the server knows every hand, and Briscola is a game of hidden hands: while the
round is played a player sees only the hands of the seats they play at, and their partners' too
once the stock is empty (`RoundState.partners_may_show_hands`, at tables of four and six). The
cards already played are public; the deck's order (the stock) is never shown while the round is
played. Once the round is over (finished or voided), everybody sees the hands as they were dealt,
and the replay shows every card. A physical round knows no hands, so it hides nothing.

Every read of the API goes through here, with the `Viewer` that `viewer_of` resolves for the
requester: the selectors compute what a viewer sees, the views only pass the viewer along.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from accounts.permissions import Place, is_organizer, is_superuser
from games.access import match_place, seats_of
from games.matches.execution import MatchNotFound
from games.matches.projections import MATCH_STREAM
from games.matches.stream.events import MATCH_EVENT_TYPES, RoundStarted, match_event_from_stored
from games.models import RoundStatus
from games.rules.cards import Card
from games.rules.replay import fold_events
from games.rules.round_state import RoundState

HandsView = dict[str, list[str]]
"""Hands by seat (a JSON object's keys are strings: `"0"`), each in canonical card order."""

DECK_FIELD = "deck"
"""The field of a match's RoundStarted payload that records a dealt round's deck order."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Someone reading a match: the seats they play at, or an organizer who sees everything."""

    seats: frozenset[int] = frozenset()
    sees_everything: bool = False

    @classmethod
    def at_seats(cls, seats: Iterable[int]) -> Viewer:
        return cls(seats=frozenset(seats))


PUBLIC = Viewer()
"""Anybody: sees the cards once they are played, the hands once the round is over."""

EVERYTHING = Viewer(sees_everything=True)
"""Sees every hand at all times (an organizer, a superuser)."""


def viewer_of(user: Any, match_id: UUID, place: Place | None = None) -> Viewer:
    """The viewer `user` is for the match `match_id` (at `place`, when the caller found it
    already): superusers, the match's organizers and the creator of a free-standing match see
    everything; a player sees their seats; anybody else what the public sees."""
    if is_superuser(user):
        return EVERYTHING
    if place is None:
        try:
            place = match_place(match_id)
        except MatchNotFound:
            return PUBLIC
    if is_organizer(user, place):  # the creator of a free-standing match too
        return EVERYTHING
    seats = seats_of(user, place)
    return Viewer.at_seats(seats) if seats else PUBLIC


def round_is_over(status: str) -> bool:
    """A round finished or voided shows its hands to everybody."""
    return status != RoundStatus.IN_PROGRESS


def seats_seen(viewer: Viewer, cards: RoundState) -> frozenset[int]:
    """The seats whose current hand `viewer` sees while the round is played: their own, and
    their partners' once the stock is empty."""
    table = cards.table
    if viewer.sees_everything:
        return frozenset(table.seats)
    own = frozenset(seat for seat in viewer.seats if seat in table.seats)
    if not cards.partners_may_show_hands:
        return own
    sides = {table.side_of(seat) for seat in own}
    return frozenset(seat for seat in table.seats if table.side_of(seat) in sides)


def initial_hands(cards: RoundState) -> tuple[tuple[Card, ...], ...]:
    """The hands as dealt, before any card was played or drawn."""
    hands = fold_events([cards.setup.started]).hands
    if hands is None:
        raise RuntimeError("only a dealt round has hands")
    return hands


def visible_hands(viewer: Viewer, cards: RoundState | None, *, over: bool) -> HandsView | None:
    """The hands `viewer` sees of a round whose card-by-card state is `cards`.

    None when no hands are known (a physical round, a round scored by points). While the round
    is played (`over` false): the current hands of `seats_seen`. Once it is over: every seat's
    hand as dealt, for everybody.
    """
    if cards is None or cards.hands is None:
        return None
    if over:
        return hands_view(initial_hands(cards), cards.table.seats)
    return hands_view(cards.hands, seats_seen(viewer, cards))


def hands_view(hands: tuple[tuple[Card, ...], ...], seats: Iterable[int]) -> HandsView:
    return {str(seat): [card.code for card in hands[seat]] for seat in sorted(seats)}


def reveals_deck(*, stream_type: str, event_type: str, payload: Mapping[str, Any]) -> bool:
    """Whether an event records a dealt round's deck (the start of a round dealt by the server).
    Only a round's start is decoded: the others are known by the class their type reads into."""
    if stream_type != MATCH_STREAM or MATCH_EVENT_TYPES.get(event_type) is not RoundStarted:
        return False
    started = match_event_from_stored(event_type, payload)
    return isinstance(started, RoundStarted) and started.deck is not None


def visible_payload(
    viewer: Viewer, *, stream_type: str, event_type: str, payload: Mapping[str, Any]
) -> dict[str, Any]:
    """An event's payload as `viewer` may read it: a dealt round's deck is shown only to a viewer
    who sees everything (null for the others, even after the round: the replay shows its hands).
    """
    shown = dict(payload)
    if not viewer.sees_everything and reveals_deck(
        stream_type=stream_type, event_type=event_type, payload=payload
    ):
        shown[DECK_FIELD] = None
    return shown
