"""What a reader of a tournament with silent final rounds is given (decision record 0060).

Who reads the silent rounds' results is decided once, in `accounts.permissions`
(`reads_silent_results`, from the place the request's permission check found); which rounds
are silent, in `tournaments.plan.silence`. Here the reads apply them: the standings and the
bracket as the public sees them, the fixtures' results blanked, and the events of the silent
rounds withheld from feeds and webhooks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from accounts.permissions import Place, reads_silent_results
from games.eventstore.api import RecordedEvent
from games.matches.projections import MATCH_STREAM
from tournaments.models import Fixture, Tournament
from tournaments.plan.silence import hides
from tournaments.selectors.access import tournament_place
from tournaments.services.pipeline import TOURNAMENT_STREAM
from tournaments.stream.events import ResultsRevealed, tournament_event
from tournaments.stream.fixture_events import LevelMatchDecided, ResultRecorded

"""The tournament's own events that say a fixture's result."""

HIDDEN_RESULT = {
    "winner": None,
    "winner_name": None,
    "places": None,
    "decided_by": None,
    "rounds_won": None,
    "points": None,
    "round_wins": None,
    "outcome": None,
    "place": None,
}
"""A silent fixture's result fields as the public reads them (those a row has are blanked)."""


def hidden_round(reader: Any, place: Place) -> int | None:
    """The first round whose results `reader` may not read at the tournament's `place` now;
    None when they read everything."""
    if reads_silent_results(reader, place):
        return None
    return place.silent_from_round


def redacted_fixture(
    row: Mapping[str, Any], from_round: int | None, *, mark: bool = False
) -> dict[str, Any]:
    """A fixture's row (a dict with `stage` and `round`) as a reader who may not read the rounds
    from `from_round` reads it: its pairing, table and times, its result blanked (`mark`: and
    `results_hidden` set, for a page to say so)."""
    shown = dict(row)
    if hides(from_round, str(row.get("stage")), int(row.get("round") or 0)):
        shown.update({key: value for key, value in HIDDEN_RESULT.items() if key in shown})
        if mark:
            shown["results_hidden"] = True
    return shown


def redacted_fixtures(
    rows: Iterable[Mapping[str, Any]], from_round: int | None, *, mark: bool = False
) -> list[dict[str, Any]]:
    return [redacted_fixture(row, from_round, mark=mark) for row in rows]


def hidden_round_of_tournament(reader: Any, tournament: Tournament) -> int | None:
    """`hidden_round` for a reader of the tournament's row (the pages): no query while
    nothing is hidden."""
    if tournament.silent_from_round is None:
        return None
    return hidden_round(reader, tournament_place(tournament.id))


@dataclass
class WithheldEvents:
    """Which events of a tournament's feed a reader is not given while its last rounds are
    silent: the silent rounds' matches' events and the tournament's records of their results.
    Once the feed brings `ResultsRevealed`, nothing more is withheld (the event itself is the
    followers' signal to read the results again: what was withheld is not sent afterwards).
    One per stream or fan-out batch: it remembers each match's and fixture's round."""

    tournament_id: UUID
    from_round: int
    revealed: bool = False
    match_rounds: dict[UUID, bool] = field(default_factory=dict)
    fixture_rounds: dict[str, bool] = field(default_factory=dict)

    def __call__(self, event: RecordedEvent) -> bool:
        if self.revealed:
            return False
        if event.stream_type == TOURNAMENT_STREAM:
            typed = tournament_event(event)
            if isinstance(typed, ResultsRevealed) and event.stream_id == self.tournament_id:
                self.revealed = True
                return False
            if isinstance(typed, ResultRecorded | LevelMatchDecided):
                return self.fixture_is_silent(typed.fixture)
            return False
        if event.stream_type == MATCH_STREAM:
            return self.match_is_silent(event.stream_id)
        return False

    def match_is_silent(self, match_id: UUID) -> bool:
        if match_id not in self.match_rounds:
            found = Fixture.objects.filter(match_id=match_id).values_list("stage", "round").first()
            self.match_rounds[match_id] = found is not None and hides(self.from_round, *found)
        return self.match_rounds[match_id]

    def fixture_is_silent(self, key: str) -> bool:
        if key not in self.fixture_rounds:
            found = (
                Fixture.objects.filter(tournament_id=self.tournament_id, key=key)
                .values_list("stage", "round")
                .first()
            )
            self.fixture_rounds[key] = found is not None and hides(self.from_round, *found)
        return self.fixture_rounds[key]


def withheld_events(reader: Any, place: Place) -> WithheldEvents | None:
    """The events `reader` is not given of the tournament at `place`; None: every event."""
    from_round = hidden_round(reader, place)
    if from_round is None or place.tournament_id is None:
        return None
    return WithheldEvents(tournament_id=place.tournament_id, from_round=from_round)
