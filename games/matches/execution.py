"""How a match command runs: decided against the folded stream, appended with its actor and
projected in the same statement (`MATCH_KIND`, the command pipeline's description of match
streams), retried when another writer got in first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from uuid import UUID

from django.utils.translation import gettext_noop

from common.actors import Actor
from common.explained import Explained
from common.lru import LeastRecentlyUsed
from games import folded
from games.eventstore.api import EventMetadata, NewEvent, WrittenWithAppend
from games.eventstore.pipeline import Appended, Outcome, Reload, StreamKind, run_command
from games.matches.loading import MatchNotFound, load_for_command, remember, replay_from
from games.matches.projections import MATCH_STREAM, match_written_with_append
from games.matches.stream import (
    CreateMatch,
    MatchAggregate,
    MatchCommand,
    MatchEvent,
    StartNextRound,
    decide,
    fold,
    schema_version_of,
)
from games.models import Match
from games.rules import DeckNames, Variant
from games.signals import match_events_appended_on_commit

RACE_RETRIES = 5
"""Appends retried after another writer got in first, when the caller named no version."""


@dataclass(frozen=True, kw_only=True)
class CommandResult(Outcome[MatchAggregate]):
    """What a match command left (`games.eventstore.pipeline.Outcome`), named for matches."""

    @property
    def match_id(self) -> UUID:
        return self.stream_id


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
        metadata=EventMetadata.of(actor),
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        fingerprint=command_fingerprint or fingerprint(match_id, command),
        retries=RACE_RETRIES,
    )
    return CommandResult.of(outcome)


def project_match(
    match_id: UUID,
    previous: MatchAggregate | None,
    state: MatchAggregate,
    appended: Appended[MatchEvent],
) -> None:
    """What follows an append besides its rows (written by the append's own statement,
    `projection_with_append`): the memo, and a new match's deck letters read afresh."""
    if previous is None:
        _deck_names.pop(match_id)  # a new match: its deck is read again when needed
    remember(match_id, state, appended.records[-1])


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
    notify=lambda match_id, *_: match_events_appended_on_commit(match_id=match_id),
)
"""How the command pipeline handles match streams."""


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
