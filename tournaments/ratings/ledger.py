"""Which match results count for the ratings, folded from the tournament events in log order.

Pure (the standard library and the tournament stream's events only). Each tournament keeps its
club, its entrants' players (from `EntrantRegistered.players`, then `EntrantCorrected.players`;
an entrant registered before players were recorded falls back to `roster`, the name rows), its
fixtures (`FixtureCreated`) and the results in force: a `ResultRecorded` counts until a later
`FixtureReset` of its fixture or a new result of the same fixture withdraws it. Only public
tournaments count: every rating is public (decision record 0036). A silent final round's result
(decision record 0060) is held until `ResultsRevealed`, which brings every held result into
force at its own position (the ratings then recount those scopes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from uuid import UUID

from tournaments.plan.silence import first_silent_round, hides
from tournaments.stream.events import (
    EntrantCorrected,
    EntrantRegistered,
    ResultsRevealed,
    TournamentCreated,
    TournamentEvent,
    TournamentStarted,
)
from tournaments.stream.fixture_events import FixtureCreated, FixtureReset, ResultRecorded

FOLDED = (
    TournamentCreated,
    EntrantRegistered,
    EntrantCorrected,
    FixtureCreated,
    ResultRecorded,
    FixtureReset,
    TournamentStarted,
    ResultsRevealed,
)
"""The tournament events the ratings read; the others change nothing here."""
WITHDRAWING = (FixtureReset, ResultRecorded, ResultsRevealed)
"""The events that may take a result out of force (or bring held ones in)."""

Roster = Callable[[int], tuple[int, ...]]
"""The players of an entrant whose events do not name them (the name rows)."""
Seat = Callable[[UUID], tuple[int | None, bool] | None]
"""A tournament's club and visibility on this instance (its row), if known: an imported
tournament's events name the club by its id on the instance it came from."""


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A result in force: its sides' players in seat order and their ranks (1 best)."""

    position: int
    tournament: UUID
    club: int | None
    match_id: UUID
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    forfeit: bool

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(player for side in self.sides for player in side)


@dataclass
class TournamentBook:
    club: int | None = None
    public: bool = True
    players: dict[int, tuple[int, ...]] = field(default_factory=dict)
    fixtures: dict[str, FixtureCreated] = field(default_factory=dict)
    counted: dict[str, RatedMatch] = field(default_factory=dict)
    created: TournamentCreated | None = None
    silent_from: int | None = None
    """The first silent round while the results are not revealed (decision record 0060)."""
    held: dict[str, RatedMatch] = field(default_factory=dict)
    """The silent rounds' results, in force once revealed."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one event did to the results in force: a result `added`, one `withdrawn`, or
    both (a fixture's result replaced by a new one)."""

    added: RatedMatch | None = None
    withdrawn: RatedMatch | None = None
    revealed: tuple[RatedMatch, ...] = ()
    """The silent rounds' results brought into force at once (at their own positions)."""


class Ledger:
    """The results in force of every tournament folded so far."""

    def __init__(self, roster: Roster, seat: Seat | None = None) -> None:
        self.roster = roster
        self.seat = seat
        self.books: dict[UUID, TournamentBook] = {}

    def fold(self, *, stream_id: UUID, position: int, event: TournamentEvent) -> Change:
        if not isinstance(event, FOLDED):
            return Change()
        book = self.books.setdefault(stream_id, TournamentBook())
        if isinstance(event, TournamentCreated):
            here = None if self.seat is None else self.seat(stream_id)
            book.club, book.public = (event.club, event.public) if here is None else here
            book.created = event
        elif isinstance(event, TournamentStarted | ResultsRevealed):
            return self.silence(book, event)
        elif isinstance(event, EntrantRegistered | EntrantCorrected):
            named(book, event)
        elif isinstance(event, FixtureCreated):
            book.fixtures[event.fixture] = event
        elif isinstance(event, FixtureReset):
            book.held.pop(event.fixture, None)
            return Change(withdrawn=book.counted.pop(event.fixture, None))
        elif isinstance(event, ResultRecorded):
            return self.recorded(book, stream_id, position, event)
        return Change()

    def recorded(
        self, book: TournamentBook, stream_id: UUID, position: int, event: ResultRecorded
    ) -> Change:
        withdrawn = book.counted.pop(event.fixture, None)
        book.held.pop(event.fixture, None)
        fixture = book.fixtures.get(event.fixture)
        if fixture is None or not book.public:
            return Change(withdrawn=withdrawn)
        seated = fixture.entrants
        result = event.result
        if result.places is not None:
            ranks = tuple(result.places)
        elif result.winner is None or result.decided_by is not None:
            ranks = (1,) * len(seated)
        else:
            ranks = tuple(1 if entrant == result.winner else 2 for entrant in seated)
        match = RatedMatch(
            position=position,
            tournament=stream_id,
            club=book.club,
            match_id=UUID(fixture.match_id),
            sides=tuple(self.players_of(book, entrant) for entrant in seated),
            ranks=ranks,
            forfeit=result.forfeit or result.forfeited_by is not None,
        )
        if hides(book.silent_from, fixture.stage, fixture.round):
            book.held[event.fixture] = match
            return Change(withdrawn=withdrawn)
        book.counted[event.fixture] = match
        return Change(added=match, withdrawn=withdrawn)

    def silence(self, book: TournamentBook, event: TournamentStarted | ResultsRevealed) -> Change:
        """The silent rounds fixed at the start, and their held results in force at the
        reveal (decision record 0060)."""
        if isinstance(event, TournamentStarted):
            if book.created is not None:
                book.silent_from = first_silent_round(book.created.settings, event.order)
            return Change()
        book.silent_from = None
        book.counted.update(book.held)
        revealed, book.held = tuple(book.held.values()), {}
        return Change(revealed=revealed)

    def players_of(self, book: TournamentBook, entrant: int) -> tuple[int, ...]:
        players = book.players.get(entrant)
        if players is None:
            players = book.players[entrant] = self.roster(entrant)
        return players

    def in_force(self) -> list[RatedMatch]:
        """Every result in force, in log order."""
        matches = [m for book in self.books.values() for m in book.counted.values()]
        return sorted(matches, key=lambda match: match.position)


def named(book: TournamentBook, event: EntrantRegistered | EntrantCorrected) -> None:
    """The entrant's players, when the event names them."""
    if isinstance(event, EntrantRegistered):
        if event.players:
            book.players[event.entrant] = event.players
    elif event.players is not None:
        book.players[event.entrant] = event.players


def as_people(match: RatedMatch, people: Mapping[int, int]) -> RatedMatch | None:
    """The match between people: each player row as the person it is (`people`: player rows
    linked to one account, each to the first of them). None when one person would sit on two
    sides, or twice on one: such a match is not rated."""
    sides = tuple(tuple(people.get(player, player) for player in side) for side in match.sides)
    seated = [player for side in sides for player in side]
    if len(set(seated)) != len(seated):
        return None
    return replace(match, sides=sides)


def fold_all(ledger: Ledger, events: Iterable[tuple[UUID, int, TournamentEvent]]) -> Ledger:
    for stream_id, position, event in events:
        ledger.fold(stream_id=stream_id, position=position, event=event)
    return ledger
