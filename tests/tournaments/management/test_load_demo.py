"""The demo, loaded once for the module (the full evening, then the small one beside it, as
`make run` and the browser tests load them), inside a transaction rolled back at the end: each
test reads it, or changes it within its own savepoint."""

import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Club, User
from accounts.organizers import ORGANIZERS_GROUP
from games.eventstore.models import Event
from games.matches.selectors import round_replay
from games.models import Match, Round
from tournaments.management.commands.load_demo import (
    CUP_NAME,
    DEMO_NAMES,
    SMALL_CUP_NAME,
    SMALL_SWISS_NAME,
    SMALL_THREES_NAME,
    SWISS_NAME,
    THREES_NAME,
)
from tournaments.management.demo_club import (
    CLUB_SLUG,
    NIGHT_NAMES,
    ORGANIZER_USERNAME,
    SEASON_NAME,
    SEASON_SLUG,
)
from tournaments.models import Entrant, Fixture, Season, Tournament, TournamentView
from tournaments.ratings import selectors as rating_selectors
from tournaments.seasons import selectors as season_selectors
from tournaments.tasks import running

pytestmark = pytest.mark.django_db


def load_demo(*options: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *options, stdout=out)
    return out.getvalue()


@dataclass(frozen=True)
class LoadedDemo:
    full_output: str
    small_output: str
    full_events_before_small: int


FULL_NAMES = (CUP_NAME, SWISS_NAME, THREES_NAME)
SMALL_NAMES = (SMALL_CUP_NAME, SMALL_SWISS_NAME, SMALL_THREES_NAME)


def full_demo_events() -> int:
    full = Tournament.objects.filter(name__in=FULL_NAMES)
    return Event.objects.filter(stream_id__in=full.values("id")).count()


@pytest.fixture(scope="module")
def demo(
    django_db_setup: None,  # noqa: ARG001 (the test database, before the module's transaction)
    django_db_blocker: pytest.FixtureRequest,
) -> Iterator[LoadedDemo]:
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        outer = transaction.atomic()
        outer.__enter__()
        try:
            full_output = load_demo()
            before = full_demo_events()
            yield LoadedDemo(full_output, load_demo("--small"), before)
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def demo_counts() -> tuple[int, int, int]:
    tournaments = Tournament.objects.filter(name__in=DEMO_NAMES)
    return (
        tournaments.count(),
        Entrant.objects.filter(tournament__in=tournaments).count(),
        Event.objects.filter(metadata__device="load_demo").count(),
    )


def test_loading_the_demo_twice_adds_nothing_the_second_time(demo: LoadedDemo) -> None:
    counts = demo_counts()

    second = load_demo("--small")

    assert demo_counts() == counts
    small = Tournament.objects.filter(name__in=SMALL_NAMES)
    assert (small.count(), Entrant.objects.filter(tournament__in=small).count()) == (3, 12)
    assert "round 1" in demo.small_output
    assert f"{SMALL_CUP_NAME}: already loaded" in second
    assert f"{SMALL_SWISS_NAME}: already loaded" in second
    assert f"{SMALL_THREES_NAME}: already loaded" in second
    assert f"{SEASON_NAME}: already loaded" in second
    assert Season.objects.filter(club__slug=CLUB_SLUG).count() == 1


def test_the_small_demo_loads_beside_the_full_demo_and_leaves_it_as_it_was(
    demo: LoadedDemo,
) -> None:
    full = Tournament.objects.filter(name__in=FULL_NAMES)
    output = demo.small_output

    small = Tournament.objects.filter(name__in=SMALL_NAMES)
    assert [t.entrants.count() for t in small.order_by("name")] == [4, 4, 4]
    assert full_demo_events() == demo.full_events_before_small > 0
    assert f"{SMALL_CUP_NAME}: single elimination, 4 singles" in output
    assert f"{CUP_NAME}: already loaded" not in output
    for tournament in (*full, *small):
        assert f"/admin/tournaments/tournament/{tournament.id}/change/" in output


