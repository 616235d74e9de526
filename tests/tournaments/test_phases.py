"""The pure tournament code's statuses and the rows' choices are the same words."""

from __future__ import annotations

from games.models import MatchStatus
from tournaments.models import FixtureStatus, TournamentStatus
from tournaments.state import FixturePhase, MatchPhase, TournamentPhase


def test_the_pure_phases_name_exactly_the_statuses_the_rows_store() -> None:
    assert {phase.value for phase in TournamentPhase} == set(TournamentStatus.values)
    assert {phase.value for phase in FixturePhase} == set(FixtureStatus.values)
    assert {phase.value for phase in MatchPhase} == set(MatchStatus.values)
