"""Silent final rounds (decision record 0060): which rounds of a Swiss only its organizers see
the results of, until they reveal them. Pure: the rows, the views and every read ask here."""

from __future__ import annotations

from dataclasses import replace

from tournaments.plan.drawing import swiss_rounds_of
from tournaments.state import TournamentSettings, TournamentState

SILENT_FORMATS = ("swiss",)
"""The formats whose last rounds may be silent: a Swiss's rounds are known once it starts, and
its standings are what the last rounds decide. A knockout's bracket shows who goes on, so its
results cannot be hidden; a round robin's are left for later (decision record 0060)."""


def silent_from_round(state: TournamentState) -> int | None:
    """The first round whose results are hidden now; None when nothing is (no silent rounds,
    revealed, or not started: before the start a Swiss has no round yet)."""
    silent = state.settings.silent_final_rounds
    if not silent or state.results_revealed or not state.started:
        return None
    if state.settings.format not in SILENT_FORMATS:
        return None
    return max(1, swiss_rounds_of(state) - silent + 1)


def first_silent_round(settings: TournamentSettings, order: tuple[int, ...]) -> int | None:
    """`silent_from_round` of a tournament created with `settings` and started with `order`,
    not revealed (for the folds that keep no whole state: the ratings' ledger)."""
    return silent_from_round(TournamentState(name="", settings=settings, order=order))


def hides(from_round: int | None, stage: str, round_number: int) -> bool:
    """Whether a fixture of `stage`'s round `round_number` is silent while the silence starts
    at `from_round` (None: nothing is)."""
    return from_round is not None and stage == "swiss" and round_number >= from_round


def as_public_sees(state: TournamentState) -> TournamentState | None:
    """The tournament as the public reads it while its last rounds are silent: the silent
    rounds' pairings (players find their tables) without their results, and without their
    byes for the standings (`standings_state`); None when nothing is hidden, or no silent
    round has been paired yet (the public sees what everybody sees)."""
    from_round = silent_from_round(state)
    if from_round is None or len(state.swiss_rounds) < from_round:
        return None
    results = {
        fixture_id: result
        for fixture_id, result in state.results.items()
        if fixture_id not in state.fixtures
        or not hides(from_round, state.fixtures[fixture_id].stage, state.fixtures[fixture_id].round)
    }
    return replace(state, results=results, finished=False)


def standings_state(public: TournamentState, from_round: int) -> TournamentState:
    """The public tournament as it stood after round `from_round - 1`: the standings the
    public reads (a silent round's bye counts nothing yet either)."""
    return replace(public, swiss_rounds=public.swiss_rounds[: from_round - 1])
