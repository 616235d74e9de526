"""A small world of real things for the security tests to aim at, built through the API itself:
bad input must be refused on live matches and tournaments too, not only on unknown ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Club, Role
from games.rules.tricks import Play
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.matches import ApiMatchFactory
from tests.factories.tournaments import ApiTournamentFactory, TournamentFactory
from tests.games.api.builders import legal_round, play_cards, score_round, start_round
from tests.tournaments.api.builders import level_knockout_match, matches, register_seeded
from tournaments.models import Entrant

PLAYS_IN_THE_LIVE_ROUND = 3
"""A whole trick and the first card of the next one: plays 0 to 2 exist."""


@dataclass(frozen=True)
class World:
    live_match: str
    """Round 1 started with a briscola, its first cards played."""
    next_play: Play
    """A legal next card in the live match's round 1."""
    fresh_match: str
    """Created, no round yet."""
    points_match: str
    """Best of one, round 1 started without a briscola: its points are due."""
    finished_match: str
    """Best of one, its round scored by points: finished, its result not confirmed."""
    open_tournament: str
    """Registration open."""
    open_entrants: list[int]
    started_tournament: str
    """A Swiss tournament with manual rounds, started: its first round is being played."""
    started_entrants: list[int]
    started_match: str
    """A match of the started tournament's first round, being played (it may be called)."""
    level_tournament: str
    """A knockout of two scored by points under the organizer's rule for level matches."""
    level_match: str
    """Its final, level at 60-60: the organizer may decide it."""
    level_entrants: list[int]
    """The two entrants of the level match."""

    def places(self) -> list[dict[str, Any]]:
        """Path parameters that all exist together, one set for each thing in the world."""
        return [
            {"match_id": self.live_match, "round_number": 1, "play_index": 0},
            {"match_id": self.live_match, "round_number": 1, "play_index": 2},
            {"match_id": self.fresh_match},
            {"match_id": self.points_match, "round_number": 1, "play_index": 0},
            {"match_id": self.finished_match, "round_number": 1, "play_index": 0},
            {"tournament_id": self.open_tournament, "entrant_id": self.open_entrants[0]},
            {"tournament_id": self.started_tournament, "entrant_id": self.started_entrants[-1]},
        ]


def build_world(client: APIClient, club: Club) -> World:
    """The world, made by `client`, an organizer of `club`."""
    live_match = ApiMatchFactory.create(client=client)["id"]
    briscola, plays = legal_round()
    start_round(client, live_match, briscola=briscola)
    play_cards(client, live_match, 1, plays[:PLAYS_IN_THE_LIVE_ROUND])

    points_match = ApiMatchFactory.create(client=client, best_of=1)["id"]
    start_round(client, points_match, briscola=None)

    finished_match = ApiMatchFactory.create(client=client, best_of=1)["id"]
    score_round(client, finished_match, 80, 40)

    open_tournament = ApiTournamentFactory.create(client=client)["id"]
    open_entrants = register_seeded(client, open_tournament, 3)

    started = TournamentFactory.create(
        format="swiss", automatic_rounds=False, club=club, started=True
    ).id
    started_entrants = Entrant.objects.filter(tournament_id=started).order_by("seed")
    level_tournament, level_match = level_knockout_match(client)
    return World(
        live_match=live_match,
        next_play=plays[PLAYS_IN_THE_LIVE_ROUND],
        fresh_match=ApiMatchFactory.create(client=client)["id"],
        points_match=points_match,
        finished_match=finished_match,
        open_tournament=open_tournament,
        open_entrants=open_entrants,
        started_tournament=str(started),
        started_entrants=list(started_entrants.values_list("id", flat=True)),
        started_match=matches(client, started)[0]["id"],
        level_tournament=level_tournament,
        level_match=level_match["id"],
        level_entrants=list(level_match["entrants"]),
    )


WORLD: list[World] = []
"""The world of the running schemathesis test (the `seeded` fixture), for the path parameter
hook of tests/security/fuzzing.py (hooks take no fixtures)."""


def administrator_token(club: Club) -> Token:
    """The token of a club's organizer and the site's administrator, who may do everything the
    API offers in the club (and to the matches they create) and read the whole log, so that
    every request gets past the permissions to its input."""
    user = UserFactory.create(username="scorer", is_staff=True, is_superuser=True)
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    return Token.objects.create(user=user)


def client_of(token: Token) -> APIClient:
    """A client that sends a token, so that writes get past authentication to their input."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def new_club() -> Club:
    return ClubFactory.create(name="Club")
