"""Personal data (decision record 0018): names live in the name tables only, so erasing a
player changes rows there and never an event."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from common.actors import Actor
from tournaments.errors import (
    InvalidEntrant,
)
from tournaments.models import Entrant, EntrantPlayer, Player
from tournaments.ratings import projection as ratings
from tournaments.services import names

logger = logging.getLogger(__name__)

ERASED_PLAYER = "erased player"
TEAM_NAME_SEPARATOR = " / "


def player_display_name(player: Player) -> str:
    return ERASED_PLAYER if player.erased else player.name


def entrant_name_after_erasure(players: Sequence[Player]) -> str:
    """A single reads `erased player`; a pair or trio reads its players' names in seat order,
    `erased player` in place of each erased one. The name given at registration is not kept:
    a team's name is often made of its players' names, and nothing tells us it is not."""
    return TEAM_NAME_SEPARATOR.join(player_display_name(player) for player in players)


def player_erase(*, player: Player, actor: Actor) -> bool:
    """Erase a player's personal data: blank the name, mark the player erased, and rename each
    entrant the player belongs to. No event is appended or changed (events carry ids only), and
    every read (standings, brackets, the tournament and scorer APIs, the admin) then shows
    `erased player`. Idempotent: returns False when the player was erased already."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        newly = not locked.erased
        locked.name = ""
        locked.erased = True
        locked.user = None  # the link to an account would say who the player was
        locked.save(update_fields=["name", "erased", "user"])
        entrants = list(Entrant.objects.filter(players=locked).distinct())
        # Before the entrant rows, as a tournament's commands lock its row before theirs.
        names.names_changed(tournament_ids=[entrant.tournament_id for entrant in entrants])
        for entrant in entrants:
            members = [
                membership.player
                for membership in EntrantPlayer.objects.filter(entrant=entrant)
                .select_related("player")
                .order_by("position")
            ]
            entrant.name = entrant_name_after_erasure(members)
            entrant.save(update_fields=["name"])
        if newly:
            # An erased row is a person of its own (tournaments.selectors.people): counted again.
            ratings.recount_everyone()
    # Who erased whom, by ids: the log line itself must hold no personal data.
    logger.info("player %s erased by user %s (%s)", player.pk, actor.user_id, actor.device)
    player.name, player.erased = locked.name, locked.erased
    return newly


def player_link(*, player: Player, username: str) -> Player:
    """Link the player to the account they sign in with (decision 0016)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidEntrant.because(gettext_noop("there is no user %(user)r"), user=username)
    if player.erased:
        raise InvalidEntrant.because(gettext_noop("this player's personal data was erased"))
    with transaction.atomic():
        player.user = user
        player.save(update_fields=["user"])
        ratings.recount_everyone()  # the rows of one account are one person (decision 0036)
    return player
