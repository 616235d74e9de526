"""A knockout match that ends level, through the API (decision record 0029)."""

from typing import Any

from rest_framework.test import APIClient

from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import match_url, post, score_round
from tests.tournaments.api.builders import (
    level_knockout_match,
    matches,
    started_tournament,
    tournament_url,
)
from tournaments.projections import consumer


def decide_url(tournament_id: str, match_id: str) -> str:
    return tournament_url(tournament_id, "matches", match_id, "decide")


def test_a_tournament_plays_a_deciding_round_by_default_and_says_its_rule(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 2, scoring="points", rounds=1)
    assert organizer.get(tournament_url(tournament_id)).json()["level_knockout"] == (
        "deciding_round"
    )
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 60, 60)
    score_round(organizer, match["id"], 60, 60)

    level = organizer.get(match_url(match["id"])).json()
    assert (level["status"], level["decider"], level["deciding_round_due"]) == (
        "in_progress",
        "round",
        True,
    )
    score_round(organizer, match["id"], 40, 80)
    consumer.consume()
    [final] = matches(organizer, tournament_id)
    assert final["status"] == "finished"
    assert final["winner"] == final["entrants"][1]
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "finished"


def test_under_the_higher_seed_rule_the_first_seed_goes_through_a_level_final(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = started_tournament(
        organizer, 2, scoring="points", rounds=1, level_knockout="higher_seed"
    )
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 60, 60)
    consumer.consume()

    [final] = matches(organizer, tournament_id)
    assert final["winner"] == entrants[0]
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "finished"


def test_the_organizer_decides_a_level_final_with_a_reason(organizer: APIClient) -> None:
    tournament_id, match = level_knockout_match(organizer)
    assert match["winner"] is None

    response = post(
        organizer,
        decide_url(tournament_id, match["id"]),
        {"winner": match["entrants"][1], "reason": "sorteggio"},
    )

    assert response.status_code == 201, response.json()
    assert response.json()["winner"] == match["entrants"][1]
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "finished"
    again = post(
        organizer,
        decide_url(tournament_id, match["id"]),
        {"winner": match["entrants"][0], "reason": "ripensamento"},
    )
    assert again.status_code == 422
    assert again.json()["code"] == "match_not_level"


def test_a_decision_without_a_reason_is_refused(organizer: APIClient) -> None:
    tournament_id, match = level_knockout_match(organizer)

    response = post(
        organizer, decide_url(tournament_id, match["id"]), {"winner": match["entrants"][0]}
    )

    assert response.status_code == 400


def test_an_unknown_rule_is_refused_when_the_tournament_is_created(organizer: APIClient) -> None:
    response = post(
        organizer,
        tournament_url("x").replace("/x/", "/"),
        {"name": "C", "format": "single_elimination", "table_size": 2, "level_knockout": "dadi"},
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
    assert ApiTournamentFactory.create(client=organizer, level_knockout="organizer")[
        "level_knockout"
    ] == ("organizer")


# How the winner was decided, readable (issue 12 §2).


def bracket_match(client: APIClient, tournament_id: str) -> dict[str, Any]:
    [stage] = client.get(tournament_url(tournament_id, "bracket")).json()["stages"]
    [final] = stage["rounds"][-1]["matches"]
    found: dict[str, Any] = final
    return found


def test_a_final_won_by_the_higher_seed_says_so_in_the_match_the_bracket_and_the_page(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = started_tournament(
        organizer, 2, scoring="points", rounds=1, level_knockout="higher_seed"
    )
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 60, 60)
    consumer.consume()

    [final] = matches(organizer, tournament_id)
    assert (final["winner"], final["decided_by"]) == (entrants[0], "higher_seed")
    assert bracket_match(organizer, tournament_id)["decided_by"] == "higher_seed"
    page = organizer.get(f"/tournaments/{tournament_id}/").content.decode()
    assert "decided by the higher seed" in page


def test_a_final_decided_by_the_organizer_says_so_but_not_the_reason(
    organizer: APIClient,
) -> None:
    tournament_id, match = level_knockout_match(organizer)
    assert match["decided_by"] is None
    post(
        organizer,
        decide_url(tournament_id, match["id"]),
        {"winner": match["entrants"][1], "reason": "sorteggio"},
    )
    consumer.consume()

    [final] = matches(organizer, tournament_id)
    assert final["decided_by"] == "organizer"
    assert "sorteggio" not in str(final)
    assert bracket_match(organizer, tournament_id)["decided_by"] == "organizer"
    page = organizer.get(f"/tournaments/{tournament_id}/").content.decode()
    assert "organizer&#x27;s decision" in page or "organizer's decision" in page


def test_a_match_won_at_the_table_was_decided_by_nobody(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 2, scoring="points", rounds=1)
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 80, 40)
    consumer.consume()

    [final] = matches(organizer, tournament_id)
    assert final["winner"] is not None
    assert final["decided_by"] is None
    assert bracket_match(organizer, tournament_id)["decided_by"] is None


