"""Match services: each command is decided against the folded stream, appended with its actor,
and projected inline in the same transaction.

Services are plain functions with keyword-only arguments, named `<entity>_<action>`. They raise
`RuleViolation` subclasses (the rules said no) and the event store's errors (a stale version, a
reused idempotency key); the API turns both into `{"code", "detail"}` responses.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict, Unpack
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext_noop

from common.explained import Explained
from games import folded
from games.eventstore.api import (
    AppendResult,
    EventMetadata,
    IdempotencyKeyReused,
    NewEvent,
    RecordedEvent,
    WrittenWithAppend,
    read_stream,
)
from games.eventstore.pipeline import Outcome, Reload, StreamKind, run_command
from games.matches.stream import (
    ConfirmResult,
    CorrectCard,
    CreateMatch,
    DisputeResult,
    EnterRoundPoints,
    ForfeitMatch,
    MatchAggregate,
    MatchAlreadyCreated,
    MatchCommand,
    MatchEvent,
    MatchSetup,
    PlayCardInRound,
    PlayCardsInRound,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
    decide,
    fold,
    schema_version_of,
)
from games.models import Match, MatchSide
from games.projections import (
    MATCH_STREAM,
    match_event,
    match_written_with_append,
)
from games.rules import (
    DEFAULT_VARIANT,
    Card,
    DeckNames,
    InvalidMatchFormat,
    MatchFormat,
    RuleViolation,
    Variant,
    parse_card,
)
from games.signals import match_events_appended_on_commit

RACE_RETRIES = 5
"""Appends retried after another writer got in first, when the caller named no version."""


DEALS = ("table", "server")
"""Who deals a round: the people at the table (a physical round: the scorer names the briscola and
each card played), or the server (a dealt round: it shuffles and deals, and knows every hand)."""


class MatchNotFound(RuleViolation):
    code = "match_not_found"


class InvalidDeal(RuleViolation):
    code = "invalid_deal"


@dataclass(frozen=True, kw_only=True)
class Actor:
    """Who sends a command, from which device, and why; recorded on every event."""

    user_id: int | None = None
    device: str | None = None
    reason: str | None = None
    correlation_id: str | None = None
    causation_id: str | None = None
    """The command the events come from, when one command appends several times."""

    def metadata(self) -> EventMetadata:
        return EventMetadata(
            actor_id=self.user_id,
            device=self.device,
            reason=self.reason or None,
            correlation_id=self.correlation_id,
            causation_id=self.causation_id,
        )


@dataclass(frozen=True, kw_only=True)
class CommandResult(Outcome[MatchAggregate]):
    """What a match command left (`games.eventstore.pipeline.Outcome`), named for matches."""

    @property
    def match_id(self) -> UUID:
        return self.stream_id


def load_match(*, match_id: UUID, to_version: int | None = None) -> tuple[MatchAggregate, int]:
    """The match folded from its stream (up to `to_version`), and the version folded."""
    if to_version is None:
        return load_latest(match_id)
    events = read_stream(stream_id=match_id, to_version=to_version)
    if not events:
        raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
    return fold(map(match_event, events)), events[-1].stream_version


def load_latest(match_id: UUID) -> tuple[MatchAggregate, int]:
    """The match as it stands, folding only what this process has not folded before; reading
    nothing when the request's place already told where the stream stands (`games.folded`)."""
    known = folded.recall(match_id)
    head = folded.take_head(match_id)
    folded.loaded_unread(None)
    if head is not None:
        if known is not None and head.at == (known.version, known.position):
            folded.loaded_unread(match_id)
            return known.state, known.version
        if known is None and head == folded.EMPTY_STREAM:
            # An id this request just drew: no stream has it (were it taken, the append, which
            # expects an empty stream, would be refused and the command retried after a read).
            raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
        if head.events is not None and head.from_version == (known.version if known else 1):
            loaded = fold_read(match_id, known, list(head.events))
            if loaded is not None:
                folded.loaded_unread(match_id)
                return loaded
    from_version = 1 if known is None else known.version
    loaded = fold_read(match_id, known, read_stream(stream_id=match_id, from_version=from_version))
    if loaded is None and known is not None:  # the log changed under the memo: fold it all
        loaded = fold_read(match_id, None, read_stream(stream_id=match_id))
    if loaded is None:
        raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
    return loaded


def fold_read(
    match_id: UUID, known: folded.Folded[MatchAggregate] | None, events: list[RecordedEvent]
) -> tuple[MatchAggregate, int] | None:
    """The match after `events` (`games.eventstore.memo.StreamMemo.fold_read`)."""
    return folded.memo.fold_read(match_id, known, events, fold_match_events)


