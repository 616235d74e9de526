"""The commands a tournament carries out (imperative). Those that may create fixtures name the
tournament: a fixture's match id is derived from it, so a retried command creates nothing twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeAlias

from common.fingerprints import LEFT_OUT
from tournaments.state import Registration, Result, TournamentSettings

TABLE_SIZES = (2, 3, 4, 6)
PLAYERS_PER_ENTRANT = {2: 1, 3: 1, 4: 2, 6: 3}
"""Players per entrant: one at two and three (each for himself), a pair at four, a trio at six."""
THREES_FORMATS = ("single_elimination", "round_robin", "swiss", "groups_then_knockout")
"""The formats played at tables of three (decision record 0031): no double elimination."""
SEEDING_METHODS = ("given", "random")


@dataclass(frozen=True)
class CreateTournament:
    name: str
    settings: TournamentSettings
    club: int | None = None
    public: bool = True


@dataclass(frozen=True)
class RegisterEntrant:
    entrant: int
    players: int
    """How many players the entrant brings (their names stay in the name tables)."""
    seed: int | None = None
    player_ids: tuple[int, ...] = ()
    """Their ids in seat order, recorded for the ratings (empty: not recorded)."""
    fixed_table: int | None = None
    """The table the entrant always plays at (decision record 0059); None: any."""
    group: str | None = None
    """Its group label (decision record 0057), checked by `check_group_label`."""


@dataclass(frozen=True)
class RegisterEntrants:
    """Register several entrants in one command (a pasted list, a file, a bulk request): all
    of them, in order, or none."""

    entrants: tuple[RegisterEntrant, ...]


@dataclass(frozen=True)
class CheckInEntrant:
    entrant: int
    now: datetime | None = field(default=None, metadata=LEFT_OUT)
    """When (the check-in window is checked, and the entrant's matches at a table whose other
    side is here already are called); None: no window check, no call."""
    by_player: bool = False
    """The player checks themselves in (their player key, decision record 0055): only while
    the organizer has the check-in window open, not at any time as a window never opened
    lets the organizer."""


@dataclass(frozen=True)
class OpenCheckIn:
    """Open the check-in window (again, after a close), until `closes_at` when given."""

    now: datetime = field(metadata=LEFT_OUT)
    closes_at: datetime | None = None


@dataclass(frozen=True)
class CloseCheckIn:
    now: datetime = field(metadata=LEFT_OUT)


@dataclass(frozen=True)
class PreparedEntrant:
    """An entrant's name rows written for an application that may enter (decision 0053): its
    id and its players' ids in seat order."""

    entrant: int
    player_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class WithdrawEntrant:
    entrant: int
    reason: str = ""
    promoted: PreparedEntrant | None = None
    """The entrant rows of the first application on the waiting list, entered in the place the
    withdrawal frees (before the start, under the cap); None: nobody is promoted."""
    by_player: bool = False
    """The player withdraws themselves (their player key): only before the start; after it,
    withdrawing forfeits matches, which is the organizer's to do."""


@dataclass(frozen=True)
class ChangeRegistration:
    """Set the sign-up settings, before the start."""

    registration: Registration


@dataclass(frozen=True)
class ApplyToPlay:
    """A player applies to play, bringing `players` players; `entrant`: the rows it enters as
    when it enters at once (open, no approval, under the cap)."""

    application: int
    players: int
    now: datetime = field(metadata=LEFT_OUT)
    entrant: PreparedEntrant | None = None


@dataclass(frozen=True)
class ApproveApplication:
    """Approve a pending application: it enters (`entrant`) under the cap, else it waits."""

    application: int
    entrant: PreparedEntrant | None = None


@dataclass(frozen=True)
class DeclineApplication:
    application: int
    reason: str = ""


@dataclass(frozen=True)
class PromoteApplication:
    """Enter an application from the waiting list (or a pending one), while there is room."""

    application: int
    entrant: PreparedEntrant


@dataclass(frozen=True)
class ReorderWaitingList:
    order: tuple[int, ...]


@dataclass(frozen=True)
class SeedEntrants:
    method: str = "given"
    random_seed: int | None = None
    order: tuple[int, ...] | None = None
    """`rating`: the active entrants by their players' ratings, best first (the services read
    the ratings; the event records the order, so a replay never reads them)."""


@dataclass(frozen=True)
class StartTournament:
    tournament: uuid.UUID
    only_checked_in: bool = False
    """Withdraw every entrant that has not checked in ("did not check in"), then start."""
    rating_order: tuple[int, ...] | None = None
    """With the setting `seeding: "rating"` and no seeding fixed: the order by rating."""


