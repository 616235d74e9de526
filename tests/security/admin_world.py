"""The organizer's console as seen by four people: an organizer of club A (made one by a role
grant, so staff and in the group `organizers`), an organizer of club B, a scorer of club A (not
staff) and an anonymous visitor; and club A's things, a private tournament first, for each admin
page to open."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.test import Client
from django.utils import timezone

from accounts import services as accounts
from accounts.models import Club, DeviceToken, Role, RoleGrant, User
from games.eventstore.models import Event, IdempotencyKey
from games.models import Match
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import TournamentFactory
from tournaments.models import (
    ClubRatingSettings,
    Entrant,
    Fixture,
    Player,
    Season,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.seasons import services as season_services
from tournaments.webhooks import services as webhook_services

ADMIN_PERSONAS = ("anonymous", "scorer", "organizer_other_club", "organizer")
PRIVATE_NAME = "Torneo riservato del Club A"


@dataclass
class AdminWorld:
    clients: dict[str, Client]
    users: dict[str, User]
    club: Club
    tournament: Tournament
    """Club A's private tournament, started: its first round is being played."""
    in_registration: Tournament
    """Club A's private tournament still taking entries."""
    objects: dict[str, Any] = field(default_factory=dict)
    """One row of each model of the console, club A's, by model label."""

    def events(self) -> int:
        return Event.objects.count()


def make_admin_world() -> AdminWorld:
    club_a = ClubFactory.create(name="Club A", slug="club-a")
    club_b = ClubFactory.create(name="Club B", slug="club-b")
    users = {persona: UserFactory.create(username=persona) for persona in ADMIN_PERSONAS[1:]}
    accounts.role_grant(user=users["organizer"], role=Role.ORGANIZER, club=club_a)
    accounts.role_grant(user=users["organizer_other_club"], role=Role.ORGANIZER, club=club_b)
    accounts.role_grant(user=users["scorer"], role=Role.SCORER, club=club_a)
    clients = {"anonymous": Client()}
    for persona, user in users.items():
        clients[persona] = Client()
        clients[persona].force_login(user)
    tournament = TournamentFactory.create(
        name=PRIVATE_NAME,
        club=club_a,
        public=False,
        entrants=4,
        tables=2,
        started=True,
        projected=True,
        matches_at_tables=[1, 2],
    )
    in_registration = TournamentFactory.create(
        name="Iscrizioni del Club A", club=club_a, public=False, entrants=2
    )
    organizer = users["organizer"]
    endpoint, _secret = webhook_services.webhook_register(
        tournament_id=tournament.id, url="https://example.org/hook", user=organizer
    )
    event = Event.objects.filter(stream_id=tournament.id).order_by("global_position").first()
    assert event is not None
    fixture = Fixture.objects.filter(tournament=tournament).order_by("key").first()
    assert fixture is not None
    token, _key = accounts.device_token_create(
        user=users["scorer"],
        device="tablet at table 1",
        created_by=organizer,
        expires_in=None,
        tournament_id=tournament.id,
        tables=(1,),
    )
    objects: dict[str, Any] = {
        "tournaments.Tournament": tournament,
        "tournaments.Entrant": Entrant.objects.filter(tournament=tournament).first(),
        "tournaments.Fixture": fixture,
        "tournaments.Player": Player.objects.filter(entries__tournament=tournament).first(),
        "tournaments.Season": season_services.season_create(
            club=club_a, name="Stagione del Club A", slug="stagione", points=(3, 2, 1)
        ),
        "tournaments.WebhookEndpoint": endpoint,
        "tournaments.WebhookDelivery": WebhookDelivery.objects.create(
            endpoint=endpoint,
            position=event.global_position,
            event_type=event.event_type,
            stream_id=event.stream_id,
            status="failed",
            next_attempt_at=timezone.now(),
        ),
        "tournaments.ClubRatingSettings": ClubRatingSettings.objects.create(club=club_a),
        "games.Match": Match.objects.get(id=fixture.match_id),
        "eventstore.Event": event,
        "eventstore.IdempotencyKey": IdempotencyKey.objects.first(),
        "accounts.Club": club_a,
        "accounts.RoleGrant": RoleGrant.objects.get(user=users["scorer"]),
        "accounts.DeviceToken": token,
        "accounts.User": organizer,
    }
    return AdminWorld(
        clients=clients,
        users=users,
        club=club_a,
        tournament=tournament,
        in_registration=in_registration,
        objects=objects,
    )


def tokens() -> int:
    return DeviceToken.objects.filter(revoked_at__isnull=False).count()


def endpoints_active() -> int:
    return WebhookEndpoint.objects.filter(active=True).count()


def seasons_named() -> list[str]:
    return list(Season.objects.values_list("name", flat=True))
