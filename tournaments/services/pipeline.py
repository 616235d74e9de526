"""The tournament command pipeline: every write is a command on the tournament's stream,
decided from the folded state by `tournaments.stream.decide` and carried out by
`games.eventstore.pipeline` (`TOURNAMENT_KIND`): appended with its actor, expected version and
idempotency key, projected inline into the tournament's rows (`tournaments.projections.rows`),
followed by the reactions on the match streams (`tournaments.services.reactions`) and, after
the commit, a signal.

`load_tournament` and `run`, which the services call.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.utils.translation import gettext_noop

from common.actors import Actor
from games.eventstore.api import EventMetadata
from games.eventstore.loading import load_latest
from games.eventstore.pipeline import Appended, Outcome, StreamKind, run_command
from tournaments import folded
from tournaments.errors import InvalidTournament, TournamentNotFound
from tournaments.models import Fixture, Tournament
from tournaments.projections import rows
from tournaments.services import reactions
from tournaments.signals import tournament_events_appended_on_commit
from tournaments.state import TournamentState
from tournaments.stream.commands import CreateTournament, TournamentCommand
from tournaments.stream.decide import decide
from tournaments.stream.events import TOURNAMENT_EVENTS, TournamentEvent
from tournaments.stream.evolve import fold

TOURNAMENT_STREAM = "tournament"


@dataclass(frozen=True, kw_only=True)
class TournamentCommandResult(Outcome[TournamentState]):
    """What a tournament write left: the state and version after it, the events it recorded
    (for a repeated idempotency key, the first command's, with `duplicate` set)."""

    @property
    def tournament_id(self) -> UUID:
        return self.stream_id


def tournament_not_found(tournament_id: UUID) -> TournamentNotFound:
    return TournamentNotFound.because(
        gettext_noop("there is no tournament %(tournament)s"), tournament=tournament_id
    )


def lock_tournament(tournament_id: UUID) -> None:
    """The tournament's row, locked until the transaction ends. Every command takes this lock
    before it appends anything (to its own stream or, creating matches, to theirs), so that all
    writers take the tournament's row before the log's append lock and never wait for each
    other the other way round."""
    Tournament.objects.select_for_update().filter(id=tournament_id).values_list("id").first()


def notify(
    tournament_id: UUID, state: TournamentState, appended: Appended[TournamentEvent]
) -> None:
    tournament_events_appended_on_commit(
        tournament_id=tournament_id,
        events=appended.events,
        running=state.started and not state.finished,
    )


TOURNAMENT_KIND: StreamKind[TournamentState, TournamentEvent, TournamentCommand] = StreamKind(
    stream_type=TOURNAMENT_STREAM,
    codec=TOURNAMENT_EVENTS,
    fold=fold,
    memo=folded.memo,
    decide=decide,
    creates=(CreateTournament,),
    not_found=tournament_not_found,
    lock=lock_tournament,
    project=rows.project_appended,
    react=reactions.react_inline,
    notify=notify,
)
"""How the command pipeline handles tournament streams."""


def load_tournament(*, tournament_id: UUID) -> tuple[TournamentState, int]:
    """The tournament as it stands (folding only what this process has not folded before)."""
    loaded = load_latest(TOURNAMENT_KIND, tournament_id)
    if loaded.state is None:
        raise tournament_not_found(tournament_id)
    return loaded.state, loaded.version


Prepare = Callable[[TournamentState | None, Any], TournamentCommand]


def run(
    *,
    tournament_id: UUID,
    command: TournamentCommand,
    actor: Actor,
    idempotency_key: str | None = None,
    names: Sequence[Any] = (),
    prepare: Prepare | None = None,
) -> TournamentCommandResult:
    """Carry out one tournament command (decision record 0020 for idempotency keys: a command
    sent again with its key records nothing and is answered from what the first one left; what
    makes two commands the same is the command's fields and the `names` it brings, which the
    events do not hold). `prepare` completes the command on the loaded state after the
    idempotency check, in the command's transaction: it may write name rows first."""
    if idempotency_key is not None and actor.causation_id is None:
        # Every event the command causes (its matches' too) names it.
        actor = replace(actor, causation_id=f"command:{uuid.uuid4()}")
    outcome = run_command(
        TOURNAMENT_KIND,
        stream_id=tournament_id,
        command=command,
        metadata=EventMetadata.of(actor),
        idempotency_key=idempotency_key,
        names=names,
        prepare=prepare,
        # Writers take the tournament's row lock first: losing a race anyway is reported (409).
        retries=1,
    )
    return TournamentCommandResult.of(outcome)


def tournament_of_match(match_id: UUID) -> UUID:
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise InvalidTournament.because(
            gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
        )
    return tournament_id