@dataclass(frozen=True)
class PublishSwissRound:
    tournament: uuid.UUID
    allow_same_group: bool = False
    """The organizer lets this round pair entrants of one group, as few as it can, when a
    strict rule finds no draw without (decision record 0057)."""


@dataclass(frozen=True)
class AdvanceTournament:
    tournament: uuid.UUID


@dataclass(frozen=True)
class RecordResult:
    """Record the result of one of the tournament's matches (a new or a changed one)."""

    tournament: uuid.UUID
    match_id: str
    result: Result


@dataclass(frozen=True)
class ScheduleMatches:
    """Give every waiting fixture a free table, a start time and (with the no-show rule) a
    deadline. `underway`: the match ids being played already (they need no table)."""

    now: datetime = field(metadata=LEFT_OUT)
    underway: frozenset[str] = frozenset()


@dataclass(frozen=True)
class AssignTable:
    """Put a fixture's match at a table; a fixture holding it takes the mover's table."""

    match_id: str
    table: int
    now: datetime = field(metadata=LEFT_OUT)


@dataclass(frozen=True)
class CallMatch:
    """Call a fixture's match to its table (to `table` first, when given): the no-show clock
    starts now."""

    match_id: str
    now: datetime = field(metadata=LEFT_OUT)
    table: int | None = None


@dataclass(frozen=True)
class ChangeTables:
    """Set the venue's tables to `tables` (numbered from 1); None before the start: as many as
    the entrants need (decision record 0049)."""

    tables: int | None


@dataclass(frozen=True)
class CorrectEntrant:
    """Record a correction of an entrant's name and/or players, made in the name rows (the
    event says what changed and the players' ids, never a name)."""

    entrant: int
    reason: str
    changed: tuple[str, ...] = ()
    players: tuple[int, ...] | None = None
    fixed_table: int | None = None
    """The entrant's fixed table when `changed` names `fixed_table` (None: none any more)."""
    group: str | None = None
    """When `changed` holds `group`: the new label (None: no group), before the start only."""


@dataclass(frozen=True)
class ReseedEntrants:
    """Give entrants new seeds (None: no seed) before the start, all at once."""

    seeds: tuple[tuple[int, int | None], ...]
    reason: str


@dataclass(frozen=True)
class DecideLevelMatch:
    """Name the winner (an entrant of the fixture) of a knockout match that ended level, and
    say why."""

    tournament: uuid.UUID
    match_id: str
    winner: int
    reason: str


@dataclass(frozen=True)
class DecideGroupPlaces:
    """Order the entrants of a complete group tied at its qualification cut (entrant ids, best
    first: every tied entrant once), and say why."""

    tournament: uuid.UUID
    group: str
    order: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class RequestBye:
    """Sit out Swiss round `round` (decision record 0058)."""

    entrant: int
    round: int
    by_player: bool = False


@dataclass(frozen=True)
class CancelBye:
    """Take back a requested bye before its round is drawn."""

    entrant: int
    round: int
    by_player: bool = False


@dataclass(frozen=True)
class PauseEntrant:
    """Leave an entrant out of the Swiss draws from the next one until it returns."""

    entrant: int
    reason: str = ""


@dataclass(frozen=True)
class ReturnEntrant:
    """Draw a paused entrant again from the next round."""

    entrant: int


@dataclass(frozen=True)
class RevealResults:
    """Reveal the silent final rounds' results and standings to everybody (decision record
    0060)."""


EntrantCommand: TypeAlias = (
    RegisterEntrant
    | RegisterEntrants
    | CheckInEntrant
    | OpenCheckIn
    | CloseCheckIn
    | WithdrawEntrant
    | SeedEntrants
    | CorrectEntrant
    | ReseedEntrants
)
"""The commands on the entrants: their entry, check-in, withdrawal, corrections and seeds."""
ProgressCommand: TypeAlias = (
    StartTournament
    | PublishSwissRound
    | AdvanceTournament
    | RecordResult
    | DecideLevelMatch
    | DecideGroupPlaces
)
"""The commands that carry the tournament from its start to its end."""
TableCommand: TypeAlias = ScheduleMatches | AssignTable | CallMatch | ChangeTables
"""The commands on the tables: where and when the matches are played."""
SignUpCommand: TypeAlias = (
    ChangeRegistration
    | ApplyToPlay
    | ApproveApplication
    | DeclineApplication
    | PromoteApplication
    | ReorderWaitingList
)
"""The commands of the sign-up: the applications and the waiting list."""
ByeCommand: TypeAlias = RequestBye | CancelBye | PauseEntrant | ReturnEntrant
"""The commands by which an entrant sits rounds out and comes back."""
TournamentCommand: TypeAlias = (
    CreateTournament
    | EntrantCommand
    | ProgressCommand
    | TableCommand
    | SignUpCommand
    | ByeCommand
    | RevealResults
)
