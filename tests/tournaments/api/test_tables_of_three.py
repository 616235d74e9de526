"""Tournaments at tables of three (decision record 0031), played through the API only, the
consumer standing in for the worker: round robin, Swiss, single elimination and groups then
knockout, with placings in the matches and the standings."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.games.api.builders import created, match_url, post, round_url
from tests.tournaments.api.builders import matches, tournament_url
from tests.tournaments.api.threes import create, play_out, register
from tournaments.models import Fixture
from tournaments.projections import consumer


def test_a_tournament_at_tables_of_three_is_accepted_and_shows_its_match_points_per_place(
    organizer: APIClient,
) -> None:
    tournament = created(
        post(
            organizer,
            f"{API}/tournaments/",
            {
                "name": "Tre",
                "format": "swiss",
                "table_size": 3,
                "placing_scoring": {"places": [3, 1, 0], "bye": 3, "forfeit": 0},
            },
        )
    )

    assert tournament["table_size"] == 3
    assert tournament["placing_scoring"] == {"places": [3, 1, 0], "bye": 3, "forfeit": 0}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"format": "double_elimination"}, "invalid_tournament"),
        ({"format": "swiss", "placing_scoring": {"places": [0, 1, 2]}}, "invalid_standings_config"),
        ({"format": "swiss", "tiebreaks": ["buchholz"]}, "unknown_tiebreak"),
    ],
)
def test_a_tournament_at_tables_of_three_refuses_what_three_sides_cannot_use(
    organizer: APIClient, body: dict[str, Any], code: str
) -> None:
    response = post(organizer, f"{API}/tournaments/", {"name": "Tre", "table_size": 3, **body})

    assert response.status_code == 422
    assert response.json()["code"] == code


def test_match_points_per_place_are_refused_at_two_sided_tables(organizer: APIClient) -> None:
    response = post(
        organizer,
        f"{API}/tournaments/",
        {"name": "Due", "format": "swiss", "table_size": 2, "placing_scoring": {"bye": 1}},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_standings_config"


def test_a_round_robin_of_six_at_tables_of_three_plays_two_tables_a_round_to_its_standings(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "round_robin")
    ids = register(organizer, tournament_id, 6)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()

    first_round = matches(anonymous, tournament_id, round=1)
    assert [len(m["entrants"]) for m in first_round] == [3, 3]
    assert sorted(e for m in first_round for e in m["entrants"]) == sorted(ids.values())

    ranking = [ids[seed] for seed in range(1, 7)]
    finished = play_out(organizer, anonymous, tournament_id, ranking)

    assert finished["status"] == "finished"
    played = matches(anonymous, tournament_id)
    assert len(played) == 6  # three rounds of two tables: everyone meets everyone
    for match in played:
        best = min(match["entrants"], key=ranking.index)
        assert match["winner"] == best
        assert match["places"] == [
            1 + sorted(match["entrants"], key=ranking.index).index(e) for e in match["entrants"]
        ]
    standings = anonymous.get(tournament_url(tournament_id, "standings")).json()
    assert standings[0]["entrant"] == ids[1]
    assert standings[0]["placings"] == [3, 0, 0]
    assert standings[0]["match_points"] == 6
    assert sum(row["match_points"] for row in standings) == 6 * 3  # 3 points a table


def test_a_swiss_of_seven_at_tables_of_three_gives_one_bye_a_round_and_pairs_every_round(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "swiss", swiss_rounds=3)
    ids = register(organizer, tournament_id, 7)
    created(post(organizer, tournament_url(tournament_id, "start")))

    ranking = [ids[seed] for seed in range(1, 8)]
    finished = play_out(organizer, anonymous, tournament_id, ranking)

    assert finished["status"] == "finished"
    played = matches(anonymous, tournament_id)
    by_round: dict[int, list[dict[str, Any]]] = {}
    for match in played:
        by_round.setdefault(match["round"], []).append(match)
    assert sorted(by_round) == [1, 2, 3]
    for tables in by_round.values():
        assert sorted(len(m["entrants"]) for m in tables) == [3, 3]  # and one bye
    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()
    byes = [r["bye"] for r in bracket["stages"][0]["rounds"]]
    assert len(set(byes)) == 3  # never twice the same entrant
    standings = anonymous.get(tournament_url(tournament_id, "standings")).json()
    assert standings[0]["entrant"] == ids[1]
    assert sum(row["byes"] for row in standings) == 3


def test_a_single_elimination_of_five_at_tables_of_three_crowns_the_winner_of_the_final_table(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "single_elimination", best_of=1)
    ids = register(organizer, tournament_id, 5)
    created(post(organizer, tournament_url(tournament_id, "start")))
    # The weakest seed wins every table it sits at: the bracket follows the winners.
    ranking = [ids[seed] for seed in (5, 4, 3, 2, 1)]

    finished = play_out(organizer, anonymous, tournament_id, ranking)

    assert finished["status"] == "finished"
    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()
    assert bracket["champion"] == ids[5]
    (stage,) = bracket["stages"]
    assert stage["kind"] == "threes_knockout"
    final = stage["rounds"][-1]["matches"][0]
    assert final["winner"] == ids[5]
    assert len(final["entrants"]) == 3
    places = {p["entrant"]: p["place"] for p in bracket["placements"]}
    assert places[ids[5]] == 1
    assert sorted(places.values()) == [1, 2, 3, 4, 4]


def test_groups_then_knockout_at_tables_of_three_sends_each_group_top_to_the_final_table(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(
        organizer, "groups_then_knockout", group_size=3, advance_per_group=1, best_of=1
    )
    ids = register(organizer, tournament_id, 9)
    created(post(organizer, tournament_url(tournament_id, "start")))
    ranking = [ids[seed] for seed in range(1, 10)]

    finished = play_out(organizer, anonymous, tournament_id, ranking)

    assert finished["status"] == "finished"
    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()
    names = [stage["name"] for stage in bracket["stages"]]
    assert names == ["A", "B", "C", "knockout"]
    final = bracket["stages"][-1]["rounds"][-1]["matches"][0]
    assert sorted(final["entrants"]) == sorted([ids[1], ids[2], ids[3]])
    assert bracket["champion"] == ids[1]


def test_a_field_of_five_at_tables_of_three_seats_a_table_of_two_as_a_two_player_match(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "round_robin", best_of=1)
    register(organizer, tournament_id, 5)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()

    first_round = matches(anonymous, tournament_id, round=1)

    assert sorted(len(m["entrants"]) for m in first_round) == [2, 3]
    two = next(m for m in first_round if len(m["entrants"]) == 2)
    assert anonymous.get(match_url(two["id"])).json()["table_size"] == 2
    assert Fixture.objects.get(match_id=two["id"]).third_id is None


def test_a_tournament_at_tables_of_three_needs_three_entrants_to_start(
    organizer: APIClient,
) -> None:
    tournament_id = create(organizer, "swiss")
    register(organizer, tournament_id, 2)

    response = post(organizer, tournament_url(tournament_id, "start"))

    assert response.status_code == 422
    assert response.json()["code"] == "too_few_entrants"


def test_an_entrant_who_withdraws_forfeits_its_table_and_is_placed_last(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "swiss", swiss_rounds=2)
    ids = register(organizer, tournament_id, 6)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()
    table = matches(anonymous, tournament_id, round=1)[0]
    leaving = table["entrants"][1]

    response = post(
        organizer,
        tournament_url(tournament_id, f"entrants/{leaving}/withdraw"),
        {"reason": "ill"},
    )
    assert response.status_code == 201, response.json()
    consumer.consume()

    forfeited = next(m for m in matches(anonymous, tournament_id) if m["id"] == table["id"])
    assert forfeited["status"] == "finished"
    assert forfeited["places"][1] == 3
    assert sorted(forfeited["places"]) == [1, 1, 3]  # the other two had not played a round
    assert set(ids.values()) >= set(forfeited["entrants"])


def test_the_organizer_decides_a_level_knockout_table_between_those_who_shared_first(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(
        organizer, "single_elimination", scoring="points", rounds=1, level_knockout="organizer"
    )
    register(organizer, tournament_id, 3)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()
    (final,) = matches(anonymous, tournament_id)
    number = created(post(organizer, match_url(final["id"], "rounds"), {"briscola": None}))[
        "number"
    ]
    created(post(organizer, round_url(final["id"], number, "score"), {"points": [50, 50, 20]}))
    consumer.consume()
    decide_url = tournament_url(tournament_id, f"matches/{final['id']}/decide")

    third = post(organizer, decide_url, {"winner": final["entrants"][2], "reason": "lot"})
    second = post(organizer, decide_url, {"winner": final["entrants"][1], "reason": "lot"})

    assert third.status_code == 422
    assert third.json()["code"] == "match_not_level"
    assert second.status_code == 201, second.json()
    consumer.consume()
    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()
    assert bracket["champion"] == final["entrants"][1]


def test_a_tournament_at_three_may_ask_for_61_to_win_a_round_and_its_tables_of_two_play_on(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = create(organizer, "round_robin", variant={"three_winner": "at_least_61"})
    register(organizer, tournament_id, 5)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()
    first_round = matches(anonymous, tournament_id, round=1)
    three = next(m for m in first_round if len(m["entrants"]) == 3)
    two = next(m for m in first_round if len(m["entrants"]) == 2)

    number = created(post(organizer, match_url(three["id"], "rounds"), {"briscola": None}))[
        "number"
    ]
    scored = created(
        post(organizer, round_url(three["id"], number, "score"), {"points": [50, 40, 30]})
    )

    assert scored["result"] == "tie"  # nobody reached 61: played again
    assert anonymous.get(match_url(three["id"])).json()["variant"]["three_winner"] == "at_least_61"
    assert "three_winner" not in (anonymous.get(match_url(two["id"])).json()["variant"] or {})
