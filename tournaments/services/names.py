"""Checks on the name tables (names live in rows, never in events: decision 0018).

A duplicate name (case and spacing aside, within the tournament) is a warning the organizer
confirms: refused with `duplicate_entrant_name` unless the command says
`confirm_duplicate_name`, at registration as on a rename.

Every service that writes a name the tournament's reads show (an entrant's, its players', an
erasure) calls `names_changed` in the same transaction, so their ETag changes with it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from uuid import UUID

from django.utils.translation import gettext_noop

from common.text import code_point, control_character_in
from tournaments.errors import DuplicateEntrantName, DuplicateSeed, InvalidEntrant, InvalidName
from tournaments.models import Entrant, Tournament
from tournaments.stream.entrant_checks import NEW_ENTRANT


def same_name(name: str) -> str:
    """A name as the duplicate check compares it: case and spacing aside."""
    return " ".join(name.split()).casefold()


NAME_MAX_LENGTH = 200
"""The name columns' length (tournaments, entrants, players)."""


def check_name_given(name: str) -> str:
    """An entrant's or a player's name: not blank, and one line of text the tables hold."""
    if not name.strip():
        raise InvalidEntrant.because(gettext_noop("a name cannot be blank"))
    return check_name_readable(name)


def check_name_readable(name: str) -> str:
    """A name that fits its column and reads as one line wherever it is shown or exported (a
    calendar's SUMMARY, a CSV cell, a page): no control character, no line separator."""
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidName.because(
            gettext_noop("a name is at most %(most)s characters, not %(length)s"),
            most=NAME_MAX_LENGTH,
            length=len(name),
        )
    found = control_character_in(name)
    if found is not None:
        position, character = found
        raise InvalidName.because(
            gettext_noop(
                "a name cannot hold control characters such as line breaks or tabs "
                "(%(character)s at position %(position)s)"
            ),
            character=code_point(character),
            position=position,
        )
    return name


def check_name_is_free(
    *, tournament_id: UUID, name: str, confirmed: bool, entrant_id: int | None = None
) -> None:
    """Refuse a name another entrant of the tournament already has, unless confirmed."""
    if confirmed:
        return
    others = Entrant.objects.filter(tournament_id=tournament_id)
    if entrant_id is not None:
        others = others.exclude(id=entrant_id)
    wanted = same_name(name)
    for other_name in others.values_list("name", flat=True):
        if same_name(other_name) == wanted:
            raise DuplicateEntrantName.because(
                gettext_noop(
                    "another entrant of this tournament is already called %(name)s: confirm "
                    "the duplicate name to register or rename it all the same"
                ),
                name=other_name,
            )


def duplicate_in_list(*, name: str, line: int) -> DuplicateEntrantName:
    """A name given twice in one list of entrants (a warning confirmed as the others are)."""
    return DuplicateEntrantName.because(
        gettext_noop(
            "the name %(name)s is also on line %(line)s: confirm the duplicate names to register "
            "both all the same"
        ),
        name=name,
        line=line,
    )


@contextmanager
def seed_holders_named(
    *, new_name: str = "", pending: Mapping[int, str] | None = None
) -> Iterator[None]:
    """A duplicate seed refused by the stream (which knows ids) said again with the entrants'
    names, as the rows have them (`pending`: the names of entrants not registered yet, by the
    ids that stand for them)."""
    try:
        yield
    except DuplicateSeed as taken:
        names = dict(Entrant.objects.filter(id__in=taken.entrants).values_list("id", "name"))
        names.update(pending or {})
        names[NEW_ENTRANT] = new_name
        named = DuplicateSeed.because(
            gettext_noop("seed %(seed)s would be held by more than one entrant: %(entrants)s"),
            seed=taken.params["seed"],
            entrants=", ".join(names.get(entrant, f"#{entrant}") for entrant in taken.entrants),
        )
        named.entrants = taken.entrants
        raise named from taken


def names_changed(*, tournament_ids: Iterable[UUID]) -> None:
    """A new names signature for each of these tournaments (in the caller's transaction): a
    name their standings, bracket or match list show changed, so the ETag of those reads
    (`tournaments.selectors.public.tournament_projected_state`) changes too. In the order of
    their ids, so two callers lock the rows in the same order."""
    for tournament_id in sorted(set(tournament_ids)):
        Tournament.objects.filter(id=tournament_id).update(names_signature=uuid.uuid4())
