"""What a player does for their own entry with their player key (issue 26 §2, decision record
0055): check in while the organizer has the window open, withdraw before the start, confirm or
dispute their side's result. Each is the organizer's or the table's command, with the entry the
key is for and the player as the actor; the rules of each are those commands' rules.
"""

from __future__ import annotations

from uuid import UUID

from django.utils import timezone
from django.utils.translation import gettext_noop

from common.actors import Actor
from games.matches import services as matches
from games.matches.execution import CommandResult
from tournaments.errors import NotEntered, TournamentMatchNotFound
from tournaments.services.pipeline import TournamentCommandResult, load_tournament, run
from tournaments.services.registration import with_promotion
from tournaments.state import TournamentState
from tournaments.stream.commands import CheckInEntrant, WithdrawEntrant


def player_entrant(*, tournament_id: UUID, application_id: int) -> int:
    """The entrant the application entered as; `not_entered` while it is pending, waitlisted
    or declined. An application's entrant never changes once it entered."""
    state, _ = load_tournament(tournament_id=tournament_id)
    return entrant_of_application(state, application_id)


def entrant_of_application(state: TournamentState, application_id: int) -> int:
    entrant = state.entrant_of_application.get(application_id)
    if entrant is None:
        raise NotEntered.because(
            gettext_noop("you are not in the tournament yet: only an entered player may do this")
        )
    return entrant


def player_check_in(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The player is at the venue: recorded only while the check-in window is open; nothing
    when they had checked in already. Their matches at a table whose other side is here are
    called, as when the organizer checks them in."""
    return run(
        tournament_id=tournament_id,
        command=CheckInEntrant(entrant_id, timezone.now(), by_player=True),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def player_withdraw(
    *,
    tournament_id: UUID,
    entrant_id: int,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """The player leaves before the start (`tournament_started` after it); the first on the
    waiting list enters in their place, as for any withdrawal before the start."""
    return run(
        tournament_id=tournament_id,
        command=WithdrawEntrant(entrant_id, reason, by_player=True),
        prepare=with_promotion(tournament_id),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def player_side(*, tournament_id: UUID, entrant_id: int, match_id: UUID) -> int:
    """The side the entrant plays at the match: its seat order in the fixture. Any match that
    is not one of the entrant's (another tournament's, a reset one, a stranger's) is
    `match_not_found`, as a match that does not exist."""
    state, _ = load_tournament(tournament_id=tournament_id)
    fixture = state.fixture_of_match(str(match_id))
    if fixture is None or entrant_id not in fixture.entrants:
        raise TournamentMatchNotFound.because(
            gettext_noop("you play no match %(match)s"), match=match_id
        )
    return fixture.entrants.index(entrant_id)


def player_result_confirm(
    *, tournament_id: UUID, entrant_id: int, match_id: UUID, actor: Actor
) -> CommandResult:
    """Confirm the result of the player's match for their own side (the match's rules:
    finished, not confirmed by that side already)."""
    side = player_side(tournament_id=tournament_id, entrant_id=entrant_id, match_id=match_id)
    return matches.result_confirm(match_id=match_id, side=side, actor=actor)


def player_result_dispute(
    *, tournament_id: UUID, entrant_id: int, match_id: UUID, reason: str, actor: Actor
) -> CommandResult:
    """Dispute the result of the player's match for their own side, with a reason the
    organizer sees where disputes are settled."""
    side = player_side(tournament_id=tournament_id, entrant_id=entrant_id, match_id=match_id)
    return matches.result_dispute(match_id=match_id, side=side, reason=reason, actor=actor)
