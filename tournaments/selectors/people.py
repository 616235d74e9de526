"""Who is the same person across player rows.

Registering makes a player row per entry, so one person playing every club night has many
rows. The ratings and the season standings count people, not rows, by one rule (decision
records 0036 and 0037): rows linked to the same account are one person; rows of no account with
the same name (case and spacing aside, as the duplicate-name check compares names within a
tournament) are one person; an erased row is a person of its own. A person is named by the id of
their first row, which the projections key their rows on. That row may be a private tournament's:
what a reader is shown of a person, and by which row, is `tournaments.selectors.players`'s rule
(decision record 0043).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import Player
from tournaments.services.names import same_name

PlayerFacts = tuple[int, str, bool, int | None]
"""A player row's id, name, whether it was erased, and its account's id."""


def identity(name: str, *, erased: bool, user_id: int | None, player_id: int) -> tuple[str, object]:
    """What makes two rows the same person."""
    if erased:
        return ("erased", player_id)
    if user_id is not None:
        return ("account", user_id)
    return ("name", same_name(name))


def persons_of(rows: Iterable[PlayerFacts]) -> dict[int, int]:
    """Each row's person: the id of the first row (lowest id) of the same identity."""
    first: dict[tuple[str, object], int] = {}
    persons: dict[int, int] = {}
    for player_id, name, erased, user_id in sorted(rows):
        key = identity(name, erased=erased, user_id=user_id, player_id=player_id)
        persons[player_id] = first.setdefault(key, player_id)
    return persons


def people() -> dict[int, int]:
    """Every player row's person, for the rows that are not their person's first row (the
    others are their own person): what the ratings map their players through."""
    rows = Player.objects.values_list("id", "name", "erased", "user_id")
    return {row: person for row, person in persons_of(rows).items() if row != person}


def rows_of_person(player_id: int) -> list[int]:
    """Every player row of the person `player_id`'s row is (that row included), first row
    first: what the person's page lists."""
    rows = persons_of(Player.objects.values_list("id", "name", "erased", "user_id"))
    person = rows.get(player_id, player_id)
    return sorted({player_id, *(row for row, of in rows.items() if of == person)})
