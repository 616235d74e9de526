"""Why a tournament command is refused: each error has a stable `code` for clients.

Pure (the rules core's `RuleViolation` and the standard library): `tournaments.stream.decide`
raises them, the services let them through, the API answers them as 4xx with `code` and `detail`.
"""

from __future__ import annotations

from games.rules.errors import RuleViolation


class TournamentError(RuleViolation):
    """A tournament command that cannot be carried out; `code` says why."""

    code = "tournament_error"


class TournamentNotFound(TournamentError):
    code = "tournament_not_found"


class EntrantNotFound(TournamentError):
    code = "entrant_not_found"


class ClubNotFound(TournamentError):
    code = "club_not_found"


class PlayerNotFound(TournamentError):
    code = "player_not_found"


class TournamentMatchNotFound(TournamentError):
    """A match named in a tournament's path that is not one of its matches (unknown, another
    tournament's or free-standing): 404, as an entrant of another tournament is."""

    code = "match_not_found"


class InvalidTournament(TournamentError):
    code = "invalid_tournament"


class InvalidFormatOption(InvalidTournament):
    """A format option out of its bounds at creation (tournaments/stream/options.py)."""

    code = "invalid_format_option"


class InvalidFixedTable(TournamentError):
    """A fixed table that is not one of the venue's (decision record 0059)."""

    code = "invalid_fixed_table"


class FixedTableTaken(TournamentError):
    """Another active entrant has that fixed table (decision record 0059)."""

    code = "fixed_table_taken"


class TableReserved(TournamentError):
    """A match moved to a table reserved for a fixed-table entrant's match, or a fixed-table
    entrant's match moved off its table (decision record 0059)."""

    code = "table_reserved"


class TablesInUse(TournamentError):
    """Fewer tables than the matches waiting for their result hold: move those matches first."""

    code = "tables_in_use"


class RegistrationClosed(TournamentError):
    code = "registration_closed"


class TournamentAlreadyStarted(TournamentError):
    code = "tournament_started"


class TournamentNotStarted(TournamentError):
    code = "tournament_not_started"


class TooFewEntrants(TournamentError):
    code = "too_few_entrants"


class SwissRoundNotDue(TournamentError):
    code = "swiss_round_not_due"


class InvalidEntrant(TournamentError):
    code = "invalid_entrant"


class InvalidName(TournamentError):
    """A name the tables cannot hold, or that a calendar, a spreadsheet or a page could not show
    as one line: too long, or with a control character (decision record 0041)."""

    code = "invalid_name"


class PlayersRequired(TournamentError):
    """An entrant of a pair or a trio registered without its players' names (a single's player
    is named as the entrant when left out)."""

    code = "players_required"


class EntrantsRefused(TournamentError):
    """A list of entrants registered at once, some of whose lines the tournament refuses:
    none is registered. The body's `lines` name each (its `line`, `code` and `detail`)."""

    code = "entrants_refused"
    refusals: tuple[tuple[int, TournamentError], ...] = ()
    """Each refused line's number and why."""


class DuplicateSeed(TournamentError):
    code = "duplicate_seed"
    entrants: tuple[int, ...] = ()
    """The entrants that would hold the seed (ids: the service names them)."""


class DuplicateEntrantName(TournamentError):
    """A warning rather than a rule: the same command with `confirm_duplicate_name` goes ahead."""

    code = "duplicate_entrant_name"


class ReasonRequired(TournamentError):
    code = "reason_required"


class CheckInNotAccepted(TournamentError):
    """A check-in outside the window (closed, or not opened for a player's own). Its code keeps
    the words clients know; the class is not named after the event `CheckInClosed`."""

    code = "check_in_closed"


class EntrantWithdrawn(TournamentError):
    """A player who withdrew checks in no more (decision record 0055)."""

    code = "entrant_withdrawn"


class NotEntered(TournamentError):
    """A player key's application that is not (or no longer) an entrant: pending, waitlisted or
    declined (decision record 0055)."""

    code = "not_entered"


class MatchNotLevel(TournamentError):
    """Only a knockout match that ended level is decided by the organizer."""

    code = "match_not_level"


class GroupNotFound(TournamentError):
    code = "group_not_found"


class GroupNotComplete(TournamentError):
    """A group's places are decided once all its matches are played."""

    code = "group_not_complete"


class GroupNotTied(TournamentError):
    """Only a tie at a group's qualification cut, under the organizer's rule, is decided."""

    code = "group_not_tied"


class InvalidGroupOrder(TournamentError):
    """The order must list exactly the entrants tied at the cut, once each."""

    code = "invalid_group_order"


class SeasonNotFound(TournamentError):
    code = "season_not_found"


class InvalidSeason(TournamentError):
    """A season's settings or its tournaments refused (decision record 0037)."""

    code = "invalid_season"


class TournamentFull(TournamentError):
    """The sign-up cap is reached and the tournament keeps no waiting list (decision 0053)."""

    code = "tournament_full"


class ApplicationNotFound(TournamentError):
    code = "application_not_found"


class InvalidApplication(TournamentError):
    """An action an application cannot take where it is (approving an entered one, promoting
    one that is not on the waiting list, a reorder that is not the waiting list's)."""

    code = "invalid_application"


class NotASwiss(TournamentError):
    """Requested byes, pauses and late entries are for Swiss tournaments (decision 0058)."""

    code = "not_a_swiss"


class RoundAlreadyDrawn(TournamentError):
    """A requested bye for a round drawn already (or past), or its cancellation then."""

    code = "round_already_drawn"


class InvalidRound(TournamentError):
    """A round the Swiss does not have."""

    code = "invalid_round"


class TooManyByes(TournamentError):
    """The entrant has as many requested byes as `max_requested_byes` allows."""

    code = "too_many_byes"


class ByeAlreadyRequested(TournamentError):
    code = "bye_already_requested"


class ByeNotRequested(TournamentError):
    code = "bye_not_requested"


class NothingToReveal(TournamentError):
    """A tournament without silent final rounds, or whose results were revealed already
    (decision record 0060)."""

    code = "nothing_to_reveal"
