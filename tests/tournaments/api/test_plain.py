"""The standings and the bracket are answered by `represent`, which walks their serializers'
fields without a serializer's cost, and the match list by `match_document`: on every format, at
two-sided tables and at tables of three, part played and played out, called, overdue and
decided off the table, their answer is the serializer's, value for value."""

from typing import Any
from uuid import UUID

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from common.api.serializing import represent
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import (
    home_wins,
    level_knockout_match,
    matches,
    play_round,
    started_tournament,
    tournament_url,
)
from tests.tournaments.api.threes import create, play_out, register
from tournaments.api.results import BracketOutput, StandingOutput
from tournaments.api.serializers import TournamentMatchOutput, match_document
from tournaments.projections import consumer
from tournaments.selectors import fixtures as fixtures_selectors
from tournaments.selectors import projected
from tournaments.services import scheduling
from tournaments.tasks import running
from tournaments.tasks.running import SCHEDULER

FORMATS: list[dict[str, Any]] = [
    {"format": "single_elimination", "third_place": True},
    {"format": "double_elimination"},
    {"format": "round_robin"},
    {"format": "swiss"},
    {"format": "groups_then_knockout", "group_size": 3, "advance_per_group": 1},
]


def assert_same_as_the_serializers(tournament_id: Any) -> None:
    standings = projected.tournament_standings(tournament_id=tournament_id)
    bracket = projected.tournament_bracket(tournament_id=tournament_id)

    assert represent(StandingOutput, standings) == StandingOutput(standings, many=True).data
    assert represent(BracketOutput, bracket) == BracketOutput(bracket).data


@pytest.mark.parametrize("options", FORMATS, ids=[o["format"] for o in FORMATS])
def test_two_sided_tables_part_played_and_played_out(
    organizer: APIClient, options: dict[str, Any]
) -> None:
    tournament_id, _ = started_tournament(organizer, 6, **options)
    assert_same_as_the_serializers(tournament_id)
    consumer.consume()
    assert_same_as_the_serializers(tournament_id)

    for _ in range(30):
        if not play_round(organizer, tournament_id, home_wins):
            break
        assert_same_as_the_serializers(tournament_id)


@pytest.mark.parametrize("format", ["round_robin", "swiss", "single_elimination"])
def test_tables_of_three_played_out(
    organizer: APIClient, anonymous: APIClient, format: str
) -> None:
    tournament_id = create(organizer, format)
    seeds = register(organizer, tournament_id, 7)
    created(post(organizer, tournament_url(tournament_id, "start")))

    play_out(organizer, anonymous, tournament_id, list(seeds.values()))

    assert_same_as_the_serializers(tournament_id)


def test_a_tournament_not_started_has_an_empty_bracket_in_the_same_shape(
    organizer: APIClient,
) -> None:
    tournament_id = created(
        post(organizer, "/api/v1/tournaments/", {"name": "C", "format": "swiss", "table_size": 2})
    )["id"]

    assert_same_as_the_serializers(tournament_id)


def assert_matches_same_as_the_serializers(tournament_id: Any) -> None:
    now = timezone.now()
    page = fixtures_selectors.tournament_fixture_page(tournament_id=tournament_id, limit=500)
    fixtures = fixtures_selectors.tournament_fixtures(tournament_id=tournament_id)

    documents = [match_document(row, now) for row in page.rows]

    serialized: Any = TournamentMatchOutput(fixtures, many=True).data
    assert documents == serialized
    assert documents


def test_the_match_list_writes_each_match_as_its_serializer_does(
    organizer: APIClient, anonymous: APIClient
) -> None:
    played, _ = started_tournament(organizer, 5, format="single_elimination", third_place=True)
    play_round(organizer, played, home_wins)
    called, _ = started_tournament(organizer, 2, no_show_minutes=0)
    scheduling.fixture_schedule(tournament_id=UUID(called), actor=SCHEDULER)
    (match,) = matches(anonymous, called)
    created(post(organizer, tournament_url(called, "matches", match["id"], "call")))
    running.catch_up_all()
    level, final = level_knockout_match(organizer)
    decide = tournament_url(level, "matches", final["id"], "decide")
    created(post(organizer, decide, {"winner": final["entrants"][1], "reason": "sorteggio"}))
    consumer.consume()
    threes = create(organizer, "swiss")
    seeds = register(organizer, threes, 7)
    created(post(organizer, tournament_url(threes, "start")))
    play_out(organizer, anonymous, threes, list(seeds.values()))

    for tournament_id in (played, called, level, threes):
        assert_matches_same_as_the_serializers(tournament_id)
    assert matches(anonymous, called)[0]["overdue"] is True
    assert matches(anonymous, level)[0]["decided_by"] == "organizer"
