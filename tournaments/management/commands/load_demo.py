"""`manage.py load_demo`: a club evening half played, so a newcomer sees brackets, standings and
card-by-card replays at once.

Everything goes through the services, so the demo is events like any tournament. Some matches
are entered card by card from seeded random legal rounds (`games.rules.simulate`), some by their
points only. The demo tournaments are known by name: a second run finds them and adds nothing.
The small demo (`--small`) has names of its own, so it loads beside the full one. Both load
the demo club (`tournaments/management/demo_club.py`): finished nights, rated, and a season.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from common.actors import Actor
from games.matches import services as match_services
from games.matches.execution import CommandResult
from games.models import Match
from games.rules.simulate import simulate_round
from tournaments.management import demo_club
from tournaments.management.demo_names import NAMES
from tournaments.models import Fixture, FixtureStatus, Tournament
from tournaments.projections import consumer
from tournaments.ratings import projection as ratings
from tournaments.services import registration, running, scheduling

CUP_NAME = "Demo: Coppa del Circolo (singles)"
SWISS_NAME = "Demo: Swiss evening"
SMALL_CUP_NAME = "Demo (small): Coppa del Circolo (singles)"
SMALL_SWISS_NAME = "Demo (small): Swiss evening"
THREES_NAME = "Demo: Briscola a tre (Swiss at tables of three)"
SMALL_THREES_NAME = "Demo (small): Briscola a tre (Swiss at tables of three)"
DEMO_NAMES = (
    CUP_NAME,
    SWISS_NAME,
    THREES_NAME,
    SMALL_CUP_NAME,
    SMALL_SWISS_NAME,
    SMALL_THREES_NAME,
)
DEMO_SEED = 1907
"""Every shuffle, dealer and card of the demo comes from this seed: each run plays the same."""
SWISS_RANDOM_SEED = 20240914
THREES_RANDOM_SEED = 20241123
ACTOR = Actor(device="load_demo")


CARDS, SCORE, LIVE, WAIT = "cards", "score", "live", "wait"
"""How one match of a round is played: every card, points only, half a round, or not at all."""
SAID = {CARDS: "card by card", SCORE: "by points", LIVE: "in progress", WAIT: "not started"}
LIVE_PLAYS = 17
"""A live match stops after this many cards of its last round: a trick and a half to go on."""


@dataclass(frozen=True)
class DemoSize:
    cup_name: str
    swiss_name: str
    cup_entrants: int
    cup_rounds: tuple[tuple[str, ...], ...]
    swiss_entrants: int
    swiss_rounds: int
    swiss_played: tuple[tuple[str, ...], ...]
    threes_name: str
    threes_entrants: int
    threes_rounds: int
    threes_played: tuple[tuple[str, ...], ...]
    """Per round, how each table is played, in the order of the fixtures' keys (the tables of
    three first, then the table of two or nothing: the bye)."""


FULL = DemoSize(
    cup_name=CUP_NAME,
    swiss_name=SWISS_NAME,
    cup_entrants=16,
    cup_rounds=(
        (CARDS, SCORE, CARDS, SCORE, CARDS, SCORE, CARDS, SCORE),
        (CARDS, SCORE, CARDS, SCORE),
        (CARDS, LIVE),
    ),
    swiss_entrants=12,
    swiss_rounds=4,
    swiss_played=(
        (CARDS, SCORE, SCORE, CARDS, SCORE, SCORE),
        (SCORE, CARDS, SCORE, SCORE, CARDS, SCORE),
        (CARDS, SCORE, SCORE, LIVE, WAIT, WAIT),
    ),
    threes_name=THREES_NAME,
    threes_entrants=11,  # three tables of three and a table of two each round
    threes_rounds=4,
    threes_played=(
        (CARDS, SCORE, SCORE, CARDS),
        (SCORE, CARDS, SCORE, SCORE),
        (CARDS, LIVE, SCORE, WAIT),
    ),
)
SMALL = DemoSize(
    cup_name=SMALL_CUP_NAME,
    swiss_name=SMALL_SWISS_NAME,
    cup_entrants=4,
    cup_rounds=((CARDS, SCORE), (LIVE,)),
    swiss_entrants=4,
    swiss_rounds=2,
    swiss_played=((CARDS, SCORE), (SCORE, WAIT)),
    threes_name=SMALL_THREES_NAME,
    threes_entrants=4,  # one table of three and a bye each round
    threes_rounds=2,
    threes_played=((CARDS,), (WAIT,)),
)


class Demo:
    def __init__(self, say: Callable[[str], None], *, name: str) -> None:
        # One generator per tournament: each plays the same whether or not the other exists.
        self.rng = random.Random(f"{DEMO_SEED}:{name}")  # noqa: S311 - seeded demo data, not a secret
        self.say = say

    def register(self, tournament_id: UUID, names: tuple[str, ...]) -> None:
        for seed, name in enumerate(names, start=1):
            registered = registration.entrant_register(
                tournament_id=tournament_id, name=name, players=[name], seed=seed, actor=ACTOR
            )
            registration.entrant_check_in(
                tournament_id=tournament_id,
                entrant_id=registration.registered_entrant_id(registered),
                actor=ACTOR,
            )
        self.say(f"  {len(names)} entrants registered and checked in")

    def cup(self, size: DemoSize) -> None:
        self.say(f"{size.cup_name}: single elimination, {size.cup_entrants} singles, best of 3")
        tournament = registration.tournament_create(
            name=size.cup_name,
            format="single_elimination",
            table_size=2,
            best_of=3,
            tables=size.cup_entrants // 2,
            actor=ACTOR,
        )
        self.register(tournament.id, NAMES[: size.cup_entrants])
        self.seed_start_and_play(tournament.id, size.cup_rounds, live_round=2)

    def swiss(self, size: DemoSize) -> None:
        self.say(
            f"{size.swiss_name}: Swiss, {size.swiss_entrants} singles, "
            f"{size.swiss_rounds} rounds, "
            "one game a match"
        )
        tournament = registration.tournament_create(
            name=size.swiss_name,
            format="swiss",
            table_size=2,
            best_of=1,
            swiss_rounds=size.swiss_rounds,
            tables=size.swiss_entrants // 2,
            actor=ACTOR,
        )
        names = NAMES[len(NAMES) - size.swiss_entrants :]
        self.register(tournament.id, names)
        self.seed_start_and_play(
            tournament.id, size.swiss_played, live_round=1, random_seed=SWISS_RANDOM_SEED
        )

    def threes(self, size: DemoSize) -> None:
        self.say(
            f"{size.threes_name}: Swiss at tables of three, {size.threes_entrants} singles, "
            f"{size.threes_rounds} rounds, one game a match"
        )
        tournament = registration.tournament_create(
            name=size.threes_name,
            format="swiss",
            table_size=3,
            best_of=1,
            swiss_rounds=size.threes_rounds,
            tables=(size.threes_entrants + 2) // 3,
            actor=ACTOR,
        )
        start = (len(NAMES) - size.threes_entrants) // 2
        self.register(tournament.id, NAMES[start : start + size.threes_entrants])
        self.seed_start_and_play(
            tournament.id, size.threes_played, live_round=1, random_seed=THREES_RANDOM_SEED
        )

    def seed_start_and_play(
        self,
        tournament_id: UUID,
        rounds: tuple[tuple[str, ...], ...],
        *,
        live_round: int,
        random_seed: int | None = None,
    ) -> None:
        """Seed (by the given seeds, or at random from `random_seed`), start, and play `rounds`:
        each round's matches played the way it names, in key order."""
        registration.tournament_seed(
            tournament_id=tournament_id,
            method="given" if random_seed is None else "random",
            random_seed=random_seed,
            actor=ACTOR,
        )
        running.tournament_start(tournament_id=tournament_id, actor=ACTOR)
        for number, ways in enumerate(rounds, start=1):
            self.play_round(tournament_id, number, ways, live_round=live_round)

    def play_round(
        self, tournament_id: UUID, number: int, ways: tuple[str, ...], *, live_round: int
    ) -> None:
        scheduling.fixture_schedule(tournament_id=tournament_id, actor=ACTOR)
        fixtures = Fixture.objects.filter(
            tournament_id=tournament_id, round=number, status=FixtureStatus.READY
        ).order_by("key")
        for fixture, way in zip(fixtures, ways, strict=False):
            if way == WAIT:
                continue
            self.play_match(fixture.match_id, way, live_round=live_round)
            running.fixture_result_sync(match_id=fixture.match_id, actor=ACTOR)
        counts = {SAID[way]: ways.count(way) for way in SAID if way in ways}
        self.say(f"  round {number}: " + ", ".join(f"{n} {way}" for way, n in counts.items()))

    def play_match(self, match_id: UUID, way: str, *, live_round: int) -> None:
        """Play rounds until the match is over; a LIVE match stops part way into its
        `live_round`-th round."""
        seats = Match.objects.get(id=match_id).table_size
        finished = False
        while not finished:
            simulated = simulate_round(self.rng, seats)
            if way == SCORE:
                started = match_services.round_start(match_id=match_id, briscola=None, actor=ACTOR)
                number = len(started.state.rounds)
                if simulated.outcome is None:
                    raise RuntimeError("a simulated round has an outcome")
                result = match_services.round_points_enter(
                    match_id=match_id,
                    round_number=number,
                    points=simulated.outcome.points,
                    actor=ACTOR,
                )
                finished = result.state.is_finished
                continue
            started = match_services.round_start(
                match_id=match_id,
                briscola=simulated.briscola.code,
                dealer_seat=simulated.dealer,
                actor=ACTOR,
            )
            number = len(started.state.rounds)
            live = way == LIVE and number >= live_round
            plays = simulated.plays[:LIVE_PLAYS] if live else simulated.plays
            result = started
            for play in plays:
                result = self.play_card(match_id, number, play.seat, play.card.code)
            finished = live or result.state.is_finished

    def play_card(self, match_id: UUID, number: int, seat: int, card: str) -> CommandResult:
        return match_services.card_play(
            match_id=match_id, round_number=number, seat=seat, card=card, actor=ACTOR
        )


