"""Revealing the silent final rounds (decision record 0060)."""

from __future__ import annotations

from common.explained import gettext_noop
from tournaments.errors import NothingToReveal
from tournaments.state import TournamentState
from tournaments.stream.commands import RevealResults
from tournaments.stream.events import ResultsRevealed, TournamentEvent


def reveal_results(state: TournamentState, command: RevealResults) -> list[TournamentEvent]:  # noqa: ARG001 - every decider takes its command
    """Once, for a tournament with silent final rounds: from then on everybody reads them."""
    if not state.settings.silent_final_rounds:
        raise NothingToReveal.because(gettext_noop("this tournament has no silent final rounds"))
    if state.results_revealed:
        raise NothingToReveal.because(gettext_noop("the results were revealed already"))
    return [ResultsRevealed()]
