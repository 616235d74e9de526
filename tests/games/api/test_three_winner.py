"""The variant option `three_winner` through the matches API (decision record 0031)."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.eventstore.models import Event
from tests.factories.api import API
from tests.factories.matches import TWO_SIDES, ApiMatchFactory
from tests.games.api.builders import match_url, post, score_round

THREE_SIDES = [{"name": name} for name in ("Rossi", "Bianchi", "Verdi")]
AT_LEAST_61 = {"three_winner": "at_least_61"}


def create_three(client: APIClient, **fields: Any) -> dict[str, Any]:
    return ApiMatchFactory.create(
        client=client, table_size=3, sides=THREE_SIDES, variant=AT_LEAST_61, **fields
    )


def test_a_round_at_three_where_nobody_reaches_61_has_no_winner_and_is_replayed(
    scorer: APIClient,
) -> None:
    match = create_three(scorer, best_of=1)

    short = score_round(scorer, match["id"], 50, 40, 30)
    after_short = scorer.get(match_url(match["id"])).json()
    won = score_round(scorer, match["id"], 61, 30, 29)
    finished = scorer.get(match_url(match["id"])).json()

    assert match["variant"]["three_winner"] == "at_least_61"
    assert short["result"] == "tie"
    assert (after_short["status"], after_short["round_wins"]) == ("in_progress", [0, 0, 0])
    assert (won["number"], won["replay_of"], won["result"]) == (2, 1, "side0")
    assert (finished["status"], finished["winner"], finished["round_wins"]) == (
        "finished",
        "side0",
        [1, 0, 0],
    )


def test_the_same_points_under_the_default_rule_give_the_round_to_the_most_points(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, table_size=3, sides=THREE_SIDES, best_of=1)

    scored = score_round(scorer, match["id"], 50, 40, 30)
    finished = scorer.get(match_url(match["id"])).json()

    assert "three_winner" not in match["variant"]
    assert scored["result"] == "side0"
    assert (finished["status"], finished["winner"]) == ("finished", "side0")


def test_under_points_scoring_a_round_without_a_winner_counts_with_no_winner(
    scorer: APIClient,
) -> None:
    match = create_three(scorer, scoring="points", rounds=2)

    short = score_round(scorer, match["id"], 50, 40, 30)
    score_round(scorer, match["id"], 20, 61, 39)
    finished = scorer.get(match_url(match["id"])).json()

    assert short["result"] == "tie"
    assert finished["status"] == "finished"
    assert finished["round_wins"] == [0, 1, 0]
    assert finished["total_points"] == [70, 101, 69]
    assert finished["winner"] == "side1"
    assert [r["replay_of"] for r in finished["rounds"]] == [None, None]


def test_a_match_created_with_the_default_rule_records_the_variant_as_before(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, table_size=3, sides=THREE_SIDES)
    explicit = ApiMatchFactory.create(
        client=scorer, table_size=3, sides=THREE_SIDES, variant={"three_winner": "most_points"}
    )

    recorded = [
        Event.objects.get(stream_id=created["id"], event_type="MatchCreated").payload["variant"]
        for created in (match, explicit)
    ]

    assert (
        recorded[0]
        == recorded[1]
        == {
            "hand_size": 3,
            "three_ranks_as_three": False,
            "removed_card_for_three": "2B",
            "deck_names": "italian",
        }
    )


@pytest.mark.parametrize("table_size", [2, 4])
def test_the_at_least_61_rule_outside_a_table_of_three_is_422_invalid_variant(
    scorer: APIClient, table_size: int
) -> None:
    before = scorer.get(f"{API}/matches/").json()

    response = post(
        scorer,
        f"{API}/matches/",
        {"table_size": table_size, "sides": TWO_SIDES, "variant": AT_LEAST_61},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_variant"
    assert "three_winner" in response.json()["detail"]
    assert scorer.get(f"{API}/matches/").json() == before


def test_an_unknown_rule_is_422_invalid_variant(scorer: APIClient) -> None:
    response = post(
        scorer,
        f"{API}/matches/",
        {"table_size": 3, "sides": THREE_SIDES, "variant": {"three_winner": "at_least_60"}},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_variant"
