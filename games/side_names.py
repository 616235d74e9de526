"""Where the names of a match's sides come from: never from the events (they carry ids only),
but from ordinary tables, at read time.

A free-standing match names its sides in `games.models.MatchSide`. A side that refers to
something an app built on games owns (`{"entrant": 17}` for a tournament's entrant) is named by
that app: it registers a `SideNamer` in its AppConfig.ready(), so games imports none of it (as
with the projectors in `games.matches.projections`). Reads go through
`games.matches.selectors.side_names_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

SideRefs = Mapping[UUID, Sequence[Mapping[str, Any]]]
"""Match id -> its sides as the events refer to them, side 0 first."""


@dataclass(frozen=True)
class SideNamer:
    """One app's side names. `names` is given the matches still unnamed and returns the names
    (side 0 first) of those it knows, leaving the others out; `search` returns the ids of the
    matches it knows with a side whose name contains the term (case-insensitive)."""

    name: str
    names: Callable[[SideRefs], Mapping[UUID, Sequence[str]]]
    search: Callable[[str], Iterable[UUID]]


_namers: dict[str, SideNamer] = {}


def register_side_namer(
    name: str,
    *,
    names: Callable[[SideRefs], Mapping[UUID, Sequence[str]]],
    search: Callable[[str], Iterable[UUID]],
) -> None:
    """Register (or replace, so a repeated `ready()` is harmless) the side names of `name`."""
    _namers[name] = SideNamer(name=name, names=names, search=search)


def unregister_side_namer(name: str) -> None:
    _namers.pop(name, None)


def registered_side_namers() -> list[SideNamer]:
    """The registered side namers, in registration order."""
    return list(_namers.values())


def unnamed_side(side: int) -> str:
    """What a side is called when nothing knows its name (its app is not installed)."""
    return f"side {side}"
