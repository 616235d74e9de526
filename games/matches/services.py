"""Match services: each command is decided against the folded stream, appended with its actor,
and projected inline in the same transaction (`games.matches.execution`).

Services are plain functions with keyword-only arguments, named `<entity>_<action>`. They raise
`RuleViolation` subclasses (the rules said no) and the event store's errors (a stale version, a
reused idempotency key); the API turns both into `{"code", "detail"}` responses.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, Unpack
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext_noop

from common.actors import Actor
from common.lru import LeastRecentlyUsed
from games import folded
from games.eventstore.api import IdempotencyKeyReused
from games.eventstore.loading import EMPTY_STREAM, Head
from games.matches.execution import CommandResult, execute, load_match
from games.matches.stream.commands import (
    ConfirmResult,
    CorrectCard,
    CorrectCardAfterRound,
    CreateMatch,
    DisputeResult,
    EnterRoundPoints,
    ForfeitMatch,
    PlayCardInRound,
    PlayCardsInRound,
    RuleRoundResult,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.errors import MatchAlreadyCreated
from games.matches.stream.state import MatchSetup
from games.models import Match, MatchSide
from games.rules.cards import Card, DeckNames, parse_card
from games.rules.errors import InvalidMatchFormat, RuleViolation
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT, Variant

DEALS = ("table", "server")
"""Who deals a round: the people at the table (a physical round: the scorer names the briscola and
each card played), or the server (a dealt round: it shuffles and deals, and knows every hand)."""


class InvalidDeal(RuleViolation):
    code = "invalid_deal"


# The commands.


def match_format_of(
    *, scoring: str, best_of: int, rounds: int | None, decider: str = "none"
) -> MatchFormat:
    """`decider` 'round': a match scored by points that ends level plays a deciding round
    (decision record 0029); ignored when scoring by rounds (a best-of match is always won)."""
    if scoring == "rounds":
        return MatchFormat.best_of(best_of)
    if scoring == "points":
        if rounds is None:
            raise InvalidMatchFormat.because(
                gettext_noop("scoring by points needs the number of rounds to play")
            )
        return MatchFormat("points", rounds, decider)  # type: ignore[arg-type]
    raise InvalidMatchFormat.because(
        gettext_noop("scoring is 'rounds' or 'points', not %(scoring)r"), scoring=scoring
    )


def match_create(
    *,
    table_size: int,
    sides: Sequence[str] | None = None,
    side_refs: Sequence[Mapping[str, int]] | None = None,
    best_of: int = 3,
    scoring: str = "rounds",
    rounds: int | None = None,
    variant: dict[str, Any] | None = None,
    first_dealer: int = 0,
    actor: Actor,
    match_id: UUID | None = None,
    decider: str = "none",
) -> CommandResult:
    """Create a match. A free-standing match names its `sides`: the names go to `MatchSide`,
    in the same transaction, and the event records `{}` per side. An app's match gives
    `side_refs` instead (`{"entrant": 17}`), which the event records and the app names when
    read (`games.side_names`). Either way no name enters the event log."""
    if (sides is None) == (side_refs is None):
        raise TypeError("match_create takes either side names or side references")
    refs = [{} for _name in sides] if sides is not None else [dict(ref) for ref in side_refs or ()]
    command = CreateMatch(
        table_size=table_size,
        match_format=match_format_of(
            scoring=scoring, best_of=best_of, rounds=rounds, decider=decider
        ),
        sides=tuple(refs),
        variant=DEFAULT_VARIANT if variant is None else Variant.from_dict(variant),
        first_dealer=first_dealer,
    )
    if match_id is None or sides is None:
        # An id drawn here has no stream yet: nothing to read before deciding.
        head = EMPTY_STREAM if match_id is None else None
        match_id = uuid.uuid4() if match_id is None else match_id
        with transaction.atomic():
            result = execute(match_id=match_id, command=command, actor=actor, head=head)
            if sides is not None:
                name_sides(result.match_id, sides)
        return result
    # A free-standing match with an id the client chose: a retry of the same creation (its
    # answer was lost after the commit) answers with the match; another creation is refused.
    try:
        with transaction.atomic():
            result = execute(
                match_id=match_id,
                command=command,
                actor=actor,
                idempotency_key=CREATION_KEY,
                names=sides,
            )
            if not result.duplicate:
                name_sides(match_id, sides)
    except IdempotencyKeyReused as reused:
        raise MatchAlreadyCreated("this match already exists") from reused
    return result


CREATION_KEY = "match-create"
"""The idempotency key of a free-standing match's creation with an id the client chose, so that
retrying it is answered like a card play retried with its key (the command's fingerprint
includes the side names)."""


def name_sides(match_id: UUID, sides: Sequence[str]) -> None:
    MatchSide.objects.bulk_create(
        MatchSide(match_id=match_id, side=side, name=name) for side, name in enumerate(sides)
    )


class WriteOptions(TypedDict, total=False):
    """How a write may be guarded: the version the client last saw, and an idempotency key;
    where the request found the stream (`games.access.head_of`), so the load reads nothing more."""

    expected_version: int | None
    idempotency_key: str | None
    head: Head | None


def round_start(
    *,
    match_id: UUID,
    briscola: str | None,
    dealer_seat: int | None = None,
    deal: str = "table",
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    """Start the match's next round. `deal="server"` shuffles the table's deck and deals it: the
    deck turns up the briscola (naming one too is refused, `briscola_dealt_by_server`)."""
    if deal not in DEALS:
        raise InvalidDeal.because(
            gettext_noop("deal is 'table' or 'server', not %(deal)r"), deal=deal
        )
    briscola_card = None if briscola is None else match_card(match_id, briscola)
    deck = None
    if deal == "server":
        deck = shuffled_deck(load_match(match_id=match_id)[0].setup)
    command = StartNextRound(briscola=briscola_card, dealer=dealer_seat, deck=deck)
    return execute(match_id=match_id, command=command, actor=actor, **options)


DECK_NAMES_REMEMBERED = 4096


_deck_names: LeastRecentlyUsed[UUID, DeckNames] = LeastRecentlyUsed(DECK_NAMES_REMEMBERED)
"""Each match's deck letters, once read: a match's variant never changes after its creation,
so a card costs no query for them after the match's first. Shared by the process's threads."""


def deck_names_of(match_id: UUID) -> DeckNames:
    known = _deck_names.get(match_id)
    if known is not None:
        return known
    remembered = folded.recall(match_id)
    if remembered is not None:
        return remembered.state.setup.variant.deck_names
    variant = Match.objects.filter(id=match_id).values_list("variant", flat=True).first()
    if variant is None:
        return "italian"  # not remembered: the match may be created later with another deck
    deck_names = Variant.from_recorded(variant).deck_names
    _deck_names.put(match_id, deck_names)
    return deck_names


def match_card(match_id: UUID, text: str) -> Card:
    """A card as the match's scorer types it: with the suit letters of the match's deck (French
    letters when its variant names French cards). An unknown match reads Italian letters; the
    command then answers that there is no such match."""
    return parse_card(text, deck_names_of(match_id))


def shuffled_deck(setup: MatchSetup) -> tuple[Card, ...]:
    """The table's deck in an order nobody can predict (the operating system's randomness)."""
    deck = list(setup.table.deck)
    secrets.SystemRandom().shuffle(deck)
    return tuple(deck)


def card_play(
    *,
    match_id: UUID,
    round_number: int,
    seat: int,
    card: str,
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    command = PlayCardInRound(round_number, seat, match_card(match_id, card))
    return execute(match_id=match_id, command=command, actor=actor, **options)


def cards_play(
    *,
    match_id: UUID,
    round_number: int,
    plays: Sequence[tuple[int, str]],
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    """Several cards of one round in one append: all of them, or none (the error names the
    failing card's index in `plays` as `play_index`)."""
    names = deck_names_of(match_id)
    cards = []
    for index, (seat, text) in enumerate(plays):
        try:
            cards.append((seat, parse_card(text, names)))
        except RuleViolation as error:
            raise error.at(play_index=index) from None
    command = PlayCardsInRound(round_number, tuple(cards))
    return execute(match_id=match_id, command=command, actor=actor, **options)


def round_points_enter(
    *,
    match_id: UUID,
    round_number: int,
    points: Sequence[int],
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    command = EnterRoundPoints(round_number, tuple(points))
    return execute(match_id=match_id, command=command, actor=actor, **options)


def play_undo(
    *, match_id: UUID, round_number: int, actor: Actor, **options: Unpack[WriteOptions]
) -> CommandResult:
    return execute(match_id=match_id, command=UndoLastPlay(round_number), actor=actor, **options)


def card_correct(
    *,
    match_id: UUID,
    round_number: int,
    play_index: int,
    card: str,
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    command = CorrectCard(round_number, play_index, match_card(match_id, card))
    return execute(match_id=match_id, command=command, actor=actor, **options)


def round_card_correct(
    *,
    match_id: UUID,
    round_number: int,
    play_index: int,
    card: str,
    reason: str,
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    """The organizer corrects a card of a finished round, with a reason (decision record 0048):
    the play that had recorded the card takes the corrected play's card."""
    command = CorrectCardAfterRound(round_number, play_index, match_card(match_id, card), reason)
    return execute(match_id=match_id, command=command, actor=actor, **options)


def round_void(
    *,
    match_id: UUID,
    round_number: int,
    reason: str,
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    command = VoidRound(round_number, reason)
    return execute(match_id=match_id, command=command, actor=actor, **options)


def round_rule(
    *,
    match_id: UUID,
    round_number: int,
    points: Sequence[int],
    reason: str,
    actor: Actor,
    **options: Unpack[WriteOptions],
) -> CommandResult:
    """The organizer's ruling on a finished round's points (decision record 0045)."""
    command = RuleRoundResult(round_number, tuple(points), reason)
    return execute(match_id=match_id, command=command, actor=actor, **options)


def result_confirm(
    *, match_id: UUID, side: int, actor: Actor, **options: Unpack[WriteOptions]
) -> CommandResult:
    return execute(match_id=match_id, command=ConfirmResult(side), actor=actor, **options)


def result_dispute(
    *, match_id: UUID, side: int, reason: str, actor: Actor, **options: Unpack[WriteOptions]
) -> CommandResult:
    command = DisputeResult(side, reason)
    return execute(match_id=match_id, command=command, actor=actor, **options)


def match_forfeit(
    *, match_id: UUID, side: int, reason: str, actor: Actor, **options: Unpack[WriteOptions]
) -> CommandResult:
    command = ForfeitMatch(side, reason)
    return execute(match_id=match_id, command=command, actor=actor, **options)
