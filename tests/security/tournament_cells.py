"""The permission matrix's cells for the tournaments (their entrants, schedules, archive,
bracket and device tokens), a scorer's own list, and the schema and its docs."""

from __future__ import annotations

from uuid import UUID

from common.actors import Actor
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.security.cells import (
    EVERYBODY_READS,
    MEMBERS_READ,
    ORGANIZER_CHANGES,
    ORGANIZER_ONLY,
    ORGANIZER_READS,
    Cell,
    get,
    patch,
    post,
    statuses,
    waiting_match,
)
from tests.security.roles import World
from tests.tournaments.api.builders import (
    silent_round_drawn,
    tournament_url,
)
from tournaments.models import Player, Tournament
from tournaments.seasons import services as season_services
from tournaments.services import registration
from tournaments.webhooks.services import webhook_register


def silent_swiss(world: World) -> str:
    """A Swiss of the organizer's club whose last round is silent and drawn, not revealed."""
    return str(world.once("silent-swiss", lambda: silent_round_drawn(world.organizer)))


def season_url(world: World, *, list_only: bool = False) -> str:
    """The club's season of its tournament (made on first use), or the club's seasons."""
    tournament = world.tournament()

    def build() -> str:
        season_services.season_create(
            club=world.club,
            name="Stagione",
            points=[3, 2, 1],
            tournaments=[Tournament.objects.get(id=tournament)],
        )
        return f"{API}/clubs/{world.club.slug}/seasons/"

    listed: str = world.once("season", build)
    return listed if list_only else f"{listed}stagione/"


def rated_player(world: World) -> int:
    """A player of the world's tournament."""
    tournament_id = world.tournament()
    return Player.objects.filter(entries__tournament_id=tournament_id).values_list("id", flat=True)[
        0
    ]


def deactivate_url(world: World) -> str:
    """The deactivation of an endpoint of the world's tournament (registered on first use)."""
    tournament_id = world.tournament()

    def build() -> str:
        organizer = UserFactory.create(is_superuser=True)
        endpoint, _ = webhook_register(
            tournament_id=UUID(tournament_id), url="https://hooks.example.org/", user=organizer
        )
        return tournament_url(tournament_id, "webhooks", endpoint.id, "deactivate")

    url: str = world.once("webhook", build)
    return url


def application_url(world: World, action: str) -> str:
    tournament_id, application_id = world.applications()
    return tournament_url(tournament_id, "registrations", application_id, action)


ME = f"{API}/me/"
NO_ACCOUNT = statuses(401, 403, 403, 403, 403, 403)
"""Only a player key opens the player's own endpoints: an account has no entry of its own."""


def check_in_open(world: World) -> bool:
    """The world's tournament opens its check-in window."""
    registration.check_in_open(tournament_id=UUID(world.tournament()), actor=Actor())
    return True


def revoke_url(world: World) -> str:
    tournament_id, token_id = world.device_token()
    return tournament_url(tournament_id, "device-tokens", token_id, "revoke")


