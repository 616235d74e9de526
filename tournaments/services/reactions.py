"""What a tournament's recorded events call for on the match streams, in the same transaction.

A created fixture gets its match (the id the stream derived for it, its sides referring to the
entrants); an entrant that withdrew forfeits every match it still had to play, including those
created for it later. The command pipeline runs `react_inline` right after the tournament's own
rows are projected, under the tournament's row lock, so the matches exist when the command
answers.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from common.actors import Actor
from games.eventstore.api import EventMetadata
from games.eventstore.pipeline import Appended
from games.matches import services as match_services
from games.models import Match, MatchStatus
from tournaments.plan import knockouts
from tournaments.state import TournamentState
from tournaments.stream.events import EntrantWithdrew, TournamentEvent
from tournaments.stream.fixture_events import FixtureCreated


def react_inline(
    tournament_id: UUID,  # noqa: ARG001 - the pipeline calls every react hook so
    state: TournamentState,
    appended: Appended[TournamentEvent],
    metadata: EventMetadata,
) -> None:
    actor = metadata.actor()
    events = appended.events
    created = [e for e in events if isinstance(e, FixtureCreated)]
    rules = state.settings.match_rules
    for fixture in created:
        sides = fixture.entrants
        # At tables of three the field may force a table of two: a two-player match.
        size = len(sides) if rules["table_size"] == 3 else rules["table_size"]
        match_services.match_create(
            match_id=UUID(fixture.match_id),
            table_size=size,
            best_of=rules["best_of"],
            scoring=rules["scoring"],
            rounds=rules["rounds"],
            variant=variant_at(rules["variant"], size),
            side_refs=[{"entrant": entrant} for entrant in sides],
            actor=actor,
            decider=knockouts.match_decider(state, fixture.fixture),
        )
    withdrawals = [
        (e.entrant, e.reason or "withdrawn") for e in events if isinstance(e, EntrantWithdrew)
    ]
    withdrawals.extend(
        (entrant, "withdrawn")
        for fixture in created
        for entrant in fixture.entrants
        if state.entrants[entrant].withdrawn
    )
    for entrant, reason in withdrawals:
        forfeit_open_fixtures(state, entrant, reason=reason, actor=actor)


THREE_PLAYER_OPTIONS = ("three_winner", "removed_card_for_three")
"""Variant options of a three-player table, left out of a tournament's tables of two."""


def variant_at(variant: dict[str, Any] | None, table_size: int) -> dict[str, Any] | None:
    if variant is None or table_size == 3:
        return variant
    kept = {k: v for k, v in variant.items() if k not in THREE_PLAYER_OPTIONS}
    return kept or None


def forfeit_open_fixtures(
    state: TournamentState, entrant_id: int, *, reason: str, actor: Actor
) -> None:
    """Forfeit, for `entrant_id`, each of its fixtures whose match is not finished."""
    for fixture in state.fixtures.values():
        if entrant_id not in fixture.entrants or fixture.id in state.results:
            continue
        match = Match.objects.filter(id=fixture.match_id).first()
        if match is None or match.status == MatchStatus.FINISHED:
            continue
        side = fixture.entrants.index(entrant_id)
        match_services.match_forfeit(
            match_id=UUID(fixture.match_id), side=side, reason=reason, actor=actor
        )