def test_the_demo_has_brackets_standings_and_card_by_card_replays(demo: LoadedDemo) -> None:
    output = demo.full_output

    cup = Tournament.objects.get(name=CUP_NAME)
    swiss = Tournament.objects.get(name=SWISS_NAME)
    assert (cup.entrants.count(), swiss.entrants.count()) == (16, 12)
    assert (cup.status, swiss.status) == ("in_progress", "in_progress")
    assert cup.settings["format"] == "single_elimination"
    assert (swiss.settings["format"], swiss.settings["swiss_rounds"]) == ("swiss", 4)
    for tournament in (cup, swiss):
        view = TournamentView.objects.get(tournament=tournament)
        assert len(view.standings) == tournament.entrants.count()
        assert view.bracket["stages"][0]["rounds"]
    assert Fixture.objects.filter(tournament=swiss, round=3).exists()
    assert Fixture.objects.filter(tournament=cup, round=3).count() == 2
    matches = Match.objects.filter(
        id__in=Fixture.objects.filter(tournament__in=(cup, swiss)).values("match_id")
    )
    rounds = Round.objects.filter(match__in=matches, status="finished")
    card_rounds = rounds.filter(points_entered=False)
    assert card_rounds.count() >= 10
    assert rounds.filter(points_entered=True).exists()
    sample = card_rounds.first()
    assert sample is not None
    replay = round_replay(match_id=sample.match_id, round_number=sample.number)
    assert len(replay["tricks"]) == 20
    assert sum(replay["points"]) == 120
    assert matches.filter(status="in_progress").count() == 2
    demo_streams = [cup.id, swiss.id, *matches.values_list("id", flat=True)]
    devices = Event.objects.filter(stream_id__in=demo_streams).values_list(
        "metadata__device", flat=True
    )
    assert set(devices) == {"load_demo"}
    assert "projected" in output


@pytest.mark.usefixtures("demo")
def test_the_demo_has_a_swiss_evening_at_tables_of_three_two_rounds_played_one_underway() -> None:

    threes = Tournament.objects.get(name=THREES_NAME)
    assert (threes.table_size, threes.settings["format"], threes.status) == (
        3,
        "swiss",
        "in_progress",
    )
    assert threes.entrants.count() == 11
    fixtures = Fixture.objects.filter(tournament=threes)
    for number in (1, 2, 3):
        tables = fixtures.filter(round=number)
        # Eleven entrants: three tables of three and a table of two, everyone seated once.
        assert sorted(len(f.entrant_ids) for f in tables) == [2, 3, 3, 3]
        assert len({e for f in tables for e in f.entrant_ids}) == 11
    finished = fixtures.filter(status="finished")
    assert finished.filter(round__in=(1, 2)).count() == 8
    for fixture in finished:
        assert fixture.winner_id in fixture.entrant_ids
        if fixture.third_id is not None:
            assert sorted(fixture.places or []) in ([1, 2, 3], [1, 1, 3], [1, 2, 2])
    third_round = fixtures.filter(round=3)
    assert sorted(third_round.values_list("status", flat=True)) == [
        "finished",
        "finished",
        "in_progress",
        "ready",
    ]
    assert not fixtures.filter(round=4).exists()
    card_by_card = Round.objects.filter(
        match__table_size=3,
        match_id__in=finished.values("match_id"),
        points_entered=False,
        status="finished",
    )
    assert card_by_card.exists()
    sample = card_by_card.first()
    assert sample is not None
    replay = round_replay(match_id=sample.match_id, round_number=sample.number)
    assert len(replay["tricks"]) == 13
    assert sum(replay["points"]) == 120
    standings = TournamentView.objects.get(tournament=threes).standings
    assert len(standings) == 11
    seats = sum(len(fixture.entrant_ids) for fixture in finished)
    assert sum(sum(row["placings"]) for row in standings) == seats


