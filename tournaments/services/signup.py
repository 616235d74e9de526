"""Players' sign-up (issue 26 §1, decision record 0053): the sign-up settings, applications,
the organizer's approval, the waiting list, player keys and the erasure of an application's
personal data.

The names and the contact a player gives are written to the application's row (a name row,
decision record 0018); the events carry the application's and the entrant's ids only.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_noop

from accounts.keys import hash_key, visible_prefix
from common.actors import Actor
from tournaments.errors import ApplicationNotFound, DuplicateEntrantName
from tournaments.models import Application, PlayerKey
from tournaments.models.signup import PLAYER_KEY_PREFIX
from tournaments.services import names
from tournaments.services.pipeline import TournamentCommandResult, run
from tournaments.services.registration import prepared_entrant
from tournaments.state import ApplicationPhase, Registration, TournamentState
from tournaments.stream.commands import (
    ApplyToPlay,
    ApproveApplication,
    ChangeRegistration,
    DeclineApplication,
    PreparedEntrant,
    PromoteApplication,
    ReorderWaitingList,
    TournamentCommand,
)
from tournaments.stream.entrant_checks import players_or_name
from tournaments.stream.events import EntrantApplied, tournament_event
from tournaments.stream.signup import application_outcome, approval_outcome, check_promotable


def registration_change(
    *,
    tournament_id: UUID,
    registration: Registration,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Set the sign-up settings before the start (`RegistrationChanged`)."""
    return run(
        tournament_id=tournament_id,
        command=ChangeRegistration(registration),
        actor=actor,
        idempotency_key=idempotency_key,
    )


@dataclass(frozen=True)
class SignUp:
    """What an application left: where it is and the player key, shown once."""

    application: Application
    status: ApplicationPhase
    entrant: int | None
    position: int | None
    player_key: str
    repeated: bool = False
    """Answered for a repeated idempotency key: the first request's application."""


NEW_APPLICATION = 0
"""The application of a command asked before its row is written (`prepare` writes it)."""
NOT_PREPARED = PreparedEntrant(0, ())
"""The entrant rows of a command asked before they are written (`prepare` writes them)."""


def application_submit(
    *,
    tournament_id: UUID,
    name: str,
    actor: Actor,
    players: Sequence[str] | None = None,
    contact: str = "",
    idempotency_key: str | None = None,
) -> SignUp:
    """A player's application to play: entered at once, waitlisted or pending (decision record
    0053), or refused (`registration_closed`, `tournament_full`, `duplicate_entrant_name`)."""
    given = None if players is None else list(players)
    for given_name in (name, *(given or ())):
        names.check_name_given(given_name)
    made: list[Application] = []

    def apply(state: TournamentState | None, _asked: ApplyToPlay) -> TournamentCommand:
        if state is None:
            raise RuntimeError("an application needs the tournament's state")
        now = timezone.now()
        seated = players_or_name(state, name=name, players=given)
        outcome = application_outcome(state, now)
        check_name_unused(tournament_id=tournament_id, name=name)
        application = Application.objects.create(
            tournament_id=tournament_id,
            name=name,
            players=[] if given is None else seated,
            contact=contact.strip(),
            applied_at=now,
        )
        made.append(application)
        entrant = prepared_entrant(application) if outcome == ApplicationPhase.ENTERED else None
        return ApplyToPlay(application.id, len(seated), now, entrant)

    result = run(
        tournament_id=tournament_id,
        command=ApplyToPlay(NEW_APPLICATION, len(given or ()), timezone.now()),
        names=[name, given, contact],
        prepare=apply,
        actor=actor,
        idempotency_key=idempotency_key,
    )
    if made:
        application = made[-1]
        key = player_key_issue(application=application)
    else:
        application = applied_application(result)
        key = player_key_shown(application=application)
    return replace(sign_up_of(result.state, application, key), repeated=result.duplicate)


def applied_application(result: TournamentCommandResult) -> Application:
    """The application a repeated request made (its first answer may never have arrived)."""
    events = map(tournament_event, result.events)
    applied = next(event for event in events if isinstance(event, EntrantApplied))
    return Application.objects.get(id=applied.application)


def sign_up_of(state: TournamentState, application: Application, key: str) -> SignUp:
    status = state.applications[application.id]
    position = state.waiting.index(application.id) + 1 if application.id in state.waiting else None
    return SignUp(
        application=application,
        status=status,
        entrant=state.entrant_of_application.get(application.id),
        position=position,
        player_key=key,
    )


