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
from games import folded
from games.eventstore.api import EventMetadata
from games.eventstore.loading import Head, Loaded, load_latest, load_to
from games.eventstore.pipeline import Outcome, StreamKind, run_command
from games.matches.projections import MATCH_STREAM, match_written_with_append
from games.matches.stream.commands import CreateMatch, MatchCommand
from games.matches.stream.decide import decide
from games.matches.stream.events import MATCH_EVENTS, MatchEvent
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate
from games.rules.errors import RuleViolation
from games.signals import announce_appended

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


MATCH_KIND: StreamKind[MatchAggregate, MatchEvent, MatchCommand] = StreamKind(
    stream_type=MATCH_STREAM,
    codec=MATCH_EVENTS,
    fold=fold,
    memo=folded.memo,
    decide=decide,
    creates=(CreateMatch,),
    not_found=match_not_found,
    project_with_append=match_written_with_append,
    transactional=False,
    notify=announce_appended,
)
"""How the command pipeline handles match streams."""
