"""The app as deployed (docker/Dockerfile, `make run`: decision 0051): uvicorn, whose process runs
each synchronous request in a thread of its own and takes database connections from its pool
(8), here one process so that every request shares its per-process caches (the folded streams,
the checked tokens and roles, the read bodies, the deck letters: `common.lru`). Sixteen clients
at once score a whole match each (best of one) card by card, read the tournament and their match
between cards, and use their tokens, while the organizer's clients issue and revoke spare
tablets' tokens (each revocation empties every process's token and role caches under the others'
feet). No request may fail, and the log must hold every card sent, once, in the order sent
(issue 23 §7).

The work is a fixed number of requests, not a time: what the clients do is the same on a fast
machine and a slow one. The server serves the test database, so the test's rows are committed
(a transactional test); it is stopped before the tables are emptied.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from accounts import services as accounts
from accounts.models import Role
from bench._load import API, ApiClient
from bench._server import Server, uvicorn
from bench._support import Backends
from games.eventstore.api import read_stream
from games.matches.stream.events import CardPlayed
from games.rules.cards import parse_card
from games.rules.commands import StartRound
from games.rules.match import MatchFormat, start_match
from games.rules.replay import replay_round
from games.rules.tricks import Play
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import TournamentFactory
from tests.games.matches.builders import random_plays
from tests.workers import database_url, flush_test_redis
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 16
BEST_OF = 1
READ_EVERY = 3
"""A client reads after every third card it plays."""
SMALL_CACHES = {
    "MATCH_MEMO_CAPACITY": "4",
    "TOURNAMENT_MEMO_CAPACITY": "1",
    "TOURNAMENT_READ_CACHE_BYTES": "65536",
}
"""Caches smaller than the clients' working set, so that entries are dropped and kept again all
the time while other threads read them (the paths a cache's lock must cover, not only its hits)."""
CLIENT_TIMEOUT_SECONDS = 60.0
"""How long a client waits for one answer before it counts as an error (never a measure)."""
JOIN_TIMEOUT_SECONDS = 600.0
"""How long the test waits for the clients to finish before it calls them stuck."""


@dataclass(frozen=True)
class Round:
    dealer: int
    briscola: str
    plays: tuple[Play, ...]


@dataclass
class Table:
    """One client: its match, at its table, scored with its token (a tablet's key for the
    even tables, the organizer's token for the odd ones)."""

    number: int
    match_id: str
    key: str
    organizer: bool
    rounds: list[Round]
    errors: list[str] = field(default_factory=list)
    sent: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    """The cards acknowledged, by round number."""


def whole_match(seed: int) -> list[Round]:
    """Legal rounds until a best-of-`BEST_OF` match at a table of two is over (a tied round is
    replayed), each dealt by the seat after the last round's dealer."""
    match = start_match(table_size=2, match_format=MatchFormat.best_of(BEST_OF))
    rounds: list[Round] = []
    while not match.is_finished:
        dealer = match.next_dealer
        briscola, plays = random_plays(2, dealer, seed * 10 + len(rounds))
        start = StartRound(2, dealer, briscola=parse_card(briscola))
        outcome = replay_round(start, plays).state.outcome
        assert outcome is not None
        rounds.append(Round(dealer, briscola, tuple(plays)))
        match = match.record_round(outcome)
    return rounds


@pytest.fixture
def tables() -> list[Table]:
    """A club's knockout of 32 singles (best of 3) started, its 16 matches at tables 1 to 16;
    a scorer with a tablet's key for each table, and an organizer with a token."""
    club = ClubFactory.create(name="Circolo", slug="circolo")
    organizer = UserFactory.create(username="organizer")
    scorer = UserFactory.create(username="scorer")
    accounts.role_grant(user=organizer, role=Role.ORGANIZER, club=club)
    numbers = list(range(1, CLIENTS + 1))
    tournament = TournamentFactory.create(
        entrants=2 * CLIENTS,
        best_of=BEST_OF,
        tables=CLIENTS,
        club=club,
        started=True,
        matches_at_tables=numbers,
    )
    accounts.role_grant(user=scorer, role=Role.SCORER, tournament_id=tournament.id)
    organizer_key = Token.objects.create(user=organizer).key
    fixtures = Fixture.objects.filter(tournament_id=tournament.id).order_by("table")
    made = []
    for fixture in fixtures:
        number = fixture.table
        assert number is not None
        organizes = number % 2 == 1
        if organizes:
            key = organizer_key
        else:
            _token, key = accounts.device_token_create(
                user=scorer,
                device=f"tablet {number}",
                created_by=organizer,
                tournament_id=tournament.id,
                tables=[number],
            )
        made.append(Table(number, str(fixture.match_id), key, organizes, whole_match(seed=number)))
    assert [table.number for table in made] == numbers
    return made


@pytest.fixture
def server(tables: list[Table], tmp_path: Path) -> Iterator[Server]:  # noqa: ARG001 - its rows must be committed first
    """uvicorn on a free port, on the test database and the test Redis, without wake-ups."""
    flush_test_redis()
    backends = Backends(
        redis_url=settings.CELERY_BROKER_URL,
        settings={"DATABASE_URL": database_url(), **SMALL_CACHES},
    )
    database = str(settings.DATABASES["default"]["NAME"])
    try:
        with uvicorn(
            workers=1,
            database=database,
            log_path=tmp_path / "uvicorn.log",
            wake_ups=False,
            backends=backends,
        ) as running:
            yield running
    finally:
        flush_test_redis()


def tournament_of(match_id: str) -> str:
    return str(Fixture.objects.get(match_id=match_id).tournament_id)


class Client:
    """One client's requests over its keep-alive connection; every answer that is not the one
    expected is noted as an error (with what was asked), and the client goes on."""

    def __init__(self, port: int, table: Table, tournament_id: str) -> None:
        self.api = ApiClient(
            port, table.key, idempotency_keys=False, timeout=CLIENT_TIMEOUT_SECONDS
        )
        self.table = table
        self.tournament_id = tournament_id
        self.reads = 0

    def send(
        self,
        method: str,
        path: str,
        body: dict[str, object] | None = None,
        *,
        expected: int,
        html: bool = False,
    ) -> Any:
        headers = {"Accept": "text/html"} if html else None
        try:
            status, raw, _seconds = self.api.send(method, path, body, headers=headers)
        except OSError as error:
            self.table.errors.append(f"{method} {path}: {type(error).__name__}: {error}")
            self.api.reconnect()
            return None
        if status != expected:
            text = raw[:300].decode(errors="replace")
            self.table.errors.append(f"{method} {path} {body}: {status} {text}")
            return None
        return None if html else json.loads(raw)

    def read(self) -> None:
        """The next of the reads a scorer's tablet or an organizer's phone makes."""
        tournament = f"{API}/tournaments/{self.tournament_id}"
        match_id = self.table.match_id
        own = f"{tournament}/device-tokens/" if self.table.organizer else f"{API}/scorer/matches/"
        reads: list[tuple[str, bool]] = [
            (f"{tournament}/standings/", False),
            (f"{API}/matches/{match_id}/", False),
            (f"{tournament}/bracket/", False),
            (f"/matches/{match_id}/", True),
            (f"{tournament}/matches/", False),
            (f"/tournaments/{self.tournament_id}/", True),
            (own, False),
        ]
        path, html = reads[self.reads % len(reads)]
        self.reads += 1
        self.send("GET", path, expected=200, html=html)

    def spare_tablet(self) -> None:
        """Issue a token for a spare tablet at this table, then revoke it: every process forgets
        the tokens and roles it checked."""
        issued = self.send(
            "POST",
            f"{API}/tournaments/{self.tournament_id}/device-tokens/",
            {"scorer": "scorer", "name": "spare", "tables": [self.table.number]},
            expected=201,
        )
        if issued is not None:
            self.send(
                "POST",
                f"{API}/tournaments/{self.tournament_id}/device-tokens/{issued['id']}/revoke/",
                expected=200,
            )

    def play_the_match(self) -> None:
        match_url = f"{API}/matches/{self.table.match_id}"
        for number, scored in enumerate(self.table.rounds, start=1):
            start = {"briscola": scored.briscola, "dealer_seat": scored.dealer}
            started = self.send("POST", f"{match_url}/rounds/", start, expected=201)
            if started is None or started["number"] != number:
                self.table.errors.append(f"round {number} started as {started}")
                return
            acknowledged = self.table.sent.setdefault(number, [])
            for index, play in enumerate(scored.plays):
                card = {"seat": play.seat, "card": play.card.code}
                if self.send("POST", f"{match_url}/rounds/{number}/plays/", card, expected=201):
                    acknowledged.append((play.seat, play.card.code))
                if index % READ_EVERY == READ_EVERY - 1:
                    self.read()
                if self.table.organizer and number == 1 and index == len(scored.plays) // 2:
                    self.spare_tablet()


def test_sixteen_clients_at_once_meet_no_error_and_every_card_is_stored_once(
    tables: list[Table], server: Server
) -> None:
    tournament_id = tournament_of(tables[0].match_id)
    clients = [Client(server.port, table, tournament_id) for table in tables]
    start = threading.Barrier(len(clients))

    def run(client: Client) -> None:
        start.wait()
        try:
            client.play_the_match()
        except Exception as error:  # a client that stops is an error like any other
            client.table.errors.append(f"the client stopped: {type(error).__name__}: {error}")
        finally:
            client.api.close()

    threads = [threading.Thread(target=run, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_TIMEOUT_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "clients still busy"

    errors = [f"table {table.number}: {error}" for table in tables for error in table.errors]
    assert errors == []
    for table in tables:
        stored: dict[int, list[tuple[int, str]]] = {}
        for event in read_stream(stream_id=UUID(table.match_id)):
            if event.event_type == CardPlayed.type:
                played = event.payload
                stored.setdefault(played["round"], []).append((played["seat"], played["card"]))
        sent = {
            number: [(play.seat, play.card.code) for play in scored.plays]
            for number, scored in enumerate(table.rounds, start=1)
        }
        assert stored == sent == table.sent, f"table {table.number}"
