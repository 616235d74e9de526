"""The match page and the round replay, read through Django's test client."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games.matches.selectors import replayed_cards, round_get
from games.rules.cards import parse_card
from games.templatetags.cards import card_label
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    a_correction,
    finished_card_round,
    legal_plays,
    legal_round,
    play_cards,
    post,
    round_url,
    score_round,
    start_round,
)
from tests.security.roles import make_world

pytestmark = pytest.mark.django_db

DASH = "\N{EN DASH}"


def page(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def step_of(html: str) -> int:
    found = re.search(r'data-step="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def played_on_table(html: str) -> list[str]:
    return re.findall(r'data-played="(\w+)"', html)


def played_match(scorer: APIClient) -> tuple[str, list[Any]]:
    """Rossi v Bianchi: round 1 a 60-60 tie scored by points, round 2 (its replay) card by card."""
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, match_id, 60, 60)
    briscola, plays = legal_round(dealer=1, seed=3)
    start_round(scorer, match_id, briscola=briscola)
    play_cards(scorer, match_id, 2, plays)
    return match_id, plays


def test_the_match_page_shows_the_sides_rounds_points_and_the_tie_with_its_replay(
    scorer: APIClient, client: Client
) -> None:
    match_id, _ = played_match(scorer)
    match = scorer.get(f"/api/v1/matches/{match_id}/").json()

    html = page(client, f"/matches/{match_id}/")

    assert "Rossi" in html
    assert "Bianchi" in html
    assert 'data-round="1" data-status="finished" data-result="tie"' in html
    assert f'href="/matches/{match_id}/rounds/2/">replayed in round 2</a>' in html
    assert "replays the tied round 1" in html
    second = match["rounds"][1]
    assert f"{second['points'][0]}{DASH}{second['points'][1]}" in html
    wins = match["round_wins"]
    assert f'data-round-wins="{wins[0]}"' in html
    assert f'data-round-wins="{wins[1]}"' in html
    assert f'href="/matches/{match_id}/rounds/1/"' in html


def test_the_match_page_shows_confirmations_and_disputes(scorer: APIClient, client: Client) -> None:
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, match_id, 70, 50)
    post(scorer, f"/api/v1/matches/{match_id}/confirm/", {"side": 0})
    post(scorer, f"/api/v1/matches/{match_id}/dispute/", {"side": 1, "reason": "it was 61"})

    html = page(client, f"/matches/{match_id}/")

    assert re.search(r'data-side="0">.*?data-confirmed', html, re.S)
    assert re.search(r'data-side="1">.*?data-disputed', html, re.S)
    assert "<bdi>Rossi</bdi> won the match." in html


def test_the_match_page_shows_a_disputes_reason_and_side_but_never_who_sent_it(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, match_id, 70, 50)
    post(scorer, f"/api/v1/matches/{match_id}/dispute/", {"side": 1, "reason": "it was 61 & more"})

    html = page(client, f"/matches/{match_id}/")
    italian = page(client, f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE="it")

    (disputed,) = re.findall(r'<li data-mark="disputed".*?</li>', html, re.S)
    assert "Bianchi disputed the result" in disputed
    assert "Reason: “it was 61 &amp; more”" in disputed
    assert "Motivo: “it was 61 &amp; more”" in italian
    assert "creator" not in html


def test_the_match_page_labels_the_deciding_round_and_says_the_fixed_rounds_ended_level(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2, decider="round")[
        "id"
    ]
    for points in ((70, 50), (50, 70), (65, 55)):
        score_round(scorer, match_id, *points)

    html = page(client, f"/matches/{match_id}/")
    italian = page(client, f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE="it")

    assert (
        f"Level after 2 rounds, 120{DASH}120: decided by a deciding round, 65{DASH}55 (round 3)."
        in html
    )
    assert 'data-decided-by="deciding_round"' in html
    deciding = re.findall(r'<li class="match-round" data-round="(\d)".*?</li>', html, re.S)
    assert deciding == ["1", "2", "3"]
    assert re.findall(r'data-round="(\d)"[^<]*>(?:(?!</li>).)*data-deciding', html, re.S) == ["3"]
    assert "<bdi>Rossi</bdi> won the match." in html
    assert f"In parità dopo 2 partite, 120{DASH}120: deciso da una partita decisiva" in italian


def test_a_match_level_without_a_decider_says_it_ended_without_a_winner_at_the_table(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, scoring="points", rounds=1)["id"]
    score_round(scorer, match_id, 60, 60)

    html = page(client, f"/matches/{match_id}/")

    assert (
        f"Level after 1 round, 60{DASH}60: the match ended without a winner at the table." in html
    )
    assert "data-deciding" not in html


def test_the_match_page_lists_each_confirmation_with_its_result_and_whether_it_stands(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, match_id, 80, 40)
    post(scorer, f"/api/v1/matches/{match_id}/confirm/", {"side": 0})
    post(scorer, round_url(match_id, 1, "void"), {"reason": "misdeal"})
    score_round(scorer, match_id, 30, 90)
    post(scorer, f"/api/v1/matches/{match_id}/dispute/", {"side": 0, "reason": "it was 61"})

    html = page(client, f"/matches/{match_id}/")
    italian = page(client, f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE="it")

    lapsed, disputed = re.findall(r'<li data-mark="\w+".*?</li>', html, re.S)
    assert 'data-mark="confirmed" data-side="0"' in lapsed
    assert 'data-standing="false"' in lapsed
    assert f'Round 1 <span class="round-points">80{DASH}40</span>' in lapsed
    assert "Rossi won the match." in lapsed
    assert "lapsed: the result changed since" in lapsed
    assert 'data-mark="disputed" data-side="0"' in disputed
    assert 'data-standing="true"' in disputed
    assert f'Round 2 <span class="round-points">30{DASH}90</span>' in disputed
    assert "Bianchi won the match." in disputed
    assert "Rossi ha confermato il risultato" in italian
    assert "decaduta: il risultato è cambiato da allora" in italian


def test_the_match_page_and_the_replay_show_the_organizers_ruling_on_a_round(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    briscola, plays = legal_round(dealer=0, seed=3)
    start_round(scorer, match_id, briscola=briscola, dealer_seat=0)
    play_cards(scorer, match_id, 1, plays)
    post(
        scorer,
        round_url(match_id, 1, "rule"),
        {"points": [55, 65], "reason": "a trick went to the wrong side"},
    )

    html = page(client, f"/matches/{match_id}/")
    replay = page(client, f"/matches/{match_id}/rounds/1/")
    italian = page(client, f"/matches/{match_id}/rounds/1/", HTTP_ACCEPT_LANGUAGE="it")

    (listed,) = re.findall(r'<li class="match-round" data-round="1".*?</li>', html, re.S)
    assert "data-ruling" in listed
    assert "“a trick went to the wrong side”" in listed
    assert f'<span class="round-points">55{DASH}65</span>' in listed
    assert "<bdi>Bianchi</bdi> won the match." in html
    assert (
        f"Organizer's ruling: 55{DASH}65, Bianchi wins the round "
        "(“a trick went to the wrong side”)" in replay
    )
    assert len(played_on_table(replay)) > 0
    assert f"Decisione dell'organizzatore: 55{DASH}65, Bianchi vince la partita" in italian


def test_the_replay_steps_card_by_card_with_each_step_a_link(
    scorer: APIClient, client: Client
) -> None:
    match_id, plays = played_match(scorer)
    url = f"/matches/{match_id}/rounds/2/"

    start = page(client, url + "?upto=0")
    first = page(client, url + "?upto=1")
    second_trick = page(client, url + "?upto=3")
    whole = page(client, url)

    assert step_of(start) == 0
    assert played_on_table(start) == []
    assert 'data-action="next" rel="next"' in start
    assert 'href="?upto=1"' in start
    assert step_of(first) == 1
    assert played_on_table(first) == [plays[0].card.code]
    assert 'href="?upto=0" data-action="prev"' in first
    assert played_on_table(second_trick) == [plays[2].card.code]
    assert step_of(whole) == len(plays)
    assert played_on_table(whole) == [play.card.code for play in plays[-2:]]
    assert "Rossi" in whole
    assert "Bianchi" in whole


def test_the_replay_shows_trick_winners_and_running_points(
    scorer: APIClient, client: Client
) -> None:
    match_id, _ = played_match(scorer)
    replay = scorer.get(round_url(match_id, 2, "replay") + "?upto=4").json()
    first, second = replay["tricks"][:2]
    running = [0, 0]
    for trick in (first, second):
        running[trick["winner"] % 2] += trick["points"]

    html = page(client, f"/matches/{match_id}/rounds/2/?upto=4")

    assert f"{running[0]}{DASH}{running[1]}" in html
    first_side = f'data-side-points="0"><span><bdi>Rossi</bdi></span> <strong>{replay["points"][0]}'
    assert f"{first_side}</strong>" in html
    assert "takes the trick" in html


def test_a_round_of_a_french_deck_match_names_its_cards_the_french_way(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, variant={"deck_names": "french"})["id"]
    start_round(scorer, match_id, briscola="QS")

    html = page(client, f"/matches/{match_id}/rounds/1/")

    assert "Queen of Spades" in html


def test_a_step_past_the_cards_played_shows_the_round_as_it_stands(
    scorer: APIClient, client: Client
) -> None:
    match_id, _ = played_match(scorer)
    last = page(client, f"/matches/{match_id}/rounds/2/")

    past = page(client, f"/matches/{match_id}/rounds/2/?upto=99")

    assert re.findall(r'data-step="(\d+)"', past) == re.findall(r'data-step="(\d+)"', last)


@pytest.mark.parametrize("upto", ["x", "-1"])
def test_a_step_that_is_not_a_count_of_cards_is_not_found(
    scorer: APIClient, client: Client, upto: str
) -> None:
    match_id, _ = played_match(scorer)

    assert client.get(f"/matches/{match_id}/rounds/2/?upto={upto}").status_code == 404


def test_an_unknown_match_or_round_is_not_found(scorer: APIClient, client: Client) -> None:
    match_id, _ = played_match(scorer)

    assert client.get("/matches/00000000-0000-4000-8000-000000000000/").status_code == 404
    assert client.get(f"/matches/{match_id}/rounds/9/").status_code == 404


def test_a_private_tournaments_match_is_not_found_by_outsiders_as_in_the_api(
    client: Client,
) -> None:
    world = make_world()
    match_id = world.private_match()
    outsider, member = Client(), Client()
    outsider.force_login(world.users["organizer_other_club"])
    member.force_login(world.users["player"])

    world.post(f"/api/v1/matches/{match_id}/rounds/", {"briscola": "7D"})
    replay = f"/matches/{match_id}/rounds/1/"

    assert client.get(f"/matches/{match_id}/").status_code == 404
    assert outsider.get(f"/matches/{match_id}/").status_code == 404
    assert outsider.get(replay).status_code == 404
    assert "Player 1" in page(member, f"/matches/{match_id}/")
    assert member.get(replay).status_code == 200
    assert world.clients["anonymous"].get(f"/api/v1/matches/{match_id}/").status_code == 404


def test_the_replay_hides_the_hands_a_viewer_may_not_see_while_the_round_is_played(
    scorer: APIClient, creator: User, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    hands = start_round(scorer, match_id, briscola=None, deal="server")["hands"]
    hidden = [code for seat_hand in hands.values() for code in seat_hand]
    signed_in = Client()
    signed_in.force_login(creator)

    public = page(client, f"/matches/{match_id}/rounds/1/")
    seen = page(signed_in, f"/matches/{match_id}/rounds/1/")

    assert "The hands stay hidden while the round is played." in public
    assert not any(f'data-hand-card="{code}"' in public for code in hidden)
    assert all(f'data-hand-card="{code}"' in seen for code in hidden)
    assert card_label(parse_card(hidden[0])) in seen


def test_a_finished_dealt_round_shows_every_hand_as_dealt_to_everybody(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    dealt = start_round(scorer, match_id, briscola=None, deal="server")
    state = replayed_cards(round_get(match_id=match_id, round_number=1))
    assert state is not None
    play_cards(scorer, match_id, 1, legal_plays(state))

    html = page(client, f"/matches/{match_id}/rounds/1/?upto=0")

    assert "Hands as dealt" in html
    assert all(f'data-hand-card="{code}"' in html for code in dealt["hands"]["0"])


def test_the_match_page_says_a_deciding_round_is_due_and_then_who_won(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, scoring="points", rounds=1, decider="round")[
        "id"
    ]
    score_round(scorer, match_id, 60, 60)

    level = page(client, f"/matches/{match_id}/")
    score_round(scorer, match_id, 40, 80)
    decided = page(client, f"/matches/{match_id}/")

    assert "data-deciding-round-due" in level
    assert "data-deciding-round" in level
    assert "the match is level after its round; one more round decides it" in level
    assert "data-deciding-round" not in decided
    assert "<bdi>Bianchi</bdi> won the match." in decided


def test_the_match_page_names_the_rounds_after_which_the_match_is_level(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2, decider="round")[
        "id"
    ]
    score_round(scorer, match_id, 70, 50)
    score_round(scorer, match_id, 50, 70)

    level = page(client, f"/matches/{match_id}/")
    level_in_italian = page(client, f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE="it")
    tied_decider = score_round(scorer, match_id, 60, 60)
    still_level = page(client, f"/matches/{match_id}/")

    notice = re.search(r"<p [^>]*data-deciding-round[ >][^<]*</p>", level)
    assert notice is not None
    assert "the match is level after its 2 rounds; one more round decides it" in notice.group(0)
    assert "data-deciding-round" in level_in_italian
    assert "dopo le sue 2 partite" in level_in_italian
    assert tied_decider["result"] == "tie"
    assert "data-deciding-round" in still_level


def test_a_round_at_three_where_nobody_reached_61_shows_as_a_tie_and_its_replay(
    scorer: APIClient, client: Client
) -> None:
    sides = [{"name": name} for name in ("Rossi", "Bianchi", "Verdi")]
    match_id = ApiMatchFactory.create(
        client=scorer, table_size=3, sides=sides, best_of=1, variant={"three_winner": "at_least_61"}
    )["id"]
    score_round(scorer, match_id, 50, 40, 30)
    score_round(scorer, match_id, 30, 61, 29)

    match_html = page(client, f"/matches/{match_id}/")
    short = page(client, f"/matches/{match_id}/rounds/1/")

    assert 'data-round="1" data-status="finished" data-result="tie"' in match_html
    assert f'href="/matches/{match_id}/rounds/2/">replayed in round 2</a>' in match_html
    assert "<bdi>Bianchi</bdi> won the match." in match_html
    assert 'data-round-result="tie"' in short
    assert "A tie: nobody wins the round; it is played again in round 2." in short


def test_a_tied_round_of_a_match_scored_by_points_is_not_said_to_be_replayed(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2)["id"]
    score_round(scorer, match_id, 60, 60)

    html = page(client, f"/matches/{match_id}/rounds/1/")

    assert 'data-round-result="tie"' in html
    assert "A tie: nobody wins the round." in html
    assert "played again" not in html


def test_the_match_page_and_the_replay_show_the_organizers_correction_with_its_reason(
    scorer: APIClient, client: Client
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    briscola, plays, dealer = finished_card_round(scorer, match_id, seed=3)
    index, card, points = a_correction(briscola, plays, dealer=dealer)
    other = next(i for i, play in enumerate(plays) if play.card == card)
    post(
        scorer,
        round_url(match_id, 1, "correct"),
        {"play_index": index, "card": card.code, "reason": "the scorer misread the 3"},
    )

    html = page(client, f"/matches/{match_id}/")
    replay = page(client, f"/matches/{match_id}/rounds/1/")
    (listed,) = re.findall(r'<li class="match-round" data-round="1".*?</li>', html, re.S)
    assert "data-correction" in listed
    assert "“the scorer misread the 3”" in listed
    assert f'<span class="round-points">{points[0]}{DASH}{points[1]}</span>' in listed
    (said,) = re.findall(r'<p class="round-correction" data-correction="\d+">(.*?)</p>', replay)
    assert said == (
        f"Organizer's correction: card {index + 1} (<bdi>{side_of(plays[index].seat)}</bdi>) "
        f"was {card_label(card)}, not {card_label(plays[index].card)} as recorded; card "
        f"{other + 1} (<bdi>{side_of(plays[other].seat)}</bdi>) was "
        f"{card_label(plays[index].card)} (“the scorer misread the 3”). The cards below are "
        "as corrected."
    )
    italian = page(client, f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE="it")
    italian_replay = page(client, f"/matches/{match_id}/rounds/1/", HTTP_ACCEPT_LANGUAGE="it")
    assert "carta corretta dall'organizzatore" in italian
    assert f"Correzione dell'organizzatore: la carta {index + 1} (" in italian_replay


def side_of(seat: int) -> str:
    return ("Rossi", "Bianchi")[seat % 2]
