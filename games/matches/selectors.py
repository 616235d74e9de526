"""Reads of matches, rounds, replays and the event log. Plain functions, keyword-only."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.utils.translation import gettext_noop

from games.eventstore.api import RecordedEvent, read_all, read_stream
from games.eventstore.models import Event
from games.matches.execution import MatchNotFound
from games.matches.projections import MATCH_STREAM, round_row
from games.matches.stream.errors import RoundNotFound
from games.matches.stream.state import MatchAggregate, MatchRound
from games.models import Match, MatchSide, Round, RoundStatus
from games.rules.cards import parse_card
from games.rules.commands import StartRound
from games.rules.errors import InvalidInput
from games.rules.replay import legal_cards, replay_round
from games.rules.round_state import RoundState
from games.rules.tricks import Play, Trick
from games.rules.variants import Variant
from games.side_names import registered_side_namers, unnamed_side
from games.visibility import (
    PUBLIC,
    HandsView,
    Viewer,
    reveals_deck,
    round_is_over,
    visible_hands,
    visible_payload,
)

MAX_LOG_PAGE = 1000


def match_get(*, match_id: UUID) -> Match:
    match = Match.objects.prefetch_related("rounds").filter(id=match_id).first()
    if match is None:
        raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
    return match


def side_names_of(*, matches: Iterable[Match]) -> dict[UUID, list[str]]:
    """The names of each match's sides, side 0 first, from the ordinary tables: a free-standing
    match's from `MatchSide`, the others from the app their sides refer to (a tournament's
    entrants). Never from the events."""
    refs = {match.id: list(match.sides) for match in matches}
    if not refs:
        return {}
    named: dict[UUID, list[str]] = {}
    rows = MatchSide.objects.filter(match_id__in=list(refs)).order_by("match_id", "side")
    for row in rows:
        named.setdefault(row.match_id, []).append(row.name)
    for namer in registered_side_namers():
        unnamed = {match_id: sides for match_id, sides in refs.items() if match_id not in named}
        if not unnamed:
            break
        named.update(
            (match_id, list(names))
            for match_id, names in namer.names(unnamed).items()
            if match_id in unnamed
        )
    return {
        match_id: named.get(match_id) or [unnamed_side(side) for side in range(len(sides))]
        for match_id, sides in refs.items()
    }


def match_side_names(*, match: Match) -> list[str]:
    if match.side_names is not None:
        return match.side_names
    return side_names_of(matches=[match])[match.id]


def with_side_names(*, matches: Iterable[Match]) -> list[Match]:
    """The matches with their `side_names` resolved (in two or three queries for them all)."""
    listed = list(matches)
    names = side_names_of(matches=listed)
    for match in listed:
        match.side_names = names[match.id]
    return listed


def matches_named(*, term: str) -> set[UUID]:
    """The ids of the matches with a side whose name contains `term` (case-insensitive)."""
    found = set(MatchSide.objects.filter(name__icontains=term).values_list("match_id", flat=True))
    for namer in registered_side_namers():
        found.update(namer.search(term))
    return found


def round_get(*, match_id: UUID, round_number: int) -> Round:
    match_round = Round.objects.select_related("match").filter(
        match_id=match_id, number=round_number
    )
    found = match_round.first()
    if found is None:
        match_get(match_id=match_id)
        raise RoundNotFound.because(
            gettext_noop("match %(match)s has no round %(round)s"),
            match=match_id,
            round=round_number,
        )
    return found


def trick_view(
    number: int, leader: int, plays: tuple[Play, ...], winner: int | None, points: int | None
) -> dict[str, Any]:
    return {
        "number": number,
        "leader": leader,
        "plays": [play.to_list() for play in plays],
        "winner": winner,
        "points": points,
    }


def tricks_of(state: RoundState) -> list[dict[str, Any]]:
    """Completed tricks, then the trick on the table (winner and points null) if any."""
    views = [
        trick_view(n, trick.leader, trick.plays, trick.winner, trick.points)
        for n, trick in enumerate(state.tricks, start=1)
    ]
    if state.trick:
        views.append(trick_view(len(state.tricks) + 1, state.leader, state.trick, None, None))
    return views


def replayed_cards(match_round: Round, *, upto: int | None = None) -> RoundState | None:
    """The round's card-by-card state after its first `upto` plays (all by default)."""
    if match_round.briscola is None:
        return None
    deck = None if match_round.deck is None else tuple(map(parse_card, match_round.deck))
    start = StartRound(
        table_size=match_round.match.table_size,
        dealer=match_round.dealer_seat,
        briscola=parse_card(match_round.briscola),
        variant=Variant.from_recorded(match_round.match.variant),
        deck=deck,
    )
    plays = [Play.from_list(play) for play in match_round.plays[:upto]]
    return replay_round(start, plays).state


