"""The standings and the bracket are answered by `represent`, which walks their serializers'
fields without a serializer's cost: on every format, at two-sided tables and at tables of three,
part played and played out, its answer is the serializer's, value for value."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.api.builders import created, post
from tests.tournaments.api.builders import home_wins, play_round, started_tournament, tournament_url
from tests.tournaments.api.test_tables_of_three import create, play_out, register
from tournaments import projections, selectors
from tournaments.api.plain import represent
from tournaments.api.results import BracketOutput, StandingOutput

FORMATS: list[dict[str, Any]] = [
    {"format": "single_elimination", "third_place": True},
    {"format": "double_elimination"},
    {"format": "round_robin"},
    {"format": "swiss"},
    {"format": "groups_then_knockout", "group_size": 3, "advance_per_group": 1},
]


def assert_same_as_the_serializers(tournament_id: Any) -> None:
    standings = selectors.tournament_standings(tournament_id=tournament_id)
    bracket = selectors.tournament_bracket(tournament_id=tournament_id)

    assert represent(StandingOutput, standings) == StandingOutput(standings, many=True).data
    assert represent(BracketOutput, bracket) == BracketOutput(bracket).data


@pytest.mark.parametrize("options", FORMATS, ids=[o["format"] for o in FORMATS])
def test_two_sided_tables_part_played_and_played_out(
    organizer: APIClient, options: dict[str, Any]
) -> None:
    tournament_id, _ = started_tournament(organizer, 6, **options)
    assert_same_as_the_serializers(tournament_id)
    projections.consume()
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
