import pytest
from rest_framework.test import APIClient

from games.rules.cards import parse_card
from games.rules.commands import StartRound
from games.rules.replay import legal_cards, play_card
from games.rules.replay import start_round as rules_start_round
from games.rules.tricks import Play
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import legal_round, play_cards, round_url, score_round, start_round


def played_round(client: APIClient, *, upto: int | None = None) -> tuple[str, list[Play]]:
    """A match whose first round was entered card by card (the first `upto` cards, or all)."""
    match = ApiMatchFactory.create(client=client)
    briscola, plays = legal_round(dealer=0, seed=7)
    start_round(client, match["id"], briscola=briscola, dealer_seat=0)
    play_cards(client, match["id"], 1, plays[:upto])
    return match["id"], plays


def test_the_replay_of_a_finished_round_shows_every_trick(
    scorer: APIClient, anonymous: APIClient
) -> None:
    match_id, plays = played_round(scorer)

    response = anonymous.get(round_url(match_id, 1, "replay"))

    replay = response.json()
    assert response.status_code == 200
    assert (replay["leader_seat"], replay["plays"], replay["result"]) == (1, 40, "side0")
    assert len(replay["tricks"]) == 20
    assert [trick["number"] for trick in replay["tricks"]] == list(range(1, 21))
    assert sum(trick["points"] for trick in replay["tricks"]) == 120
    assert sum(replay["points"]) == 120
    assert [p for trick in replay["tricks"] for p in trick["plays"]] == [
        [play.seat, play.card.code] for play in plays
    ]


def test_replay_upto_shows_the_round_as_it_stood_after_that_many_cards(
    scorer: APIClient,
) -> None:
    match_id, plays = played_round(scorer)

    replay = scorer.get(round_url(match_id, 1, "replay"), {"upto": 3}).json()

    first, on_table = replay["tricks"]
    assert first["winner"] is not None
    assert on_table == {
        "number": 2,
        "leader": first["winner"],
        "plays": [[plays[2].seat, plays[2].card.code]],
        "winner": None,
        "points": None,
    }
    assert replay["result"] is None
    assert sum(replay["points"]) == first["points"]


def test_replay_upto_zero_shows_no_trick(scorer: APIClient) -> None:
    match_id, _plays = played_round(scorer, upto=4)

    replay = scorer.get(round_url(match_id, 1, "replay"), {"upto": 0}).json()

    assert (replay["tricks"], replay["result"]) == ([], None)


def test_replay_upto_past_the_cards_played_shows_the_round_as_it_stands(
    scorer: APIClient,
) -> None:
    match_id, _plays = played_round(scorer, upto=1)

    past = scorer.get(round_url(match_id, 1, "replay"), {"upto": 10})

    assert past.status_code == 200
    assert past.json() == scorer.get(round_url(match_id, 1, "replay")).json()
    assert past.json()["plays"] == 1
    assert len(past.json()["tricks"][0]["plays"]) == 1


@pytest.mark.parametrize("upto", ["-1", "two", "1.5"])
def test_replay_upto_that_is_not_a_count_of_cards_is_400(scorer: APIClient, upto: str) -> None:
    match_id, _plays = played_round(scorer, upto=4)

    response = scorer.get(round_url(match_id, 1, "replay"), {"upto": upto})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_the_replay_of_a_round_scored_by_points_has_points_but_no_tricks(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)

    replay = scorer.get(round_url(match["id"], 1, "replay")).json()

    assert (replay["tricks"], replay["points"], replay["result"]) == ([], [70, 50], "side0")


def test_the_replay_of_a_round_that_does_not_exist_is_404(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = scorer.get(round_url(match["id"], 1, "replay"))

    assert (response.status_code, response.json()["code"]) == (404, "round_not_found")


def test_the_replay_of_a_round_in_play_names_the_seat_on_turn_and_the_cards_it_may_play(
    scorer: APIClient,
) -> None:
    match_id, plays = played_round(scorer, upto=3)
    briscola, _ = legal_round(dealer=0, seed=7)
    state = rules_start_round(StartRound(2, 0, briscola=parse_card(briscola)))
    for play in plays[:3]:
        state = play_card(state, play)

    replay = scorer.get(round_url(match_id, 1, "replay")).json()

    assert replay["seat_on_turn"] == state.seat_on_turn == plays[3].seat
    assert replay["playable"] == [card.code for card in legal_cards(state)]
    assert plays[3].card.code in replay["playable"]
    assert not {code for _, code in replay["tricks"][0]["plays"]} & set(replay["playable"])


def test_nobody_is_on_turn_once_the_round_is_over(scorer: APIClient) -> None:
    match_id, _plays = played_round(scorer)

    replay = scorer.get(round_url(match_id, 1, "replay")).json()

    assert (replay["seat_on_turn"], replay["playable"]) == (None, None)