def round_hands(*, match_round: Round, viewer: Viewer = PUBLIC) -> HandsView | None:
    """The hands of a round (a projection row) that `viewer` sees; None if no hands are known."""
    if match_round.deck is None:
        return None
    return visible_hands(
        viewer, replayed_cards(match_round), over=round_is_over(match_round.status)
    )


def match_hands(*, match: Match, viewer: Viewer = PUBLIC) -> dict[int, HandsView | None]:
    """Round number -> the hands `viewer` sees of that round of `match`."""
    return {
        match_round.number: round_hands(match_round=match_round, viewer=viewer)
        for match_round in match.rounds.all()
    }


def folded_round_hands(*, match_round: MatchRound, viewer: Viewer = PUBLIC) -> HandsView | None:
    """The hands `viewer` sees of a round as a command just left it (a folded stream)."""
    return visible_hands(viewer, match_round.cards, over=round_is_over(match_round.status))


def round_replay(
    *, match_id: UUID, round_number: int, upto: int | None = None, viewer: Viewer = PUBLIC
) -> dict[str, Any]:
    """A card-by-card replay of a round, or its state after the first `upto` plays, with the
    hands `viewer` sees at that point (as dealt, once the round is over).

    An `upto` past the cards played so far gives the round as it stands, as a slice would: a
    client following a round in play asks for the cards it has not seen yet, and the answer's
    `plays` says how many there are."""
    match_round = round_get(match_id=match_id, round_number=round_number)
    if upto is not None and upto < 0:
        raise InvalidInput.because(
            gettext_noop("upto is a number of cards, 0 or more, not %(upto)s"), upto=upto
        )
    if upto is not None:
        upto = min(upto, len(match_round.plays))
    cards = replayed_cards(match_round, upto=upto)
    complete = upto is None or upto == len(match_round.plays)
    if cards is None or match_round.points_entered:
        points = match_round.points if complete else []
        return replay_view(
            match_round, [], points, match_round.result if complete else None, hands=None
        )
    outcome = cards.outcome
    hands = visible_hands(viewer, cards, over=round_is_over(match_round.status))
    return replay_view(
        match_round,
        tricks_of(cards),
        list(cards.points),
        None if outcome is None or match_round.status == RoundStatus.VOIDED else outcome.result,
        hands=hands,
        turn=None if match_round.status == RoundStatus.VOIDED else turn_of(cards, hands),
    )


def turn_of(state: RoundState, hands: HandsView | None) -> tuple[int | None, list[str] | None]:
    """The seat on turn and the cards it may play (`legal_cards`). The cards of a round dealt by
    the server are its hand: listed only when the viewer sees that hand."""
    seat = state.seat_on_turn
    if seat is None:
        return None, None
    if state.is_dealt and (hands is None or str(seat) not in hands):
        return seat, None
    return seat, [card.code for card in legal_cards(state)]


def replay_view(
    match_round: Round,
    tricks: list[dict[str, Any]],
    points: list[int],
    result: str | None,
    *,
    hands: HandsView | None,
    turn: tuple[int | None, list[str] | None] | None = None,
) -> dict[str, Any]:
    seat_on_turn, playable = turn or (None, None)
    return {
        "round": match_round.number,
        "status": match_round.status,
        "briscola": match_round.briscola,
        "dealer_seat": match_round.dealer_seat,
        "leader_seat": match_round.leader_seat,
        "tricks": tricks,
        "plays": len(match_round.plays),
        "points": points,
        "result": result,
        "deal": deal_of(match_round),
        "hands": hands,
        "seat_on_turn": seat_on_turn,
        "playable": playable,
    }


