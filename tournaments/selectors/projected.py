"""The standings and the bracket, read from `TournamentView`, which the tournament consumer
(`tournaments.projections.consumer.consume`) projects asynchronously: they lag behind the writes
until it has run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from tournaments.models import (
    Entrant,
    Format,
    Tournament,
    TournamentStatus,
    TournamentView,
)
from tournaments.selectors.lookup import (
    check_tournament_exists,
)

LEAGUE_FORMATS = (Format.ROUND_ROBIN, Format.SWISS)
"""Formats without a bracket: the standings decide the champion."""


def projected_view(tournament_id: UUID, *fields: str) -> TournamentView | None:
    """The tournament's projected view (with only `fields` loaded, when given: its documents
    are large); None when the consumer has not projected it yet."""
    views = TournamentView.objects.filter(tournament_id=tournament_id)
    view = (views.only(*fields) if fields else views).first()
    if view is None:
        check_tournament_exists(tournament_id)
    return view


def projected(tournament_id: UUID, document: str) -> Any:
    """One document of the projected view (`standings` or `bracket`), alone; None before it."""
    view = projected_view(tournament_id, document)
    return None if view is None else getattr(view, document)


def entrant_names(*, tournament_id: UUID) -> dict[int, str]:
    """Each entrant's name as it reads now (an erased player's entrant reads `erased player`).

    Names are not in the projected view: they are looked up here, at read time, so an erasure
    shows at once and the view stays a pure fold of the events."""
    return dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", "name"))


def silent_view(tournament_id: UUID) -> dict[str, Any] | None:
    """While the last rounds are silent (decision record 0060): the public's standings (and the
    round they are after) and bracket; None when nothing is hidden, or the consumer has not
    projected a silent round yet (then the standings are the public's anyway)."""
    found: dict[str, Any] | None = projected(tournament_id, "public")
    return found


def tournament_standings(*, tournament_id: UUID, public: bool = False) -> list[dict[str, Any]]:
    """The overall standings rows, best first, with the entrants' names; empty before the
    start. `public`: as the public reads them while the last rounds are silent (the standings
    after the last open round)."""
    silent = silent_view(tournament_id) if public else None
    standings = projected(tournament_id, "standings") if silent is None else silent["standings"]
    if standings is None:
        return []
    names = entrant_names(tournament_id=tournament_id)
    return [row | {"name": names.get(row["entrant"], "")} for row in standings]


def tournament_bracket(*, tournament_id: UUID, public: bool = False) -> dict[str, Any]:
    """The bracket document as projected, with its `champion` (null until there is one).
    `public`: as the public reads it while the last rounds are silent (their results blank)."""
    view = projected_view(tournament_id, "bracket", "public")
    if view is None:
        tournament = Tournament.objects.get(id=tournament_id)
        return {
            "format": tournament.format,
            "status": tournament.status,
            "stages": [],
            "placements": [],
            "entrants": {},
            "champion": None,
            "champion_name": None,
        }
    bracket: dict[str, Any] = view.bracket
    if public and view.public is not None:
        bracket = view.public["bracket"]
    names = entrant_names(tournament_id=tournament_id)
    champion = champion_of(bracket, lambda: projected(tournament_id, "standings") or [])
    return {
        **bracket,
        "stages": [named_stage(stage, names) for stage in bracket["stages"]],
        "placements": [
            placement | {"name": names.get(placement["entrant"], "")}
            for placement in bracket["placements"]
        ],
        "entrants": {str(entrant): name for entrant, name in names.items()},
        "champion": champion,
        "champion_name": None if champion is None else names.get(champion, ""),
    }


def name_of(entrant: int | None, names: dict[int, str]) -> str | None:
    return None if entrant is None else names.get(entrant, "")


def named_stage(stage: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The stage with names beside the entrant ids of its matches and byes."""
    rounds = []
    for round_ in stage["rounds"]:
        matches = [
            match
            | {
                "entrant_names": [name_of(entrant, names) for entrant in match["entrants"]],
                "winner_name": name_of(match["winner"], names),
            }
            for match in round_["matches"]
        ]
        rounds.append(round_ | {"matches": matches, "bye_name": name_of(round_.get("bye"), names)})
    return stage | {"rounds": rounds}


def champion_of(
    bracket: dict[str, Any], standings_of: Callable[[], list[dict[str, Any]]]
) -> int | None:
    """First place of the last bracket (elimination formats and knockouts); for a league or
    Swiss tournament once finished, the entrant ranked first alone (null on a shared first).
    The standings are read only then."""
    for placement in bracket.get("placements", []):
        if placement["place"] == 1:
            champion: int = placement["entrant"]
            return champion
    if bracket["format"] not in LEAGUE_FORMATS or bracket["status"] != TournamentStatus.FINISHED:
        return None
    first = [row["entrant"] for row in standings_of() if row["rank"] == 1]
    return first[0] if len(first) == 1 else None
