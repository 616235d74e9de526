"""Revealing the silent final rounds (decision record 0060)."""

from __future__ import annotations

from common.explained import gettext_noop
from tournaments.errors import NothingToReveal
from tournaments.plan.silence import silent_from_round
from tournaments.state import TournamentState
from tournaments.stream.commands import RevealResults
from tournaments.stream.events import ResultsRevealed, TournamentEvent


def reveal_results(state: TournamentState, command: RevealResults) -> list[TournamentEvent]:  # noqa: ARG001 - every decider takes its command
    """Once, for a tournament with silent final rounds: from then on everybody reads them."""
    if not state.settings.silent_final_rounds:
        raise NothingToReveal.because(gettext_noop("this tournament has no silent final rounds"))
    if state.results_revealed:
        raise NothingToReveal.because(gettext_noop("the results were revealed already"))
    from_round = silent_from_round(state)
    if from_round is None or len(state.swiss_rounds) < from_round:
        # Revealed before they are played, the silent rounds would not be silent at all.
        raise NothingToReveal.because(
            gettext_noop("no silent round has been drawn yet: there is nothing to reveal")
        )
    return [ResultsRevealed()]