def deal_of(match_round: Round) -> str:
    """Who dealt the round: `server` (its deck is recorded) or `table`."""
    return "table" if match_round.deck is None else "server"


@dataclass(frozen=True)
class PlayView:
    play_index: int
    trick: dict[str, Any]
    trick_winner: int | None
    round: Round
    hands: HandsView | None
    """The hands of the round that the viewer sees."""


def play_view(
    *, match_id: UUID, state: MatchAggregate, round_number: int, viewer: Viewer = PUBLIC
) -> PlayView:
    """What a scorer sees after entering a card: where it went and what it decided."""
    match_round = state.round(round_number)
    cards = match_round.cards
    if cards is None:
        raise RuntimeError("a card was played, so the round has cards")
    play_index = len(cards.plays) - 1
    if cards.trick:
        trick = trick_view(len(cards.tricks) + 1, cards.leader, cards.trick, None, None)
        winner = None
    else:
        last: Trick = cards.tricks[-1]
        trick = trick_view(len(cards.tricks), last.leader, last.plays, last.winner, last.points)
        winner = last.winner
    row = round_row(
        match_round, match_id=match_id, replay_of=state.replay_of.get(match_round.number)
    )
    return PlayView(
        play_index=play_index,
        trick=trick,
        trick_winner=winner,
        round=row,
        hands=folded_round_hands(match_round=match_round, viewer=viewer),
    )


ViewerOfMatch = Callable[[UUID], Viewer]


def visible_event(event: RecordedEvent, viewer_of_match: ViewerOfMatch) -> RecordedEvent:
    """The event as the viewer of its match may read it. The viewer is resolved only for the
    events that hide something (a dealt round's start), so a page of the log stays cheap."""
    stream_type, event_type, payload = event.stream_type, event.event_type, event.payload
    if not reveals_deck(stream_type=stream_type, event_type=event_type, payload=payload):
        return event
    viewer = viewer_of_match(event.stream_id)
    shown = visible_payload(viewer, stream_type=stream_type, event_type=event_type, payload=payload)
    return replace(event, payload=shown)


def match_events(*, match_id: UUID, viewer: Viewer = PUBLIC) -> list[RecordedEvent]:
    """The match's events as `viewer` may read them (a dealt round's deck hidden)."""
    match_get(match_id=match_id)
    return [visible_event(event, lambda _: viewer) for event in read_stream(stream_id=match_id)]


def log_events(
    *, after: int = 0, limit: int = 100, viewer_of_match: ViewerOfMatch = lambda _: PUBLIC
) -> list[RecordedEvent]:
    """The global log above position `after`, in position order (all stream types), each
    match's events as `viewer_of_match(match_id)` may read them (dealt decks hidden)."""
    check_log_page(after=after, limit=limit, most=MAX_LOG_PAGE)
    return [visible_event(event, viewer_of_match) for event in read_all(after=after, limit=limit)]


def check_log_page(*, after: int, limit: int, most: int) -> None:
    """A page of the log is asked for above a position (0 or more), 1 to `most` events."""
    if after < 0:
        raise InvalidInput.because(gettext_noop("after is a global position, 0 or more"))
    if not 1 <= limit <= most:
        raise InvalidInput.because(gettext_noop("limit is 1 to %(most)s"), most=most)


def matches_created_by(*, user_id: int, limit: int) -> list[Match]:
    """The matches `user_id` created (the actor of their first event), latest first."""
    created = (
        Event.objects.filter(stream_type=MATCH_STREAM, stream_version=1, metadata__actor_id=user_id)
        .order_by("-global_position")
        .values_list("stream_id", flat=True)[:limit]
    )
    return with_side_names(matches=Match.objects.filter(id__in=list(created)))
