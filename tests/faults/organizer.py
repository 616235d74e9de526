"""An organizer for the fault suite: runs a single elimination through the HTTP API while the
workers that put its matches at tables are killed or doubled."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from bench._load import API
from tests.faults.app import App
from tests.faults.scorers import Ledger, PatientClient
from tests.faults.stack import wait_until


class Organizer:
    """Runs a single elimination through the API: creates it, registers and starts, then plays
    every match the workers put at a table (points entered, the better seed wins)."""

    def __init__(self, app: App) -> None:
        self.ledger = Ledger()
        self.client = PatientClient(
            app.port, app.stack.organizer_token, self.ledger, timeout=10, patience=60
        )

    def created(self, path: str, body: dict[str, object] | None = None) -> Any:
        status, answer, _ = self.client.call("POST", path, body or {}, key=None)
        assert status == 201, (path, answer)
        return answer

    def got(self, path: str) -> Any:
        status, answer, _ = self.client.call("GET", path, key=None)
        assert status == 200, (path, answer)
        return answer

    def play(self, entrants: int, *, after_round: Callable[[int], object] = int) -> str:
        """A single elimination of `entrants`, started and played to its champion; its id."""
        tournament_id = self.start(entrants)
        self.play_out(tournament_id, entrants, after_round=after_round)
        return tournament_id

    def start(self, entrants: int) -> str:
        """A single elimination created, its entrants registered and started; its id."""
        tournament = self.created(
            f"{API}/tournaments/",
            {
                "name": "Coppa dei guasti",
                "format": "single_elimination",
                "table_size": 2,
                "best_of": 1,
                "tables": entrants // 2,
            },
        )
        base = f"{API}/tournaments/{tournament['id']}"
        for n in range(1, entrants + 1):
            self.created(f"{base}/entrants/", {"name": f"P{n}", "players": [f"P{n}"], "seed": n})
        self.created(f"{base}/start/")
        return str(tournament["id"])

    def play_out(
        self, tournament_id: str, entrants: int, *, after_round: Callable[[int], object] = int
    ) -> None:
        """Play each match of the started tournament once the workers put it at a table,
        round after round (`after_round` is called with each round's number once its results
        are in), until the bracket has its champion."""
        base = f"{API}/tournaments/{tournament_id}"
        played: set[str] = set()
        for number in range(int(math.log2(entrants))):
            expected = entrants // 2 ** (number + 1)

            def at_tables(expected: int = expected) -> list[dict[str, Any]]:
                ready = self.got(f"{base}/matches/?status=ready&limit=500")["matches"]
                waiting = [m for m in ready if m["table"] is not None and m["id"] not in played]
                return waiting if len(waiting) == expected else []

            for match in wait_until(at_tables, timeout=90, what=f"round {number + 1} at tables"):
                url = f"{API}/matches/{match['id']}/rounds/"
                self.created(url, {"briscola": None})
                self.created(f"{url}1/score/", {"points": [90, 30]})
                played.add(match["id"])
            after_round(number)

        def finished() -> bool:
            return bool(self.got(f"{base}/bracket/").get("status") == "finished")

        wait_until(finished, timeout=90, what="the champion")

    def close(self) -> None:
        self.client.close()
