"""The people of the permission tests and a world built for them on demand: a club's
organizer, an organizer of another club, scorers of two tables, a player, and whatever match or
tournament a test needs, made through the API and the services."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.models import Club, Role, User
from tests.factories.accounts import ClubFactory, UserFactory, token_client
from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory, TournamentFactory
from tests.games.api.builders import a_correction, finished_card_round
from tests.tournaments.api.builders import (
    groups_tied_at_the_cut,
    home_wins,
    level_knockout_match,
    play_round,
    register_seeded,
    started_tournament,
    tournament_url,
)
from tournaments.models import Application, Fixture, Player
from tournaments.state import Registration

PLAYER_KEY = "player_key"
PERSONAS = (
    "anonymous",
    "player",
    PLAYER_KEY,
    "scorer_other_table",
    "scorer_this_table",
    "organizer_other_club",
    "organizer",
)
ACCOUNT_PERSONAS = tuple(persona for persona in PERSONAS if persona != PLAYER_KEY)
"""Everybody but the player key: anonymous and the people with an account."""
THIS_TABLE = 3
OTHER_TABLE = 4


@dataclass
class World:
    """The people, and a builder of whatever a cell needs, made on first use."""

    clients: dict[str, APIClient]
    users: dict[str, User]
    club: Club
    """The organizer's."""
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def organizer(self) -> APIClient:
        return self.clients["organizer"]

    def once(self, name: str, build: Callable[[], Any]) -> Any:
        if name not in self.cache:
            self.cache[name] = build()
        return self.cache[name]

    def tournament(self, **fields: Any) -> str:
        """A started single elimination of two (public unless `fields` say otherwise): its one
        match is at THIS_TABLE, the player plays its home side, and the other entrant signed up
        (its player key is `player_keys`)."""

        def build() -> str:
            tournament = TournamentFactory.create(
                entrants=1,
                signed_up=["Player 2"],
                registration=Registration(open=True),
                tables=4,
                club=self.club,
                started=True,
                matches_at_tables=[THIS_TABLE],
                **fields,
            )
            keys = tournament.player_keys  # type: ignore[attr-defined]
            self.cache[f"player key {sorted(fields.items())}"] = keys["Player 2"]
            [match] = Fixture.objects.filter(tournament_id=tournament.id)
            Player.objects.filter(entries__id=match.home_id).update(user=self.users["player"])
            for persona, tables in [
                ("scorer_this_table", [THIS_TABLE]),
                ("scorer_other_table", [OTHER_TABLE]),
            ]:
                accounts.role_grant(
                    user=self.users[persona],
                    role=Role.SCORER,
                    tournament_id=tournament.id,
                    tables=tables,
                )
            self.cache["match"] = str(match.match_id)
            return str(tournament.id)

        return str(self.once(f"tournament {sorted(fields.items())}", build))

    def player_key(self) -> str:
        """The player key of the world's public tournament's entrant who signed up."""
        self.tournament()
        return str(self.cache["player key []"])

    def match(self) -> str:
        self.tournament()
        return str(self.cache["match"])

    def private_match(self) -> str:
        self.tournament(public=False)
        return str(self.cache["match"])

    def post(self, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.organizer.post(url, body or {}, format="json")
        assert response.status_code in (200, 201), response.content
        answer: dict[str, Any] = response.json()
        return answer

    def round_started(self, briscola: str | None = "7D") -> str:
        match_id = self.match()
        self.post(f"{API}/matches/{match_id}/rounds/", {"briscola": briscola})
        return match_id

    def card_played(self) -> str:
        match_id = self.round_started()
        leader = self.organizer.get(f"{API}/matches/{match_id}/rounds/1/").json()["leader_seat"]
        self.post(f"{API}/matches/{match_id}/rounds/1/plays/", {"seat": leader, "card": "1C"})
        return match_id

    def finished_match(self) -> str:
        match_id = self.round_started(briscola=None)
        self.post(f"{API}/matches/{match_id}/rounds/1/score/", {"points": [80, 40]})
        return match_id

    def finished_card_match(self) -> tuple[str, dict[str, Any]]:
        """The match, its round played card by card, and a correction of a card of it that
        the rules accept (decision record 0048)."""

        def build() -> tuple[str, dict[str, Any]]:
            match_id = self.match()
            briscola, plays, dealer = finished_card_round(self.organizer, match_id)
            index, card, _points = a_correction(briscola, plays, dealer=dealer)
            return match_id, {"play_index": index, "card": card.code, "reason": "misread"}

        found: tuple[str, dict[str, Any]] = self.once("finished card match", build)
        return found

    def in_registration(self) -> str:
        """A tournament of the organizer's club, open for registration, with two entrants."""

        def build() -> tuple[str, list[int]]:
            tournament_id = str(ApiTournamentFactory.create(client=self.organizer)["id"])
            return tournament_id, register_seeded(self.organizer, tournament_id, 2)

        return str(self.once("registration", build)[0])

    def swiss(self, *, bye: bool = False, paused: bool = False) -> str:
        """A Swiss of the organizer's club in registration with two entrants (decision record
        0058); the first has asked for a bye in round 2 (`bye`), or is paused."""

        def build() -> tuple[str, list[int]]:
            created = ApiTournamentFactory.create(
                client=self.organizer, format="swiss", swiss_rounds=3
            )
            tournament_id = str(created["id"])
            entrants = register_seeded(self.organizer, tournament_id, 2)
            entrant_url = f"{API}/tournaments/{tournament_id}/entrants/{entrants[0]}/"
            if bye:
                self.post(f"{entrant_url}byes/", {"round": 2})
            if paused:
                self.post(f"{entrant_url}pause/")
            return tournament_id, entrants

        return str(self.once(f"swiss-{bye}-{paused}", build)[0])

    def swiss_entrant(self) -> int:
        """The first entrant of the Swiss `swiss` made."""
        made = [value for key, value in self.cache.items() if key.startswith("swiss-")]
        return int(made[0][1][0])

    def signing_up(self, *, public: bool = True) -> str:
        """A tournament of the organizer's club whose registration is open, without a cap."""

        def build() -> str:
            created = ApiTournamentFactory.create(
                client=self.organizer, public=public, registration={"open": True}
            )
            return str(created["id"])

        return str(self.once(f"signing-up-{public}", build))

    def applications(self) -> tuple[str, int]:
        """A tournament whose organizer approves each application, and one pending."""

        def build() -> tuple[str, int]:
            created = ApiTournamentFactory.create(
                client=self.organizer, registration={"open": True, "approval": True}
            )
            url = tournament_url(created["id"], "registrations")
            self.organizer.post(url, {"name": "Applicant"}, format="json")
            return str(created["id"]), Application.objects.get(tournament_id=created["id"]).id

        found: tuple[str, int] = self.once("applications", build)
        return found

    def entrant(self) -> int:
        return self.entrants()[0]

    def entrants(self) -> list[int]:
        """The ids of the two entrants of `in_registration`, seeded 1 and 2."""
        self.in_registration()
        return [int(entrant) for entrant in self.cache["registration"][1]]

    def swiss_round_due(self) -> str:
        tournament_id, _ = started_tournament(
            self.organizer, 4, format="swiss", swiss_rounds=2, automatic_rounds=False
        )
        play_round(self.organizer, tournament_id, home_wins)
        return tournament_id

    def level_match(self) -> tuple[str, str, int]:
        """A tournament (organizer's rule) whose final ended level: its id, the match's id and
        its home entrant."""

        def build() -> tuple[str, str, int]:
            tournament_id, match = level_knockout_match(self.organizer)
            return tournament_id, match["id"], match["entrants"][0]

        level: tuple[str, str, int] = self.once("level match", build)
        return level

    def tied_group(self) -> tuple[str, list[int]]:
        """A groups then knockout tournament (organizer's rule) whose group A is tied at its
        cut: its id and the order to decide (seeds 4 then 1)."""

        def build() -> tuple[str, list[int]]:
            tournament_id, entrants = groups_tied_at_the_cut(self.organizer)
            return tournament_id, [entrants[3], entrants[0]]

        tied: tuple[str, list[int]] = self.once("tied group", build)
        return tied

    def device_token(self) -> tuple[str, int]:
        tournament_id = self.tournament()
        issued = self.post(
            tournament_url(tournament_id, "device-tokens"),
            {"scorer": "scorer_this_table", "name": "tablet 3", "tables": [THIS_TABLE]},
        )
        return tournament_id, int(issued["id"])


def make_world() -> World:
    club_a = ClubFactory.create(name="Club A", slug="club-a")
    club_b = ClubFactory.create(name="Club B", slug="club-b")
    users = {persona: UserFactory.create(username=persona) for persona in ACCOUNT_PERSONAS[1:]}
    clients = {"anonymous": APIClient()} | {
        persona: token_client(user) for persona, user in users.items()
    }
    accounts.role_grant(user=users["organizer"], role=Role.ORGANIZER, club=club_a)
    accounts.role_grant(user=users["organizer_other_club"], role=Role.ORGANIZER, club=club_b)
    world = World(clients=clients, users=users, club=club_a)
    clients[PLAYER_KEY] = PlayerKeyClient(world)
    return world


class PlayerKeyClient(APIClient):
    """A client that sends the player key of the world's tournament, made when it sends its
    first request (only the cells that call it build that tournament)."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world

    def request(self, *args: Any, **kwargs: Any) -> Any:
        self.credentials(HTTP_AUTHORIZATION=f"Token {self.world.player_key()}")
        return super().request(*args, **kwargs)


def tournament_at_tables(world: World, *tables: int) -> tuple[str, dict[int, str]]:
    """A started knockout of singles (best of one round) with its matches at `tables`, and a
    scorer of the whole tournament (the user `scorer`)."""
    tournament = TournamentFactory.create(
        entrants=2 * len(tables),
        tables=max(tables),
        club=world.club,
        started=True,
        matches_at_tables=tables,
    )
    fixtures = Fixture.objects.filter(tournament_id=tournament.id).order_by("id")
    at = {table: str(fixture.match_id) for table, fixture in zip(tables, fixtures, strict=True)}
    scorer, _ = get_user_model().objects.get_or_create(username="scorer")
    accounts.role_grant(user=scorer, role=Role.SCORER, tournament_id=tournament.id)
    return str(tournament.id), at