def fold_match_events(
    events: Sequence[RecordedEvent], state: MatchAggregate | None
) -> MatchAggregate:
    return fold(map(match_event, events), state)


def remember(match_id: UUID, state: MatchAggregate, last: RecordedEvent) -> None:
    folded.remember_on_commit(
        match_id, folded.Folded(state, last.stream_version, last.global_position)
    )


def fingerprint(match_id: UUID, command: MatchCommand, *, names: Sequence[str] = ()) -> str:
    """What makes two commands the same. A server deal shuffles afresh on every request, so its
    deck is left out: a retried dealt start is the same command, answered with the first deal.
    A creation's side names live outside the event (`MatchSide`) but make it another match."""
    if isinstance(command, StartNextRound) and command.deck is not None:
        command = replace(command, deck=())
    text = f"{match_id}:{command!r}" + (f":{list(names)!r}" if names else "")
    return hashlib.sha256(text.encode()).hexdigest()


def execute(
    *,
    match_id: UUID,
    command: MatchCommand,
    actor: Actor,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    command_fingerprint: str | None = None,
) -> CommandResult:
    """Decide, append and project one command through the command pipeline. A repeated
    idempotency key returns the first result; without an expected version, a race with another
    writer is retried. The command's `fingerprint` is computed unless given (a creation's
    includes the side names)."""

    def decide_command(state: MatchAggregate | None) -> Sequence[MatchEvent]:
        if state is None and not isinstance(command, CreateMatch):
            raise MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)
        try:
            return decide(state, command)
        except Explained:
            if folded.was_loaded_unread(match_id):
                raise Reload from None  # refused on a state that a landed write may have moved
            raise

    outcome = run_command(
        MATCH_KIND,
        stream_id=match_id,
        decide=decide_command,
        metadata=actor.metadata(),
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        fingerprint=command_fingerprint or fingerprint(match_id, command),
        retries=RACE_RETRIES,
    )
    return CommandResult.of(outcome)


def load_for_command(match_id: UUID) -> tuple[MatchAggregate | None, int]:
    """The match as a command finds it: None and version 0 before its creation."""
    try:
        return load_latest(match_id)
    except MatchNotFound:
        return None, 0


def replay_from(match_id: UUID, first: AppendResult) -> tuple[MatchAggregate, int]:
    return load_match(match_id=match_id, to_version=first.last_version)


def project_match(
    match_id: UUID, previous: MatchAggregate | None, state: MatchAggregate, appended: AppendResult
) -> None:
    """What follows an append besides its rows (written by the append's own statement,
    `projection_with_append`): the memo, and a new match's deck letters read afresh."""
    if previous is None:
        _deck_names.pop(match_id, None)  # a new match: its deck is read again when needed
    remember(match_id, state, appended.events[-1])


def projection_with_append(
    match_id: UUID, previous: MatchAggregate | None, state: MatchAggregate, version: int
) -> WrittenWithAppend:
    return match_written_with_append(state, match_id=match_id, version=version, previous=previous)


MATCH_KIND: StreamKind[MatchAggregate, MatchEvent] = StreamKind(
    stream_type=MATCH_STREAM,
    load=load_for_command,
    fold=lambda events, state: fold(events, state),
    encode=lambda event: NewEvent(
        event.type, event.to_payload(), schema_version=schema_version_of(event.type)
    ),
    replay=replay_from,
    project=project_match,
    project_with_append=projection_with_append,
    transactional=False,
    notify=lambda match_id, state, appended: match_events_appended_on_commit(match_id=match_id),
)
"""How the command pipeline handles match streams."""


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
        if match_id is None:
            match_id = uuid.uuid4()
            folded.note_head(match_id, folded.EMPTY_STREAM)
        with transaction.atomic():
            result = execute(match_id=match_id, command=command, actor=actor)
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
                command_fingerprint=fingerprint(match_id, command, names=sides),
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
    """How a write may be guarded: the version the client last saw, and an idempotency key."""

    expected_version: int | None
    idempotency_key: str | None


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


def match_card(match_id: UUID, text: str) -> Card:
    """A card as the match's scorer types it: with the suit letters of the match's deck (French
    letters when its variant names French cards). An unknown match reads Italian letters; the
    command then answers that there is no such match."""
    return parse_card(text, deck_names_of(match_id))


DECK_NAMES_REMEMBERED = 4096
_deck_names: dict[UUID, DeckNames] = {}
"""Each match's deck letters, once read: a match's variant never changes after its creation,
so a card costs no query for them after the match's first."""


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
    if len(_deck_names) >= DECK_NAMES_REMEMBERED:
        _deck_names.clear()
    deck_names = Variant.from_recorded(variant).deck_names
    _deck_names[match_id] = deck_names
    return deck_names


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
