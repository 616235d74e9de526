"""Knockout matters: the fixtures a changed result resets (brackets, tables of three, a redrawn
knockout, group playoffs), which fixtures are knockout matches and how a level one is decided
(decision record 0029), and the ties at a group's cut that wait for the organizer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from tournaments.formats.groups_then_knockout import (
    group_stage,
)
from tournaments.formats.resolution import slots_to_reset
from tournaments.formats.threes_knockout import (
    ThreesKnockout,
)
from tournaments.plan.cut_ties import CutTie, cut_tie
from tournaments.plan.drawing import fewest_qualifiers, group_count, stages
from tournaments.plan.fixture_specs import KNOCKOUT, Stage
from tournaments.plan.rankings import seed_of
from tournaments.state import Fixture, Result, TournamentState


def resets_after(state: TournamentState, fixture_id: str, new_result: Result) -> tuple[str, ...]:
    """Fixtures (with matches) that a changed result of `fixture_id` invalidates."""
    old = state.results.get(fixture_id)
    if old is None or old == new_result:
        return ()
    for stage in stages(state):
        if stage.threes is not None and fixture_id in stage.threes.tables:
            return threes_resets(state, stage.threes, fixture_id, old, new_result)
        bracket = stage.bracket
        if bracket is None or not bracket.has_slot(fixture_id):
            continue
        if old.winner == new_result.winner:
            return ()
        old_winners = {
            k: r.winner
            for k, r in state.results.items()
            if r.winner is not None and bracket.has_slot(k)
        }
        new_winners = {k: v for k, v in old_winners.items() if k != fixture_id}
        if new_result.winner is not None:
            new_winners[fixture_id] = new_result.winner
        return tuple(
            slot
            for slot in slots_to_reset(bracket, old_winners, new_winners)
            if slot in state.fixtures or slot in state.results
        )
    return (
        *playoff_resets(state, fixture_id, new_result),
        *knockout_redraw_resets(state, fixture_id, new_result),
    )


def threes_resets(
    state: TournamentState, knockout: ThreesKnockout, fixture_id: str, old: Result, new: Result
) -> tuple[str, ...]:
    """A knockout table in threes whose winner changed resets the tables its winner went on to."""
    if old.winner == new.winner:
        return ()
    tables = knockout.tables
    following: list[str] = []
    feeds = tables[fixture_id].feeds
    while feeds is not None:
        following.append(feeds)
        feeds = tables[feeds].feeds
    return tuple(t for t in following if t in state.fixtures or t in state.results)


def knockout_redraw_resets(
    state: TournamentState, fixture_id: str, new_result: Result
) -> tuple[str, ...]:
    """A group result that changes who qualifies, or in which place, redraws the knockout:
    every knockout fixture already created is reset (points alone can change a group's order)."""
    knockout = knockout_stage(state)
    if knockout is None:
        return ()
    after = stages(
        replace(
            state, results={**results_before_the_knockout(state, knockout), fixture_id: new_result}
        )
    )
    redrawn = after[-1] if after[-1].name == KNOCKOUT else None
    if redrawn is not None and knockout_entrants(redrawn) == knockout_entrants(knockout):
        return ()
    return tuple(
        slot
        for slot in knockout_slot_ids(knockout)
        if slot in state.fixtures or slot in state.results
    )


def knockout_stage(state: TournamentState) -> Stage | None:
    """The knockout stage of a groups then knockout tournament, once drawn."""
    drawn = stages(state)
    return drawn[-1] if drawn and drawn[-1].name == KNOCKOUT else None


def results_before_the_knockout(
    state: TournamentState, knockout: Stage | None
) -> dict[str, Result]:
    """The results of the groups and their playoffs: every result but the knockout's."""
    if knockout is None:
        return dict(state.results)
    return {k: r for k, r in state.results.items() if not knockout.has_knockout_slot(k)}


def knockout_entrants(stage: Stage) -> tuple[int, ...]:
    if stage.threes is not None:
        return stage.threes.entrants
    return () if stage.bracket is None else stage.bracket.entrants


def knockout_slot_ids(stage: Stage) -> tuple[str, ...]:
    if stage.threes is not None:
        return tuple(stage.threes.tables)
    return () if stage.bracket is None else tuple(slot.id for slot in stage.bracket.slots)


LEVEL_KNOCKOUT_RULES = ("deciding_round", "higher_seed", "organizer")
"""How a level knockout match gets its winner (decision record 0029)."""


def is_knockout_fixture(state: TournamentState, fixture_id: str) -> bool:
    """Whether the fixture is a bracket slot (or a group's playoff match): its match must have
    a winner."""
    return any(
        stage.has_knockout_slot(fixture_id)
        or (stage.playoff_of is not None and any(f.id == fixture_id for f in stage.fixtures))
        for stage in stages(state)
    )


def match_decider(state: TournamentState, fixture_id: str) -> str:
    """The decider its match is created with: a knockout match scored by points plays a
    deciding round when level, if the tournament's rule says so; every other match `none`."""
    settings = state.settings
    if (
        settings.scoring == "points"
        and settings.level_knockout == "deciding_round"
        and is_knockout_fixture(state, fixture_id)
    ):
        return "round"
    return "none"


def higher_seed(state: TournamentState, entrants: Iterable[int]) -> int:
    """The best seeded of the entrants (seed 1 is the highest)."""
    seeds = seed_of(state)
    return min(entrants, key=lambda entrant: (seeds.get(entrant, 10**9), entrant))


def level_leaders(fixture: Fixture, result: Result) -> tuple[int, ...]:
    """The entrants level for first place in a match without a winner: both at two, those
    placed first at three."""
    if result.places is None:
        return fixture.entrants
    return tuple(
        entrant
        for entrant, place in zip(fixture.entrants, result.places, strict=True)
        if place == 1
    )


def playoff_resets(state: TournamentState, fixture_id: str, new_result: Result) -> tuple[str, ...]:
    """The playoff fixtures a changed result (of a group match or a playoff match) leaves with
    other entrants, or without a place in the playoff: reset, like a redrawn knockout's."""
    existing = [f for f in state.fixtures.values() if "-PO-" in f.id]
    if not existing:
        return ()
    # Without the knockout's results: the changed result may reseed the knockout, whose results
    # would then not fit its new slots (knockout_redraw_resets resets those).
    before_the_knockout = results_before_the_knockout(state, knockout_stage(state))
    after = replace(state, results={**before_the_knockout, fixture_id: new_result})
    wanted = {
        spec.id: (spec.home, spec.away)
        for stage in stages(after)
        if stage.playoff_of is not None
        for spec in stage.fixtures
    }
    return tuple(
        fixture.id
        for fixture in sorted(existing, key=lambda f: f.sequence)
        if fixture.id != fixture_id and wanted.get(fixture.id) != fixture.entrants
    )


def group_stages_of(state: TournamentState) -> tuple[Stage, ...]:
    """The group stages of a groups then knockout tournament that has started (else none)."""
    if state.settings.format != "groups_then_knockout" or state.order is None:
        return ()
    return tuple(stage for stage in stages(state) if not stage.is_knockout and not stage.playoff_of)


def group_cut_tie(state: TournamentState, label: str) -> CutTie | None:
    """The tie at the qualification cut of the complete group `label`, if it has one."""
    order = state.order or ()
    groups = group_stage(order, group_count=group_count(state), legs=state.settings.legs).groups
    group = next((g for g in groups if g.label == label), None)
    stage = next((s for s in group_stages_of(state) if s.name == label), None)
    if group is None or stage is None or not stage.complete:
        return None
    qualifiers = min(
        max(state.settings.advance_per_group, fewest_qualifiers(state.settings, len(groups))),
        min(len(g.entrants) for g in groups),
    )
    return cut_tie(state, label, stage, group.entrants, qualifiers)
