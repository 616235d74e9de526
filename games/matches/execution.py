"""How a match command runs: decided against the folded stream, appended with its actor and
projected in the same statement (`MATCH_KIND`, the command pipeline's description of match
streams), retried when another writer got in first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from django.utils.translation import gettext_noop

from common.actors import Actor
from common.lru import LeastRecentlyUsed
from games import folded
from games.eventstore.api import EventMetadata, NewEvent, WrittenWithAppend
from games.eventstore.loading import Head, Loaded, load_latest, load_to
from games.eventstore.pipeline import Appended, Outcome, StreamKind, run_command
from games.matches.projections import MATCH_STREAM, match_event, match_written_with_append
from games.matches.stream import (
    CreateMatch,
    MatchAggregate,
    MatchCommand,
    MatchEvent,
    decide,
    fold,
    schema_version_of,
)
from games.models import Match
from games.rules import DeckNames, RuleViolation, Variant
from games.signals import match_events_appended_on_commit

RACE_RETRIES = 5
"""Appends retried after another writer got in first, when the caller named no version."""


class MatchNotFound(RuleViolation):
    code = "match_not_found"


def match_not_found(match_id: UUID) -> MatchNotFound:
    return MatchNotFound.because(gettext_noop("there is no match %(match)s"), match=match_id)


@dataclass(frozen=True, kw_only=True)
class CommandResult(Outcome[MatchAggregate]):
    """What a match command left (`games.eventstore.pipeline.Outcome`), named for matches."""

    @property
    def match_id(self) -> UUID:
        return self.stream_id


def execute(
    *,
    match_id: UUID,
    command: MatchCommand,
    actor: Actor,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    names: Sequence[str] = (),
    head: Head | None = None,
) -> CommandResult:
    """Decide, append and project one command through the command pipeline. A repeated
    idempotency key returns the first result; without an expected version, a race with another
    writer is retried. A creation's side `names` live outside the event (`MatchSide`) but make
    it another match; `head` is where the request found the stream (`games.access`)."""
    outcome = run_command(
        MATCH_KIND,
        stream_id=match_id,
        command=command,
        metadata=EventMetadata.of(actor),
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        names=names,
        head=head,
        retries=RACE_RETRIES,
    )
    return CommandResult.of(outcome)


def load_match(*, match_id: UUID, to_version: int | None = None) -> tuple[MatchAggregate, int]:
    """The match folded from its stream (up to `to_version`), and the version folded."""
    loaded = (
        load_latest(MATCH_KIND, match_id)
        if to_version is None
        else Loaded(*load_to(MATCH_KIND, match_id, to_version))
    )
    state, version = loaded.state, loaded.version
    if state is None:
        raise match_not_found(match_id)
    return state, version


def project_match(
    match_id: UUID,
    previous: MatchAggregate | None,
    state: MatchAggregate,  # noqa: ARG001 - the pipeline calls every project hook so
    appended: Appended[MatchEvent],  # noqa: ARG001
) -> None:
    """What follows an append besides its rows (written by the append's own statement,
    `projection_with_append`): a new match's deck letters read afresh."""
    if previous is None:
        _deck_names.pop(match_id)  # a new match: its deck is read again when needed


def projection_with_append(
    match_id: UUID, previous: MatchAggregate | None, state: MatchAggregate, version: int
) -> WrittenWithAppend:
    return match_written_with_append(state, match_id=match_id, version=version, previous=previous)


def encode(event: MatchEvent) -> NewEvent:
    return NewEvent(event.type, event.to_payload(), schema_version=schema_version_of(event.type))


MATCH_KIND: StreamKind[MatchAggregate, MatchEvent, MatchCommand] = StreamKind(
    stream_type=MATCH_STREAM,
    decode=match_event,
    fold=fold,
    memo=folded.memo,
    decide=decide,
    encode=encode,
    creates=(CreateMatch,),
    not_found=match_not_found,
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
