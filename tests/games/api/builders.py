"""Builders for API tests: matches and rounds made through the API itself, in readable steps."""

import math
import random
import time
from typing import Any
from uuid import UUID

from rest_framework.test import APIClient

from games.matches.stream.state import swap_cards
from games.rules import replay
from games.rules.cards import Card, parse_card
from games.rules.commands import StartRound
from games.rules.replay import legal_cards, play_card, replay_round
from games.rules.round_state import RoundState
from games.rules.tricks import Play
from tests.factories.api import API
from tests.factories.matches import TWO_SIDES, ApiMatchFactory
from tests.games.matches.builders import random_plays


def match_url(match_id: str | UUID, *parts: object) -> str:
    return "/".join([f"{API}/matches/{match_id}", *map(str, parts)]) + "/"


def round_url(match_id: str | UUID, number: int, *parts: object) -> str:
    return match_url(match_id, "rounds", number, *parts)


def post(client: APIClient, url: str, body: Any = None, **headers: Any) -> Any:
    """POST `body` as JSON; `headers` as Django test-client keywords (HTTP_IDEMPOTENCY_KEY)."""
    return client.post(url, body if body is not None else {}, format="json", **headers)


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.json()
    body: dict[str, Any] = response.json()
    return body


def start_round(
    client: APIClient, match_id: str, briscola: str | None = "7D", **fields: Any
) -> dict[str, Any]:
    return created(post(client, match_url(match_id, "rounds"), {"briscola": briscola, **fields}))


def score_round(client: APIClient, match_id: str, *points: int) -> dict[str, Any]:
    """Start the next round without a briscola and enter only its points."""
    number = start_round(client, match_id, briscola=None)["number"]
    return created(post(client, round_url(match_id, number, "score"), {"points": list(points)}))


def legal_round(*, table_size: int = 2, dealer: int = 0, seed: int = 1) -> tuple[str, list[Play]]:
    """The briscola and every play of a legal round dealt by `dealer`, from a seeded shuffle."""
    return random_plays(table_size, dealer, seed)


def dealt_match(client: APIClient, *, seed: int = 1, **fields: Any) -> tuple[str, list[Play]]:
    """A two-player match whose first round (dealt by seat 0) is started; its legal plays."""
    match = ApiMatchFactory.create(client=client, **fields)
    briscola, plays = legal_round(dealer=0, seed=seed)
    start_round(client, match["id"], briscola=briscola, dealer_seat=0)
    return match["id"], plays


def play_body(play: Play, **fields: Any) -> dict[str, Any]:
    return {"seat": play.seat, "card": play.card.code, **fields}


def play_cards(client: APIClient, match_id: str, number: int, plays: list[Play]) -> Any:
    """Play each card in turn; returns the last answer."""
    response = None
    for play in plays:
        response = post(client, round_url(match_id, number, "plays"), play_body(play))
        assert response.status_code == 201, response.json()
    return response


def timed_writes(client: APIClient, *, rounds: int) -> list[float]:
    """Create a match and play `rounds` whole rounds card by card; every answer must be the
    API's JSON 201. Returns how long each of these writes took, in seconds."""
    durations = []

    def timed_post(url: str, body: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        response = post(client, url, body)
        durations.append(time.perf_counter() - started)
        assert (response.status_code, response["Content-Type"]) == (201, "application/json")
        answer: dict[str, Any] = response.json()
        return answer

    body = {"table_size": 2, "scoring": "points", "rounds": rounds, "sides": TWO_SIDES}
    match_id = timed_post(f"{API}/matches/", body)["id"]
    for number in range(1, rounds + 1):
        briscola, plays = legal_round(dealer=(number - 1) % 2, seed=number)
        timed_post(match_url(match_id, "rounds"), {"briscola": briscola})
        for play in plays:
            timed_post(round_url(match_id, number, "plays"), play_body(play))
    return durations


def p99(durations: list[float]) -> float:
    """The nearest-rank 99th percentile: with 100 values or more, the slowest one is above it."""
    ordered = sorted(durations)
    return ordered[math.ceil(0.99 * len(ordered)) - 1]


def event_count(client: APIClient, match_id: str) -> int:
    return len(client.get(match_url(match_id, "events")).json()["events"])


def dealt_state(deck: tuple[Card, ...], *, table_size: int = 2, dealer: int = 0) -> RoundState:
    return replay.start_round(StartRound(table_size, dealer, deck=deck))


def legal_plays(state: RoundState, count: int | None = None, seed: int = 1) -> list[Play]:
    """Legal plays from the hands, from `state` on (all to the end, or `count`)."""
    rng = random.Random(seed)
    plays: list[Play] = []
    while state.seat_on_turn is not None and (count is None or len(plays) < count):
        play = Play(state.seat_on_turn, rng.choice(legal_cards(state)))
        plays.append(play)
        state = play_card(state, play)
    return plays


def finished_card_round(
    client: APIClient, match_id: str, *, seed: int = 1, table_size: int = 2
) -> tuple[str, list[Play], int]:
    """Start the match's first round, dealt by its first dealer, and enter every card of it in
    one batch; the briscola, the plays and the dealer."""
    dealer: int = client.get(match_url(match_id)).json()["first_dealer"]
    briscola, plays = legal_round(table_size=table_size, dealer=dealer, seed=seed)
    start_round(client, match_id, briscola=briscola, dealer_seat=dealer)
    batch = [[play.seat, play.card.code] for play in plays]
    created(post(client, round_url(match_id, 1, "plays", "batch"), {"plays": batch}))
    return briscola, plays, dealer


def a_correction(
    briscola: str, plays: list[Play], *, table_size: int = 2, dealer: int = 0, seed: int = 0
) -> tuple[int, Card, tuple[int, ...]]:
    """A correction the rules accept in a finished round: the play, the card it becomes (the
    card of the play it swaps with) and the round's points after it; chosen by `seed` among all
    of them."""
    start = StartRound(table_size, dealer, briscola=parse_card(briscola))
    found = []
    for index in range(len(plays)):
        for other in range(index + 1, len(plays)):
            replayed = replay_round(start, swap_cards(plays, index, other))
            if replayed.rejection is None and replayed.state.outcome is not None:
                found.append((index, plays[other].card, replayed.state.outcome.points))
    return found[seed % len(found)]