# The match page and answer say how a level match was settled (issue 24 §1, decision 0045).


def test_a_final_won_by_a_deciding_round_says_so_in_the_match_answer_and_its_page(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 2, scoring="points", rounds=1)
    [match] = matches(organizer, tournament_id)
    for points in ((60, 60), (60, 60), (40, 80)):
        score_round(organizer, match["id"], *points)

    answer = organizer.get(match_url(match["id"])).json()
    page = organizer.get(f"/matches/{match['id']}/").content.decode()

    assert (answer["decided_by"], answer["deciding_round"]) == ("deciding_round", 3)
    assert (answer["regulation_points"], answer["total_points"]) == ([60, 60], [160, 200])
    assert "Level after 1 round, 60\N{EN DASH}60: decided by a deciding round, " in page
    assert "40\N{EN DASH}80 (round 3)." in page


def test_the_match_page_of_a_level_final_names_the_winner_decided_off_the_table(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = started_tournament(
        organizer, 2, scoring="points", rounds=1, level_knockout="higher_seed"
    )
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 60, 60)
    consumer.consume()
    [final] = matches(organizer, tournament_id)
    winner = final["entrant_names"][final["entrants"].index(entrants[0])]

    page = organizer.get(f"/matches/{match['id']}/").content.decode()
    italian = organizer.get(f"/matches/{match['id']}/", HTTP_ACCEPT_LANGUAGE="it").content
    answer = organizer.get(match_url(match["id"])).json()

    assert "Level after 1 round, 60\N{EN DASH}60: the match ended without a winner at the" in page
    assert f"{winner} won the match off the table: decided by the higher seed." in page
    assert 'data-decided-by="higher_seed"' in page
    assert f"{winner} ha vinto l&#x27;incontro fuori dal tavolo".encode() in italian
    assert (answer["winner"], answer["decided_by"]) == (None, None)


def test_the_match_page_of_an_organizers_decision_keeps_the_reason_to_the_log(
    organizer: APIClient,
) -> None:
    tournament_id, match = level_knockout_match(organizer)
    post(
        organizer,
        decide_url(tournament_id, match["id"]),
        {"winner": match["entrants"][1], "reason": "sorteggio"},
    )
    consumer.consume()

    page = organizer.get(f"/matches/{match['id']}/").content.decode()

    assert f"{match['entrant_names'][1]} won the match off the table: organizer" in page
    assert "sorteggio" not in page


def test_an_organizers_ruling_on_a_round_changes_who_goes_through(organizer: APIClient) -> None:
    tournament_id, entrants = started_tournament(organizer, 2, scoring="points", rounds=1)
    [match] = matches(organizer, tournament_id)
    score_round(organizer, match["id"], 80, 40)
    consumer.consume()
    assert matches(organizer, tournament_id)[0]["winner"] == match["entrants"][0]

    ruled = post(
        organizer,
        f"/api/v1/matches/{match['id']}/rounds/1/rule/",
        {"points": [40, 80], "reason": "the score sheet was filled in the wrong way round"},
    )
    consumer.consume()

    assert ruled.status_code == 201, ruled.json()
    [final] = matches(organizer, tournament_id)
    assert (final["winner"], final["decided_by"]) == (match["entrants"][1], None)
    assert set(entrants) == set(final["entrants"])
