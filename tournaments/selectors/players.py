"""Which players a reader may know of: the one rule of every player read (decision record 0043).

A player row is known to a reader when it plays in a tournament the reader may read
(`lookup.visible_tournaments`): a player known only from private tournaments is nobody else's
business, and is not found, as an unknown id is not (ids are sequential: a name answered for any
id could be collected by counting). The player page, a player's ratings, the leaderboard, the
seasons and the match pages all ask here.

A person (`tournaments.selectors.people`) is shown by the first of their rows the reader may know
of: the ratings are kept under the person's first row, which may be a private one even though only
public results are rated.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from tournaments.errors import PlayerNotFound
from tournaments.models import Player, Tournament
from tournaments.selectors.lookup import visible_tournaments
from tournaments.selectors.people import persons_of


def visible_players(reader: Any, players: QuerySet[Player]) -> QuerySet[Player]:
    """The players who play in a tournament `reader` may read."""
    visible = visible_tournaments(reader, Tournament.objects.all())
    return players.filter(entries__tournament__in=visible).distinct()


def player_get(*, player_id: int, reader: Any) -> Player:
    """The player, if `reader` may know of them; `player_not_found` if not, as for an id that
    does not exist."""
    player = visible_players(reader, Player.objects.filter(id=player_id)).first()
    if player is None:
        raise PlayerNotFound.because(gettext_noop("no player %(player)s"), player=player_id)
    return player


def persons_shown(*, persons: Iterable[int], reader: Any) -> dict[int, Player]:
    """Each person (by the id of their first row) as `reader` may see them: by the first of their
    rows the reader may know of. A person none of whose rows the reader may know of is left
    out."""
    wanted = set(persons)
    if not wanted:
        return {}
    person_of = persons_of(Player.objects.values_list("id", "name", "erased", "user_id"))
    rows = [row for row, person in person_of.items() if person in wanted]
    shown: dict[int, Player] = {}
    for player in visible_players(reader, Player.objects.filter(id__in=rows)).order_by("id"):
        shown.setdefault(person_of[player.id], player)
    return shown
