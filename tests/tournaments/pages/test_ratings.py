"""The rating pages served (Django's test client): the leaderboard, the chart on a player's
page and the rating changes on a match page; test_ratings_browser.py opens them in a browser."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories.accounts import ClubFactory
from tests.factories.ratings import club_tournament, live, play_all
from tournaments.models import Player, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_slug() -> str:
    club = ClubFactory.create(name="Circolo Rating", slug="circolo-rating")
    play_all(club_tournament(club=club))
    return club.slug


def test_the_leaderboard_lists_the_players_best_first(club_slug: str) -> None:
    page = Client().get(f"/clubs/{club_slug}/ratings/?min_matches=3").content.decode()

    assert 'data-leaderboard="circolo-rating"' in page
    names = re.findall(r'<th scope="row"><a href="/players/\d+/"><bdi>([^<]+)</bdi></a>', page)
    assert names == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_the_leaderboard_says_so_when_nobody_has_enough_matches(club_slug: str) -> None:
    page = Client().get(f"/clubs/{club_slug}/ratings/").content.decode()

    assert "data-leaderboard-empty" in page
    assert 'value="5"' in page


def test_an_unknown_club_has_no_leaderboard() -> None:
    assert Client().get("/clubs/nowhere/ratings/").status_code == 404


def test_a_players_page_draws_a_chart_per_scope(club_slug: str) -> None:
    player = Player.objects.get(name="Player 2")

    page = Client().get(f"/players/{player.id}/").content.decode()

    assert 'data-rating-chart="overall"' in page
    assert f'data-rating-chart="{club_slug}"' in page
    [points, *_] = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(points.split()) == 4  # the rating before the first match, then after each
    assert "<title" in page


@pytest.mark.usefixtures("club_slug")
def test_the_chart_in_italian_keeps_its_coordinates_in_svg_and_writes_its_labels_in_italian() -> (
    None
):
    player = Player.objects.get(name="Player 2")

    page = Client(headers={"accept-language": "it"}).get(f"/players/{player.id}/").content.decode()

    ticks = re.findall(r'<text class="tick" x="([^"]+)" y="([^"]+)"[^>]*>([^<]+)</text>', page)
    assert ticks
    for x, y, _ in ticks:
        assert re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", x), x
        assert re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", y), y
    labels = [label for _, _, label in ticks if "," in label or "." in label]
    assert labels
    assert all("," in label and "." not in label for label in labels)


def test_a_match_page_shows_each_players_rating_change(club_slug: str) -> None:
    fixture = live(Player.objects.get(name="Player 1").entries.get().tournament)[0]
    changes = RatingChange.objects.filter(match_id=fixture.match_id, club__slug=club_slug)

    page = Client().get(f"/matches/{fixture.match_id}/").content.decode()

    assert page.count("data-rating-change=") == 2
    for change in changes:
        assert f'data-rating-change="{change.player_id}"' in page
        delta = change.rating_after - change.rating_before
        assert f"{'+' if delta >= 0 else ''}{delta:.2f}" in page