def test_the_demo_club_has_finished_nights_rated_players_and_a_season_with_standings(
    demo: LoadedDemo,
) -> None:
    output = demo.small_output + demo.full_output

    club = Club.objects.get(slug=CLUB_SLUG)
    nights = Tournament.objects.filter(club=club, public=True)
    assert sorted(nights.values_list("name", "status")) == [
        (name, "finished") for name in NIGHT_NAMES
    ]
    board = rating_selectors.club_leaderboard(club=club, reader=AnonymousUser(), min_matches=5)
    assert len(board) == 10  # everyone played at least two nights of three rounds
    assert board[0]["rank"] == 1
    assert len({row["rating"] for row in board}) > 1
    standings = season_selectors.standings_of(
        season_selectors.season_of(club_slug=CLUB_SLUG, season_slug=SEASON_SLUG),
        reader=AnonymousUser(),
    )
    assert [line.counted for line in standings.tournaments] == [True, True, True]
    assert len(standings.rows) == 10
    points = [row.points for row in standings.rows]
    assert points == sorted(points, reverse=True)
    assert points[0] > 0
    dropped = [r for row in standings.rows for r in row.results if not r.counted]
    assert len(dropped) == 4  # four players played all three nights: their worst is dropped
    assert "Ratings computed" in output
    client = Client()
    leaderboard = client.get(f"/clubs/{CLUB_SLUG}/ratings/").content.decode()
    assert leaderboard.count("<tr data-player=") == 10
    player_page = client.get(f"/players/{board[0]['player']}/").content.decode()
    assert f'data-rating-chart="{CLUB_SLUG}"' in player_page
    season_page = client.get(f"/clubs/{CLUB_SLUG}/seasons/{SEASON_SLUG}/").content.decode()
    assert season_page.count("data-season-row") == 10
    assert f"/clubs/{CLUB_SLUG}/seasons/{SEASON_SLUG}/" in output


@pytest.mark.usefixtures("demo")
def test_the_demo_clubs_organizer_is_in_the_organizers_group_and_sees_only_its_nights() -> None:
    organizer = User.objects.get(username=ORGANIZER_USERNAME)
    client = Client()
    client.force_login(organizer)

    page = client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()

    assert organizer.is_staff
    assert not organizer.is_superuser
    assert list(organizer.groups.values_list("name", flat=True)) == [ORGANIZERS_GROUP]
    assert all(name in page for name in NIGHT_NAMES)
    assert not [name for name in DEMO_NAMES if name in page]


@pytest.mark.usefixtures("demo")
def test_the_demo_has_the_no_show_rule_off_and_its_waiting_matches_never_decay() -> None:
    demo = Tournament.objects.filter(name__in=DEMO_NAMES)
    waiting = Fixture.objects.filter(tournament__in=demo, status="ready")
    assert waiting.exists()

    done = running.catch_up_all(now=timezone.now() + timedelta(days=1))

    assert {t.settings["no_show_minutes"] for t in demo} == {None}
    assert not Fixture.objects.filter(tournament__in=demo, deadline__isnull=False).exists()
    assert done.forfeited == []
    assert not Match.objects.filter(forfeited_by__isnull=False).exists()


def demo_state() -> dict[str, object]:
    """What a visitor of the demo sees change: its matches, fixtures and events."""
    demo = Tournament.objects.filter(name__in=DEMO_NAMES)
    fixtures = Fixture.objects.filter(tournament__in=demo)
    return {
        "tournaments": sorted(demo.values_list("name", "status")),
        "fixtures": list(
            fixtures.order_by("match_id").values_list(
                "match_id", "status", "table", "deadline", "winner_id"
            )
        ),
        "matches": list(
            Match.objects.filter(id__in=fixtures.values("match_id"))
            .order_by("id")
            .values_list("id", "status", "version", "forfeited_by")
        ),
        "events": Event.objects.filter(metadata__device="load_demo").count(),
    }


@pytest.mark.usefixtures("demo")
def test_an_hour_of_make_run_changes_nothing_in_the_demo_the_readme_describes() -> None:
    running.catch_up_all()
    described = demo_state()

    running.catch_up_all(now=timezone.now() + timedelta(hours=1))

    assert demo_state() == described
