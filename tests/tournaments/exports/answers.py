"""Every GET of the API about one tournament, as JSON, comparable between two instances.

Used in the test's process (the source) and run as a program against the other instance's
database (`python -m tests.tournaments.exports.answers TOURNAMENT_ID OUT`), so both sides are
read by the same code. Global positions are the instance's own (an import appends at the end of
the other log) and are left out; the order of the events is checked apart. The device tokens and
the table cards are left out too: tokens are accounts of the instance, not part of an archive.
"""

from __future__ import annotations

import json
import sys
from typing import Any
from uuid import UUID

API = "/api/v1"


def without_positions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_positions(v) for k, v in value.items() if k != "global_position"}
    if isinstance(value, list):
        return [without_positions(item) for item in value]
    return value


def comparable(status: int, body: Any) -> list[Any]:
    if isinstance(body, bytes):
        return [status, body.decode()]
    return [status, without_positions(body)]


def tournament_urls(tournament_id: UUID) -> list[str]:
    base = f"{API}/tournaments/{tournament_id}"
    statuses = ["", "?status=ready", "?status=in_progress", "?status=finished"]
    return [
        f"{API}/tournaments/",
        f"{API}/scorer/matches/",
        f"{base}/",
        *(f"{base}/matches/{query}" for query in statuses),
        f"{base}/standings/",
        f"{base}/standings/?format=csv",
        f"{base}/bracket/",
        f"{base}/schedule/",
        f"{base}/check-in/",
    ]


def answers(tournament_id: UUID) -> dict[str, list[Any]]:
    from django.core.cache import cache

    from tests.tournaments.projections import snapshots

    cache.clear()
    taken: dict[str, list[Any]] = {}
    for reader, client in snapshots.readers().items():
        for url in tournament_urls(tournament_id):
            taken[f"{reader} {url}"] = comparable(*snapshots.answer(client, url))
        for match_id in snapshots.tournament_match_ids(tournament_id):
            for (_, url), answer in snapshots.match_snapshot(client, reader, match_id).items():
                taken[f"{reader} {url}"] = comparable(*answer)
    return taken


if __name__ == "__main__":
    import django

    django.setup()
    tournament, out = sys.argv[1:3]
    with open(out, "w", encoding="utf-8") as file:
        json.dump(answers(UUID(tournament)), file, sort_keys=True, default=str)
