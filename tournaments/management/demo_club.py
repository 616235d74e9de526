"""The demo club of `manage.py load_demo`: a few finished club nights and a season counting them,
so the leaderboard, a player's rating chart and the season page show real data at once.

Like the rest of the demo, everything goes through the services: the nights are Swiss evenings
of singles, every match entered by its points (seeded random legal rounds), and the season is
made by the seasons service. The club is known by its slug, the nights and the season by their
names: a second run finds them and adds nothing. The full and the small demo share the club.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol
from uuid import UUID

from django.conf import settings
from django.db import transaction

from accounts.models import Club, Role, User
from accounts.services import club_create, role_grant
from common.actors import Actor
from tournaments.management.demo_names import NAMES
from tournaments.models import Season, Tournament
from tournaments.seasons import services as season_services
from tournaments.services import registration

CLUB_NAME = "Demo: Circolo della Briscola"
CLUB_SLUG = "demo-circolo"
ORGANIZER_USERNAME = "circolo"
"""The demo club's organizer (password `circolo` in development): the console as a club's
organizer sees it, the demo club's nights only."""
SEASON_NAME = "Demo: Stagione 2026"
SEASON_SLUG = "demo-stagione-2026"
SEASON_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
SEASON_BEST_N = 2
"""Each player's best two nights count: a player who played all three sees one dropped."""
NIGHT_ROUNDS = 3
NIGHT_RANDOM_SEED = 20260301

POOL = NAMES[:10]
"""The club's regulars: the demo's first ten players."""
NIGHTS = (
    ("Demo: Serata del circolo 1", (8, 9)),
    ("Demo: Serata del circolo 2", (0, 1)),
    ("Demo: Serata del circolo 3", (4, 5)),
)
"""Each night's name and the players of the pool who stayed at home: eight play each night, and
everyone plays at least two (six rated matches: above the leaderboard's default of five)."""
NIGHT_NAMES = tuple(name for name, _away in NIGHTS)


class Loader(Protocol):
    """What the demo command lends the club: how it registers and plays a tournament."""

    say: Callable[[str], None]

    def register(self, tournament_id: UUID, names: tuple[str, ...]) -> None: ...

    def seed_start_and_play(
        self,
        tournament_id: UUID,
        rounds: tuple[tuple[str, ...], ...],
        *,
        live_round: int,
        random_seed: int | None = None,
    ) -> None: ...


def demo_club(say: Callable[[str], None]) -> Club:
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is not None:
        say(f"{CLUB_NAME}: already there ({club.slug})")
        return club
    say(f"{CLUB_NAME}: a new club ({CLUB_SLUG})")
    return club_create(name=CLUB_NAME, slug=CLUB_SLUG)


def demo_organizer(club: Club, say: Callable[[str], None]) -> User:
    """The club's organizer, made one by a role grant (so staff, in the group `organizers`);
    signing in with a password only in development (DEBUG)."""
    user, created = User.objects.get_or_create(username=ORGANIZER_USERNAME)
    if created:
        if settings.DEBUG:
            user.set_password(ORGANIZER_USERNAME)
        else:
            user.set_unusable_password()
        user.save()
    role_grant(user=user, role=Role.ORGANIZER, club=club)
    say(f"{CLUB_NAME}: organized by {ORGANIZER_USERNAME}")
    return user


def club_night(
    loader: Loader, club: Club, *, name: str, away: tuple[int, ...], number: int, actor: Actor
) -> None:
    players = tuple(player for index, player in enumerate(POOL) if index not in away)
    loader.say(f"{name}: Swiss, {len(players)} singles, {NIGHT_ROUNDS} rounds, by points")
    tournament = registration.tournament_create(
        name=name,
        format="swiss",
        table_size=2,
        best_of=1,
        swiss_rounds=NIGHT_ROUNDS,
        tables=len(players) // 2,
        club=club,
        public=True,
        actor=actor,
    )
    loader.register(tournament.id, players)
    every_match = ("score",) * (len(players) // 2)
    loader.seed_start_and_play(
        tournament.id,
        (every_match,) * NIGHT_ROUNDS,
        live_round=1,
        random_seed=NIGHT_RANDOM_SEED + number,
    )


def load_club(
    make_loader: Callable[[str], Loader], say: Callable[[str], None], actor: Actor
) -> None:
    """The demo club, its nights (each played to its end) and its season, whichever are not
    there yet. `make_loader` gives the loader for a night (seeded by its name)."""
    club = demo_club(say)
    demo_organizer(club, say)  # also for a demo club loaded before it had one
    for number, (name, away) in enumerate(NIGHTS, start=1):
        existing = Tournament.objects.filter(name=name, club=club).first()
        if existing is not None:
            say(f"{name}: already loaded ({existing.id})")
            continue
        with transaction.atomic():
            club_night(make_loader(name), club, name=name, away=away, number=number, actor=actor)
    if Season.objects.filter(club=club, slug=SEASON_SLUG).exists():
        say(f"{SEASON_NAME}: already loaded")
        return
    nights = Tournament.objects.filter(club=club, name__in=NIGHT_NAMES).order_by("created_at")
    season_services.season_create(
        club=club,
        name=SEASON_NAME,
        slug=SEASON_SLUG,
        points=SEASON_POINTS,
        best_n=SEASON_BEST_N,
        tournaments=nights,
    )
    say(f"{SEASON_NAME}: {len(nights)} nights, best {SEASON_BEST_N} count")
