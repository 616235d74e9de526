"""A player's own view of their entry (issue 26 §2, decision record 0055): their tournament,
where their application or entry is, their next or current match with its table, opponents and
whether it has been called, their results and their place, and what they may do now.

Where the entry is comes from the tournament's stream, folded (so a call, a check-in or a
promotion shows at once); the matches from the fixture and match rows, which the commands
project inline; the place from the standings the worker projects (a moment later).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from django.urls import reverse
from django.utils import timezone

from games.models import Match, MatchStatus
from tournaments.models import Application, Tournament
from tournaments.plan.silence import silent_from_round
from tournaments.selectors.projected import projected, silent_view
from tournaments.selectors.public import entrant_matches, tournament_log_position
from tournaments.services.pipeline import load_tournament
from tournaments.state import CheckInWindow
from tournaments.stream.byes import entrant_byes

WITHDRAWN = "withdrawn"
"""The status of an entrant who withdrew; the others are the application's (`ApplicationPhase`)."""


def player_view(
    *, tournament_id: UUID, application_id: int, now: datetime | None = None
) -> dict[str, Any]:
    now = now or timezone.now()
    # The feed's position first: an event after it, read or not into the state, is announced.
    position, _ = tournament_log_position(tournament_id=tournament_id)
    state, _ = load_tournament(tournament_id=tournament_id)
    tournament = Tournament.objects.only("id", "name", "status").get(id=tournament_id)
    application = Application.objects.get(id=application_id)
    entrant_id = state.entrant_of_application.get(application_id)
    record = None if entrant_id is None else state.entrants.get(entrant_id)
    withdrawn = record is not None and record.withdrawn
    status = WITHDRAWN if withdrawn else state.applications[application_id].value
    entered = record is not None and not withdrawn
    check_in_open = window_open(state.check_in, now)
    matches = [] if entrant_id is None else own_matches(entrant_id)
    playing = [match for match in matches if match["status"] != MatchStatus.FINISHED]
    playing.sort(key=lambda match: match["status"] != MatchStatus.IN_PROGRESS)
    return {
        "tournament": {
            "id": tournament.id,
            "name": tournament.name,
            "status": state.status.value,
            "table_size": state.settings.table_size,
            "page_url": reverse("pages:tournament-detail", args=[tournament.id]),
            "standings_url": reverse("api-v1:tournament-standings", args=[tournament.id]),
            "feed_url": reverse("api-v1:tournament-event-stream", args=[tournament.id])
            + f"?after={position}",
        },
        "entry": {
            "application": application.id,
            "name": str(application),
            "players": list(application.players),
            "status": status,
            "position": state.waiting.index(application_id) + 1
            if application_id in state.waiting
            else None,
            "entrant": entrant_id,
            "checked_in": record is not None and record.checked_in,
        },
        "check_in": {"open": check_in_open, "closes_at": state.check_in.closes_at},
        "may_check_in": entered and check_in_open and not (record and record.checked_in),
        "may_withdraw": entered and not state.started,
        "next_match": playing[0] if playing else None,
        "results": [match for match in matches if match["status"] == MatchStatus.FINISHED],
        "place": None
        if entrant_id is None or not state.started
        else place_of(tournament_id, entrant_id, public=silent_from_round(state) is not None),
        "byes": entrant_byes(state, entrant_id) if entered and entrant_id is not None else None,
    }


def window_open(window: CheckInWindow, now: datetime) -> bool:
    """Whether a player may check in now: the organizer opened the window and it is open (a
    window never opened lets only the organizer check entrants in)."""
    return window.opened_at is not None and window.accepts(now)


def own_matches(entrant_id: int) -> list[dict[str, Any]]:
    """The entrant's matches, each from the entrant's side: its table and call, opponents, the
    match's status, round wins and points (the entrant's first), outcome, and whether the
    entrant's side confirmed or disputes its result."""
    lines = entrant_matches(entrant_id=entrant_id)
    rows = {
        row["id"]: row
        for row in Match.objects.filter(id__in=[line["match_id"] for line in lines]).values(
            "id", "status", "total_points", "winner", "confirmed_by", "disputed_by", "disputes"
        )
    }
    matches = []
    for line in lines:
        row = rows.get(line["match_id"])
        if row is None:
            continue  # a fixture whose match is not projected yet: never the case
        side, fixture = line["side"], line["fixture"]
        others = [index for index in range(len(fixture.entrant_ids)) if index != side]
        points = row["total_points"] or []
        matches.append(
            {
                "id": line["match_id"],
                "round": line["round"],
                "stage": line["stage"],
                "table": fixture.table,
                "called": fixture.called_at is not None,
                "called_at": fixture.called_at,
                "status": row["status"],
                "side": side,
                "opponents": [opponent.name for opponent in line["opponents"]],
                "round_wins": line["round_wins"],
                "points": [points[index] for index in (side, *others)] if points else None,
                "outcome": outcome(row, side),
                "confirmed": side in row["confirmed_by"],
                "disputed": side in row["disputed_by"],
                "dispute_reason": own_dispute_reason(row["disputes"], side),
            }
        )
    return matches


def outcome(row: Mapping[str, Any], side: int) -> str | None:
    if row["status"] != MatchStatus.FINISHED:
        return None
    if row["winner"] is None:
        return "tied"
    return "won" if row["winner"] == side else "lost"


def own_dispute_reason(disputes: list[dict[str, Any]], side: int) -> str:
    """The reason of the side's open dispute, if it has one."""
    standing = [d for d in disputes if d["side"] == side and d["standing"]]
    return str(standing[-1].get("reason", "")) if standing else ""


def place_of(tournament_id: UUID, entrant_id: int, *, public: bool = False) -> int | None:
    """The entrant's rank in the projected standings; None before the worker projected them.
    `public`: in the standings the public reads while the last rounds are silent (a player
    reads their own matches' results, not the standings after them: decision record 0060)."""
    silent = silent_view(tournament_id) if public else None
    rows = projected(tournament_id, "standings") if silent is None else silent["standings"]
    for row in rows or ():
        if row["entrant"] == entrant_id:
            rank: int = row["rank"]
            return rank
    return None