class Command(BaseCommand):
    help = (
        "Load a demo club evening (a 16-singles knockout cup, a 12-entrant Swiss and an "
        "11-entrant Swiss at tables of three, part played card by card), and a demo club with "
        "three finished nights, its ratings and a season counting them. Idempotent: demo "
        "tournaments already there are left alone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--small",
            action="store_true",
            help="A 4-entrant cup, a 4-entrant 2-round Swiss and a 4-entrant Swiss at tables of "
            "three, named 'Demo (small): ...' "
            "(for tests); loaded beside the full demo when that is there.",
        )

    def handle(self, *args: Any, small: bool = False, **options: Any) -> None:
        size = SMALL if small else FULL
        for kind, name, load in (
            (CUP_NAME, size.cup_name, Demo.cup),
            (SWISS_NAME, size.swiss_name, Demo.swiss),
            (THREES_NAME, size.threes_name, Demo.threes),
        ):
            existing = Tournament.objects.filter(name=name).first()
            if existing is not None:
                self.stdout.write(f"{name}: already loaded ({existing.id})")
                continue
            with transaction.atomic():
                # Seeded by kind: the small cup plays as it did under the full demo's name.
                load(Demo(self.stdout.write, name=kind), size)
        demo_club.load_club(
            lambda name: Demo(self.stdout.write, name=name), self.stdout.write, ACTOR
        )
        processed = consumer.consume()
        self.stdout.write(f"Brackets and standings projected ({processed} events read).")
        rated = ratings.consume()
        self.stdout.write(f"Ratings computed ({rated} events read).")
        for tournament in Tournament.objects.filter(name__in=DEMO_NAMES).order_by("name"):
            self.stdout.write(
                f"  {tournament.name}: /admin/tournaments/tournament/{tournament.id}/change/"
            )
        club, season = demo_club.CLUB_SLUG, demo_club.SEASON_SLUG
        self.stdout.write(f"  Leaderboard: /clubs/{club}/ratings/")
        self.stdout.write(f"  Season: /clubs/{club}/seasons/{season}/")
