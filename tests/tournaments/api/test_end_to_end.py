"""A whole tournament played through the API only, the consumer standing in for the worker."""

from typing import Any

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.games.api.builders import created, match_url, post, round_url
from tests.tournaments.api.builders import matches, tournament_url
from tournaments.projections import consumer


def play_match(client: APIClient, match: dict[str, Any], winner: int, *, dropped: int) -> int:
    """Enter the match's rounds by their points until it is over: `winner` takes the match,
    after losing the first `dropped` rounds. Returns the rounds played."""
    winner_side = match["entrants"].index(winner)
    number = 0
    while client.get(match_url(match["id"])).json()["status"] != "finished":
        number = created(post(client, match_url(match["id"], "rounds"), {"briscola": None}))[
            "number"
        ]
        side = 1 - winner_side if number <= dropped else winner_side
        points = [90, 30] if side == 0 else [30, 90]
        created(post(client, round_url(match["id"], number, "score"), {"points": points}))
    return number


def test_a_single_elimination_of_four_is_played_to_its_champion_through_the_api(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament = created(
        post(
            organizer,
            f"{API}/tournaments/",
            {
                "name": "Torneo di primavera",
                "format": "single_elimination",
                "table_size": 2,
                "best_of": 3,
            },
        )
    )
    tournament_id = tournament["id"]
    ids = {
        seed: created(
            post(
                organizer,
                tournament_url(tournament_id, "entrants"),
                {"name": name, "players": [name], "seed": seed},
            )
        )["id"]
        for seed, name in enumerate(["Rossi", "Bianchi", "Verdi", "Neri"], start=1)
    }
    started = created(post(organizer, tournament_url(tournament_id, "start")))
    assert started["status"] == "in_progress"
    consumer.consume()

    rounds_played = []
    while ready := matches(anonymous, tournament_id, status="ready"):
        for match in ready:
            # The better seed (the lower id) wins; the first semifinal goes to three rounds.
            favourite = min(match["entrants"])
            dropped = 1 if match["key"] == "R1-1" else 0
            rounds_played.append(play_match(organizer, match, favourite, dropped=dropped))
        consumer.consume()

    assert rounds_played == [3, 2, 2]
    assert anonymous.get(tournament_url(tournament_id)).json()["status"] == "finished"
    listed = matches(anonymous, tournament_id)
    assert [(m["key"], m["status"], m["winner"]) for m in listed] == [
        ("R1-1", "finished", ids[1]),
        ("R1-2", "finished", ids[2]),
        ("R2-1", "finished", ids[1]),
    ]
    bracket = anonymous.get(tournament_url(tournament_id, "bracket")).json()
    assert (bracket["status"], bracket["champion"]) == ("finished", ids[1])
    (stage,) = bracket["stages"]
    assert stage["complete"] is True
    (final,) = stage["rounds"][-1]["matches"]
    assert (final["entrants"], final["winner"]) == ([ids[1], ids[2]], ids[1])
    standings = anonymous.get(tournament_url(tournament_id, "standings")).json()
    assert [(row["entrant"], row["name"]) for row in standings[:2]] == [
        (ids[1], "Rossi"),
        (ids[2], "Bianchi"),
    ]
    assert [(row["rank"], row["won"], row["lost"]) for row in standings[:2]] == [
        (1, 2, 0),
        (2, 1, 1),
    ]
    assert {row["entrant"] for row in standings[2:]} == {ids[3], ids[4]}
    assert all(row["won"] == 0 and row["lost"] == 1 for row in standings[2:])
    # Verdi lost 2-0, Neri 2-1: the round difference orders them.
    assert [row["entrant"] for row in standings[2:]] == [ids[4], ids[3]]