def check_name_unused(*, tournament_id: UUID, name: str) -> None:
    """An entrant's name, or that of an application still waiting, refuses the application
    (`duplicate_entrant_name`: a player cannot confirm a duplicate as an organizer can)."""
    names.check_name_is_free(tournament_id=tournament_id, name=name, confirmed=False)
    wanted = names.same_name(name)
    waiting = Application.objects.filter(
        tournament_id=tournament_id, entrant__isnull=True, erased=False
    )
    for other in waiting.values_list("name", flat=True):
        if names.same_name(other) == wanted:
            raise DuplicateEntrantName.because(
                gettext_noop("another application to this tournament is called %(name)s"),
                name=other,
            )


def application_of(*, tournament_id: UUID, application_id: int) -> Application:
    try:
        return Application.objects.get(tournament_id=tournament_id, id=application_id)
    except Application.DoesNotExist:
        raise ApplicationNotFound.because(
            gettext_noop("there is no application %(application)s"), application=application_id
        ) from None


def application_approve(
    *,
    tournament_id: UUID,
    application_id: int,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Approve a pending application: it enters under the cap, else joins the waiting list."""

    def approve(state: TournamentState | None, _asked: ApproveApplication) -> TournamentCommand:
        if state is None:
            raise RuntimeError("an approval needs the tournament's state")
        outcome = approval_outcome(state, application_id)
        application = application_of(tournament_id=tournament_id, application_id=application_id)
        entered = outcome == ApplicationPhase.ENTERED
        return ApproveApplication(
            application_id, prepared_entrant(application) if entered else None
        )

    return run(
        tournament_id=tournament_id,
        command=ApproveApplication(application_id),
        prepare=approve,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def application_decline(
    *,
    tournament_id: UUID,
    application_id: int,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    return run(
        tournament_id=tournament_id,
        command=DeclineApplication(application_id, reason),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def application_promote(
    *,
    tournament_id: UUID,
    application_id: int,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Enter a waiting (or pending) application while there is room under the cap."""

    def promote(state: TournamentState | None, _asked: PromoteApplication) -> TournamentCommand:
        if state is None:
            raise RuntimeError("a promotion needs the tournament's state")
        check_promotable(state, application_id)
        application = application_of(tournament_id=tournament_id, application_id=application_id)
        return PromoteApplication(application_id, prepared_entrant(application))

    return run(
        tournament_id=tournament_id,
        command=PromoteApplication(application_id, NOT_PREPARED),
        prepare=promote,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def waiting_list_reorder(
    *,
    tournament_id: UUID,
    order: Sequence[int],
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    return run(
        tournament_id=tournament_id,
        command=ReorderWaitingList(tuple(order)),
        actor=actor,
        idempotency_key=idempotency_key,
    )


# Player keys.


def derived_player_key(salt: str) -> str:
    """The key of a random `salt`: an HMAC with the server's secret (as a table card's key is,
    accounts.keys.derived_device_key), so the salt stored in the row gives nothing without the
    secret, and the server can show the key again (a repeated request, a printed card)."""
    digest = salted_hmac("tournaments.player_key", salt, algorithm="sha256").digest()
    return PLAYER_KEY_PREFIX + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def player_key_shown(*, application: Application) -> str:
    """The application's active key again, or a new one when it has none."""
    active = PlayerKey.objects.filter(application=application, revoked_at__isnull=True).first()
    if active is None:
        return player_key_issue(application=application)
    return derived_player_key(active.salt)


def player_key_issue(*, application: Application) -> str:
    """A new key for the application's player, shown once: any key it had is revoked (the
    organizer's new card for a lost phone)."""
    salt = secrets.token_urlsafe(32)
    key = derived_player_key(salt)
    now = timezone.now()
    with transaction.atomic():
        PlayerKey.objects.filter(application=application, revoked_at__isnull=True).update(
            revoked_at=now
        )
        PlayerKey.objects.create(
            application=application,
            prefix=visible_prefix(key),
            salt=salt,
            key_hash=hash_key(key),
            created_at=now,
        )
    return key


def player_key_revoke(*, application: Application) -> int:
    """Revoke the application's keys (the organizer's); how many were active."""
    return PlayerKey.objects.filter(application=application, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def player_key_find(key: str, *, now: datetime | None = None) -> PlayerKey | None:  # noqa: ARG001 - keys do not expire yet; §2 may give them an end
    """The active key `key` is, or None (unknown, revoked, not a player key)."""
    if not key.startswith(PLAYER_KEY_PREFIX):
        return None
    return (
        PlayerKey.objects.select_related("application")
        .filter(key_hash=hash_key(key), revoked_at__isnull=True)
        .first()
    )


def application_erase(*, application: Application) -> bool:
    """Erase an application's personal data (its names and contact; decision record 0018): no
    event changes. False when it was erased already."""
    if application.erased:
        return False
    application.name = ""
    application.players = []
    application.contact = ""
    application.erased = True
    application.save(update_fields=["name", "players", "contact", "erased"])
    return True
