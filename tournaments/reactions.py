"""What a tournament's recorded events call for on the match streams, in the same transaction.

A created fixture gets its match (the id the stream derived for it, its sides referring to the
entrants); an entrant that withdrew forfeits every match it still had to play, including those
created for it later. The command pipeline runs `react_inline` right after the tournament's own
rows are projected, under the tournament's row lock, so the matches exist when the command
answers.
"""

from __future__ import annotations

from uuid import UUID

from games import services as match_services
from games.eventstore.api import AppendResult, EventMetadata
from games.models import Match
from games.services import Actor
from tournaments import plan
from tournaments.stream import ENTRANT_WITHDREW, FIXTURE_CREATED, TournamentState


def actor_of(metadata: EventMetadata) -> Actor:
    return Actor(
        user_id=metadata.actor_id,
        device=metadata.device,
        reason=metadata.reason,
        correlation_id=metadata.correlation_id,
        causation_id=metadata.causation_id,
    )


def react_inline(
    tournament_id: UUID, state: TournamentState, appended: AppendResult, metadata: EventMetadata
) -> None:
    actor = actor_of(metadata)
    created = [e.payload for e in appended.events if e.event_type == FIXTURE_CREATED]
    rules = state.settings.match_rules
    for fixture in created:
        match_services.match_create(
            match_id=UUID(fixture["match_id"]),
            table_size=rules["table_size"],
            best_of=rules["best_of"],
            scoring=rules["scoring"],
            rounds=rules["rounds"],
            variant=rules["variant"],
            side_refs=[{"entrant": fixture["home"]}, {"entrant": fixture["away"]}],
            actor=actor,
            decider=plan.match_decider(state, fixture["fixture"]),
        )
    withdrawals = [
        (e.payload["entrant"], e.payload.get("reason") or "withdrawn")
        for e in appended.events
        if e.event_type == ENTRANT_WITHDREW
    ]
    withdrawals.extend(
        (entrant, "withdrawn")
        for fixture in created
        for entrant in (fixture["home"], fixture["away"])
        if state.entrants[entrant].withdrawn
    )
    for entrant, reason in withdrawals:
        forfeit_open_fixtures(state, entrant, reason=reason, actor=actor)


def forfeit_open_fixtures(
    state: TournamentState, entrant_id: int, *, reason: str, actor: Actor
) -> None:
    """Forfeit, for `entrant_id`, each of its fixtures whose match is not finished."""
    for fixture in state.fixtures.values():
        if entrant_id not in fixture.entrants or fixture.id in state.results:
            continue
        match = Match.objects.filter(id=fixture.match_id).first()
        if match is None or match.status == "finished":
            continue
        side = 0 if fixture.home == entrant_id else 1
        match_services.match_forfeit(
            match_id=UUID(fixture.match_id), side=side, reason=reason, actor=actor
        )
