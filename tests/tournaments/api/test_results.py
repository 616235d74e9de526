"""The standings and the bracket, as the tournament consumer projects them."""

from rest_framework.test import APIClient

from tests.factories.tournaments import ApiTournamentFactory
from tests.tournaments.api.builders import (
    home_wins,
    matches,
    play_round,
    register_seeded,
    started_tournament,
    tournament_url,
    win,
)
from tournaments.projections import consumer

STANDING_FIELDS = {
    "rank",
    "entrant",
    "name",
    "match_points",
    "played",
    "won",
    "tied",
    "lost",
    "rounds_won",
    "rounds_lost",
    "points_for",
    "points_against",
    "tiebreaks",
}


def standings(client: APIClient, tournament_id: str) -> list[dict[str, object]]:
    response = client.get(tournament_url(tournament_id, "standings"))
    assert response.status_code == 200
    rows: list[dict[str, object]] = response.json()
    return rows


def test_the_standings_are_empty_before_the_start(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, format="round_robin")["id"]
    register_seeded(organizer, tournament_id, 3)
    consumer.consume()

    assert standings(anonymous, tournament_id) == []


def test_the_standings_rank_entrants_by_match_points_with_their_tiebreaks(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, (first, second, third) = started_tournament(
        organizer, 3, format="round_robin", tiebreaks=["match_points", "card_points_difference"]
    )
    for match in matches(organizer, tournament_id):
        win(organizer, match, min(match["entrants"]))
    consumer.consume()

    rows = standings(anonymous, tournament_id)

    assert [set(row) for row in rows] == [STANDING_FIELDS] * 3
    assert [(row["rank"], row["entrant"], row["name"]) for row in rows] == [
        (1, first, "Player 1"),
        (2, second, "Player 2"),
        (3, third, "Player 3"),
    ]
    top = rows[0]
    assert (top["played"], top["won"], top["tied"], top["lost"]) == (2, 2, 0, 0)
    assert (top["match_points"], top["rounds_won"], top["rounds_lost"]) == (4, 2, 0)
    assert (top["points_for"], top["points_against"]) == (160, 80)
    assert top["tiebreaks"] == {"match_points": 4, "card_points_difference": 80}


def test_the_standings_follow_the_results_once_the_consumer_has_read_them(
    organizer: APIClient,
) -> None:
    tournament_id, (first, second) = started_tournament(organizer, 2, format="round_robin")
    consumer.consume()
    (match,) = matches(organizer, tournament_id)
    win(organizer, match, second)

    before = standings(organizer, tournament_id)
    consumer.consume()
    after = standings(organizer, tournament_id)

    assert [row["won"] for row in before] == [0, 0]
    assert [(row["entrant"], row["won"]) for row in after] == [(second, 1), (first, 0)]


def test_a_new_tournament_has_a_bracket_without_stages(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = anonymous.get(tournament_url(tournament_id, "bracket"))

    assert response.status_code == 200
    assert response.json() == {
        "format": "single_elimination",
        "status": "registration",
        "stages": [],
        "placements": [],
        "entrants": {},
        "champion": None,
        "champion_name": None,
    }


def test_the_bracket_shows_unknown_entrants_as_null_and_where_winners_and_losers_go(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, (first, second, third, fourth) = started_tournament(
        organizer, 4, third_place=True
    )
    consumer.consume()

    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()

    assert (bracket["format"], bracket["status"], bracket["champion"]) == (
        "single_elimination",
        "in_progress",
        None,
    )
    assert bracket["entrants"] == {
        str(first): "Player 1",
        str(second): "Player 2",
        str(third): "Player 3",
        str(fourth): "Player 4",
    }
    (stage,) = bracket["stages"]
    assert (stage["name"], stage["kind"], stage["complete"]) == (
        "bracket",
        "single_elimination",
        False,
    )
    rounds = {(r["section"], r["number"]): r for r in stage["rounds"]}
    assert set(rounds) == {("main", 1), ("main", 2), ("third_place", 1)}
    semis, final = rounds["main", 1], rounds["main", 2]
    assert [m["entrants"] for m in semis["matches"]] == [[first, fourth], [second, third]]
    assert [m["entrant_names"] for m in semis["matches"]] == [
        ["Player 1", "Player 4"],
        ["Player 2", "Player 3"],
    ]
    assert semis["matches"][0]["winner_to"] == {"key": "R2-1", "side": "home"}
    assert semis["matches"][0]["loser_to"] == {"key": "3P", "side": "home"}
    assert all(m["match_id"] is not None for m in semis["matches"])
    (decider,) = final["matches"]
    assert (decider["entrants"], decider["match_id"], decider["status"]) == (
        [None, None],
        None,
        "pending",
    )
    assert (decider["entrant_names"], decider["winner_name"]) == ([None, None], None)
    assert (decider["winner_to"], decider["loser_to"]) == (None, None)
    (playoff,) = rounds["third_place", 1]["matches"]
    assert (playoff["key"], playoff["entrants"]) == ("3P", [None, None])


def test_the_bracket_names_the_champion_and_the_places(organizer: APIClient) -> None:
    tournament_id, (first, second, *_) = started_tournament(organizer, 4)
    play_round(organizer, tournament_id, home_wins)
    play_round(organizer, tournament_id, home_wins)

    bracket = organizer.get(tournament_url(tournament_id, "bracket")).json()

    assert (bracket["status"], bracket["champion"]) == ("finished", first)
    assert bracket["champion_name"] == "Player 1"
    assert bracket["placements"][:2] == [
        {"entrant": first, "name": "Player 1", "place": 1},
        {"entrant": second, "name": "Player 2", "place": 2},
    ]
    final = bracket["stages"][0]["rounds"][1]["matches"][0]
    assert (final["winner"], final["winner_name"]) == (first, "Player 1")
    assert bracket["stages"][0]["complete"] is True


def test_a_finished_league_is_won_by_the_entrant_ranked_first(organizer: APIClient) -> None:
    tournament_id, entrant_ids = started_tournament(organizer, 3, format="round_robin")
    for match in matches(organizer, tournament_id):
        win(organizer, match, min(match["entrants"]))
    consumer.consume()

    bracket = organizer.get(tournament_url(tournament_id, "bracket")).json()

    assert (bracket["status"], bracket["champion"]) == ("finished", entrant_ids[0])
    (league,) = bracket["stages"]
    assert (league["kind"], league["complete"]) == ("round_robin", True)
    # Three entrants: each sits one round out.
    assert sorted(r["bye"] for r in league["rounds"]) == entrant_ids
    assert sorted(r["bye_name"] for r in league["rounds"]) == ["Player 1", "Player 2", "Player 3"]
