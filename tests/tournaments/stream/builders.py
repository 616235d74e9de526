"""What the pure stream's tests share."""

from __future__ import annotations

from tournaments.state import TournamentState
from tournaments.stream.commands import TournamentCommand
from tournaments.stream.decide import decide
from tournaments.stream.evolve import fold


def carried_out(state: TournamentState | None, *commands: TournamentCommand) -> TournamentState:
    """The state after deciding and folding each command in turn (None: a new tournament)."""
    for command in commands:
        state = fold(decide(state, command), state)
    assert state is not None
    return state