TOURNAMENT_CELLS: list[Cell] = [
    # Tournaments.
    Cell(
        "tournament-create",
        "post",
        post(
            lambda _w: f"{API}/tournaments/",
            lambda _w: {"name": "Open", "format": "swiss", "table_size": 2, "club": "club-a"},
        ),
        ORGANIZER_ONLY,
        player_key=401,
    ),
    Cell(
        "tournament-create",
        "get",
        get(lambda _w: f"{API}/tournaments/"),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-detail",
        "get",
        get(lambda w: tournament_url(w.tournament())),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-detail",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False))),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "entrant-register",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "entrants"),
            lambda _w: {"name": "Late", "players": ["Late"]},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrants-register",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "entrants", "bulk"),
            lambda _w: {"entrants": [{"name": "Late"}, {"name": "Later"}]},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrant-check-in",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "entrants", w.entrant(), "check-in")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrant-withdraw",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "entrants", w.entrant(), "withdraw"),
            lambda _w: {"reason": "ill"},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    # Requested byes and pauses (decision record 0058), on a Swiss in registration.
    Cell(
        "entrant-byes",
        "get",
        get(lambda w: tournament_url(w.swiss(), "entrants", w.swiss_entrant(), "byes")),
        EVERYBODY_READS,
        player_key=404,
    ),
    Cell(
        "entrant-byes",
        "post",
        post(
            lambda w: tournament_url(w.swiss(), "entrants", w.swiss_entrant(), "byes"),
            lambda _w: {"round": 2},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrant-bye-cancel",
        "delete",
        lambda w, client: client.delete(
            tournament_url(w.swiss(bye=True), "entrants", w.swiss_entrant(), "byes", 2)
        ),
        ORGANIZER_CHANGES,
        player_key=404,
    ),
    Cell(
        "entrant-pause",
        "post",
        post(lambda w: tournament_url(w.swiss(), "entrants", w.swiss_entrant(), "pause")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrant-return",
        "post",
        post(
            lambda w: tournament_url(w.swiss(paused=True), "entrants", w.swiss_entrant(), "return")
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "entrant-correct",
        "patch",
        patch(
            lambda w: tournament_url(w.in_registration(), "entrants", w.entrant()),
            lambda _w: {"name": "Player One", "seed": 7, "reason": "misspelled"},
        ),
        ORGANIZER_CHANGES,
        player_key=404,
    ),
    Cell(
        "entrants-reseed",
        "patch",
        patch(
            lambda w: tournament_url(w.in_registration(), "seeds"),
            lambda w: {
                "seeds": [
                    {"entrant": entrant, "seed": 3 - seed}
                    for seed, entrant in enumerate(w.entrants(), start=1)
                ],
                "reason": "swapped",
            },
        ),
        ORGANIZER_CHANGES,
        player_key=404,
    ),
    Cell(
        "tournament-seed",
        "post",
        post(
            lambda w: tournament_url(w.in_registration(), "seed"),
            lambda _w: {"method": "random", "random_seed": 7},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "tournament-start",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "start")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "swiss-round-publish",
        "post",
        post(lambda w: tournament_url(w.swiss_round_due(), "next-round")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "check-in-window",
        "get",
        get(lambda w: tournament_url(w.in_registration(), "check-in")),
        EVERYBODY_READS,
        player_key=404,
    ),
    Cell(
        "check-in-open",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "check-in/open")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "check-in-close",
        "post",
        post(lambda w: tournament_url(w.in_registration(), "check-in/close")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "match-call",
        "post",
        post(lambda w: tournament_url(w.tournament(), f"matches/{waiting_match(w)}/call")),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "level-match-decide",
        "post",
        post(
            lambda w: tournament_url(w.level_match()[0], f"matches/{w.level_match()[1]}/decide"),
            lambda w: {"winner": w.level_match()[2], "reason": "sorteggio"},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "group-places-decide",
        "post",
        post(
            lambda w: tournament_url(w.tied_group()[0], "groups/A/decide"),
            lambda w: {"order": w.tied_group()[1], "reason": "sorteggio"},
        ),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    Cell(
        "tournament-matches",
        "get",
        get(lambda w: tournament_url(w.tournament(), "matches")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-matches",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False), "matches")),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "tournament-standings",
        "get",
        get(lambda w: tournament_url(w.tournament(), "standings")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-standings",
        "get (csv)",
        get(lambda w: tournament_url(w.tournament(), "standings") + "?format=csv"),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-standings",
        "get (csv, private)",
        get(lambda w: tournament_url(w.tournament(public=False), "standings") + "?format=csv"),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "tournament-schedule",
        "get",
        get(lambda w: tournament_url(w.tournament(), "schedule")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-schedule",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False), "schedule")),
        MEMBERS_READ,
        player_key=404,
    ),
    # The archive carries every event's metadata (devices, accounts): organizers only.
    Cell(
        "tournament-archive",
        "get",
        get(lambda w: tournament_url(w.tournament(), "archive")),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "tournament-event-stream",
        "get",
        get(lambda w: tournament_url(w.tournament(), "events", "stream")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "tournament-event-stream",
        "get (private)",
        get(lambda w: tournament_url(w.tournament(public=False), "events", "stream")),
        MEMBERS_READ,
        player_key=404,
    ),
    Cell(
        "tournament-bracket",
        "get",
        get(lambda w: tournament_url(w.tournament(), "bracket")),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "device-tokens",
        "get",
        get(lambda w: tournament_url(w.tournament(), "device-tokens")),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "device-tokens",
        "post",
        post(
            lambda w: tournament_url(w.tournament(), "device-tokens"),
            lambda _w: {"scorer": "scorer_this_table", "name": "tablet 3", "tables": [3]},
        ),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "device-token-revoke",
        "post",
        post(lambda w: revoke_url(w)),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "webhook-endpoints",
        "get",
        get(lambda w: tournament_url(w.tournament(), "webhooks")),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "webhook-endpoints",
        "post",
        post(
            lambda w: tournament_url(w.tournament(), "webhooks"),
            lambda _w: {"url": "https://hooks.example.org/briscola"},
        ),
        ORGANIZER_ONLY,
        player_key=403,
    ),
    Cell(
        "webhook-endpoint-deactivate",
        "post",
        post(lambda w: deactivate_url(w)),
        ORGANIZER_CHANGES,
        player_key=403,
    ),
    Cell(
        "table-card",
        "get",
        get(lambda w: tournament_url(w.tournament(), "tables", 3, "card")),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "table-cards",
        "get",
        get(lambda w: tournament_url(w.tournament(), "tables", "cards") + "?format=pdf"),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "round-sheets",
        "get",
        get(lambda w: tournament_url(w.tournament(), "rounds", 1, "sheets") + "?format=html"),
        ORGANIZER_READS,
        player_key=403,
    ),
    Cell(
        "tournament-tables",
        "patch",
        patch(lambda w: tournament_url(w.tournament(), "tables"), lambda _w: {"tables": 5}),
        ORGANIZER_CHANGES,
        player_key=403,
    ),
    # Silent final rounds (decision record 0060): their organizers reveal them.
    Cell(
        "tournament-reveal",
        "post",
        post(lambda w: tournament_url(silent_swiss(w), "reveal")),
        ORGANIZER_ONLY,
        player_key=404,
    ),
    # Players' sign-up (decision record 0053): anyone who may read applies; organizers decide.
    Cell(
        "registrations",
        "post",
        post(
            lambda w: tournament_url(w.signing_up(), "registrations"),
            lambda _w: {"name": "Newcomer"},
        ),
        statuses(201, 201, 201, 201, 201, 201),
        player_key=404,
    ),
    Cell(
        "registrations",
        "post (private)",
        post(
            lambda w: tournament_url(w.signing_up(public=False), "registrations"),
            lambda _w: {"name": "Newcomer"},
        ),
        statuses(404, 404, 404, 404, 404, 201),  # none but the organizer belongs to it
        player_key=404,
    ),
    Cell(
        "registrations",
        "get",
        get(lambda w: tournament_url(w.signing_up(), "registrations")),
        ORGANIZER_READS,
        player_key=404,
    ),
    Cell(
        "registration",
        "patch",
        patch(
            lambda w: tournament_url(w.in_registration(), "registration"),
            lambda _w: {"open": True, "cap": 8},
        ),
        ORGANIZER_CHANGES,
        player_key=404,
    ),
    Cell(
        "registrations-order",
        "patch",
        patch(
            lambda w: tournament_url(w.applications()[0], "registrations", "order"),
            lambda _w: {"order": []},
        ),
        ORGANIZER_CHANGES,
        player_key=404,
    ),
    *(
        Cell(
            f"registration-{action}",
            "post",
            post(lambda w, a=action: application_url(w, a)),  # type: ignore[misc]
            ORGANIZER_ONLY,
            player_key=404,
        )
        for action in ("approve", "decline", "promote")
    ),
    # What a scorer may score: anybody signed in asks, and hears their own list.
    Cell(
        "scorer-matches",
        "get",
        get(lambda _w: f"{API}/scorer/matches/"),
        statuses(401, 200, 200, 200, 200, 200),
        player_key=401,
    ),
    # The player's own (decision record 0055): a player key only, on its own entry.
    Cell("me", "get", get(lambda _w: ME), NO_ACCOUNT, player_key=200),
    Cell(
        "me-check-in",
        "post",
        lambda w, client: check_in_open(w) and client.post(f"{ME}check-in/", format="json"),
        NO_ACCOUNT,
        player_key=201,
    ),
    Cell(
        "me-byes",
        "post",
        post(lambda _w: f"{ME}byes/", lambda _w: {"round": 2}),
        NO_ACCOUNT,
        player_key=422,  # `not_a_swiss`: past the permission, refused by the rules
    ),
    Cell(
        "me-bye-cancel",
        "delete",
        lambda _w, client: client.delete(f"{ME}byes/2/"),
        NO_ACCOUNT,
        player_key=422,
    ),
    Cell(
        "me-withdraw",
        "post",
        post(lambda _w: f"{ME}withdraw/"),
        NO_ACCOUNT,
        player_key=409,  # `tournament_started`: past the permission, refused by the rules
    ),
    Cell(
        "me-confirm",
        "post",
        post(lambda w: f"{ME}matches/{w.finished_match()}/confirm/"),
        NO_ACCOUNT,
        player_key=201,
    ),
    Cell(
        "me-dispute",
        "post",
        post(
            lambda w: f"{ME}matches/{w.finished_match()}/dispute/",
            lambda _w: {"reason": "we had 62"},
        ),
        NO_ACCOUNT,
        player_key=201,
    ),
    # A club's seasons count public tournaments only: anyone reads them (decision 0037).
    Cell(
        "club-seasons",
        "get",
        get(lambda w: season_url(w, list_only=True)),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell("club-season", "get", get(lambda w: season_url(w)), EVERYBODY_READS, player_key=200),
    # Ratings are public (only public tournaments' results are rated).
    Cell(
        "club-ratings",
        "get",
        get(lambda _w: f"{API}/clubs/club-a/ratings/"),
        EVERYBODY_READS,
        player_key=200,
    ),
    Cell(
        "player-ratings",
        "get",
        get(lambda w: f"{API}/players/{rated_player(w)}/ratings/"),
        EVERYBODY_READS,
        player_key=200,
    ),
    # The schema and its docs are public.
    Cell("schema", "get", get(lambda _w: f"{API}/schema/"), EVERYBODY_READS, player_key=200),
    Cell("docs", "get", get(lambda _w: f"{API}/docs/"), EVERYBODY_READS, player_key=200),
]
