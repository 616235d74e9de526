"""Rounds dealt by the server through the API: starting one, playing from the hands, and what each
requester is shown of the hands while the round is played and once it is over."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.matches import rebuilding
from games.rules.cards import Card, card_text, parse_card
from games.rules.replay import legal_cards, play_card
from games.rules.round_state import RoundState
from games.rules.tricks import Play
from games.visibility import PUBLIC, Viewer
from tests.factories.accounts import UserFactory, token_client
from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    created,
    dealt_state,
    event_count,
    legal_plays,
    match_url,
    play_body,
    play_cards,
    post,
    round_url,
)
from tests.games.api.builders import (
    start_round as start_physical_round,
)


@pytest.fixture
def organizer(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    """A superuser's client: passes every role check, and sees everything."""
    user = UserFactory.create(
        username="organizer", password="secret", is_staff=True, is_superuser=True
    )
    return token_client(user)


def start_dealt_round(client: APIClient, match_id: str, **fields: Any) -> dict[str, Any]:
    return created(post(client, match_url(match_id, "rounds"), {"deal": "server", **fields}))


def recorded_deck(organizer: APIClient, match_id: str, number: int = 1) -> tuple[Card, ...]:
    """The deck of a dealt round, as its RoundStarted event shows it to whoever sees everything."""
    events = organizer.get(match_url(match_id, "events")).json()["events"]
    [started] = [
        event["payload"]
        for event in events
        if event["event_type"] == "RoundStarted" and event["payload"]["round"] == number
    ]
    return tuple(map(parse_card, started["deck"]))


def state_after(deck: tuple[Card, ...], plays: list[Play]) -> RoundState:
    state = dealt_state(deck)
    for play in plays:
        state = play_card(state, play)
    return state


def strings_in(body: Any) -> set[str]:
    """Every string anywhere in a JSON body, but in a match's variant (its removed card for three
    players, `2B`, names a card of the deck without showing anybody's)."""
    if isinstance(body, str):
        return {body}
    if isinstance(body, dict):
        values = [value for key, value in body.items() if key != "variant"]
        return set().union(*map(strings_in, values)) if values else set()
    if isinstance(body, list):
        return set().union(*map(strings_in, body)) if body else set()
    return set()


def hidden_cards(deck: tuple[Card, ...], plays: list[Play]) -> set[str]:
    """The cards nobody but their holder may know yet: neither played nor the face-up briscola."""
    briscola = dealt_state(deck).briscola
    played = {play.card for play in plays}
    return {card.code for card in deck if card not in played and card != briscola}


def hands_as_dealt(deck: tuple[Card, ...]) -> dict[str, list[str]]:
    hands = dealt_state(deck).hands
    assert hands is not None
    return {str(seat): [card.code for card in hand] for seat, hand in enumerate(hands)}


def current_hands(state: RoundState) -> dict[str, list[str]]:
    assert state.hands is not None
    return {str(seat): [card.code for card in hand] for seat, hand in enumerate(state.hands)}


@pytest.fixture
def dealt_in_progress(organizer: APIClient) -> tuple[str, tuple[Card, ...], list[Play]]:
    """A match whose first round, dealt by the server, has 9 cards played (the stock still full
    enough that several hands are hidden)."""
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]
    start_dealt_round(organizer, match_id)
    deck = recorded_deck(organizer, match_id)
    plays = legal_plays(dealt_state(deck), count=9)
    play_cards(organizer, match_id, 1, plays)
    return match_id, deck, plays


def test_a_round_dealt_by_the_server_answers_201_with_its_briscola_and_every_hand_to_a_superuser(
    organizer: APIClient,
) -> None:
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]

    response = post(organizer, match_url(match_id, "rounds"), {"deal": "server", "briscola": None})

    assert response.status_code == 201
    body = response.json()
    deck = recorded_deck(organizer, match_id)
    assert len(deck) == 40
    assert set(deck) == set(dealt_state(deck).table.deck)
    assert (body["deal"], body["briscola"], body["leader_seat"]) == ("server", deck[6].code, 1)
    assert body["hands"] == hands_as_dealt(deck)
    assert body["briscola"] not in strings_in(body["hands"])


def test_naming_a_briscola_with_a_server_deal_is_refused_with_422(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]
    before = event_count(organizer, match_id)

    response = post(organizer, match_url(match_id, "rounds"), {"deal": "server", "briscola": "7D"})

    assert response.status_code == 422
    assert response.json()["code"] == "briscola_dealt_by_server"
    assert event_count(organizer, match_id) == before


def test_an_unknown_deal_is_refused_with_400(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]

    response = post(organizer, match_url(match_id, "rounds"), {"deal": "dealer"})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert "deal" in response.json()["fields"]


def test_a_round_the_table_deals_still_needs_its_briscola(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]

    response = post(organizer, match_url(match_id, "rounds"), {"deal": "table"})

    assert response.status_code == 400
    assert "briscola" in response.json()["fields"]


def test_points_only_are_refused_for_a_dealt_round_with_422(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]
    start_dealt_round(organizer, match_id)

    response = post(organizer, round_url(match_id, 1, "score"), {"points": [60, 60]})

    assert response.status_code == 422
    assert response.json()["code"] == "round_is_dealt"


def test_a_card_not_in_the_seats_hand_is_refused_with_422(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]
    start_dealt_round(organizer, match_id)
    hands = dealt_state(recorded_deck(organizer, match_id)).hands
    assert hands is not None

    response = post(organizer, round_url(match_id, 1, "plays"), play_body(Play(1, hands[0][0])))

    assert response.status_code == 422
    assert response.json()["code"] == "card_not_in_hand"


def test_a_retried_server_deal_with_the_same_key_answers_the_first_deal(
    organizer: APIClient,
) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]
    url = match_url(match_id, "rounds")
    first = post(organizer, url, {"deal": "server"}, HTTP_IDEMPOTENCY_KEY="deal-1")
    count = event_count(organizer, match_id)

    again = post(organizer, url, {"deal": "server"}, HTTP_IDEMPOTENCY_KEY="deal-1")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert event_count(organizer, match_id) == count


def test_undo_and_corrections_in_a_dealt_round_keep_to_the_hands(organizer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]
    start_dealt_round(organizer, match_id)
    deck = recorded_deck(organizer, match_id)
    start = dealt_state(deck)
    plays = legal_plays(start, count=2)
    play_cards(organizer, match_id, 1, plays)
    assert start.hands is not None
    first = plays[0]
    same_hand = next(card for card in start.hands[first.seat] if card != first.card)
    other_hand = start.hands[1 - first.seat][0]
    correct = round_url(match_id, 1, "plays", 0, "correct")

    undone = post(organizer, round_url(match_id, 1, "undo"), {})
    refused = post(organizer, correct, {"card": other_hand.code})
    accepted = post(organizer, correct, {"card": same_hand.code})

    assert (undone.status_code, undone.json()["plays"]) == (201, 1)
    assert (refused.status_code, refused.json()["code"]) == (422, "card_not_in_hand")
    assert accepted.status_code == 201
    hands = accepted.json()["hands"]
    assert first.card.code in hands[str(first.seat)]
    assert same_hand.code not in hands[str(first.seat)]


def test_once_a_dealt_round_is_over_everybody_sees_the_hands_as_dealt(
    organizer: APIClient, anonymous: APIClient
) -> None:
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]
    start_dealt_round(organizer, match_id)
    deck = recorded_deck(organizer, match_id)
    plays = legal_plays(dealt_state(deck))
    play_cards(organizer, match_id, 1, plays)

    replay = anonymous.get(round_url(match_id, 1, "replay")).json()
    halfway = anonymous.get(round_url(match_id, 1, "replay"), {"upto": 11}).json()
    detail = anonymous.get(round_url(match_id, 1)).json()

    assert replay["status"] == "finished"
    assert replay["result"] is not None
    assert [p for trick in replay["tricks"] for p in trick["plays"]] == [
        [play.seat, play.card.code] for play in plays
    ]
    assert replay["hands"] == halfway["hands"] == detail["hands"] == hands_as_dealt(deck)


@pytest.mark.parametrize("reader", ["scorer", "anonymous"])
def test_no_read_shows_anybody_but_a_superuser_an_unplayed_card_of_a_dealt_round_in_progress(
    reader: str,
    dealt_in_progress: tuple[str, tuple[Card, ...], list[Play]],
    request: pytest.FixtureRequest,
) -> None:
    client: APIClient = request.getfixturevalue(reader)
    match_id, deck, plays = dealt_in_progress
    hidden = hidden_cards(deck, plays)
    replay_url = round_url(match_id, 1, "replay")

    answers = {
        "round": client.get(round_url(match_id, 1)),
        "match": client.get(match_url(match_id)),
        "replay": client.get(replay_url),
        **{f"replay upto {k}": client.get(replay_url, {"upto": k}) for k in (0, 1, 4, 9)},
    }
    refused = {
        "match events": client.get(match_url(match_id, "events")),
        "log": client.get(f"{API}/events/"),
    }

    for name, response in answers.items():
        assert response.status_code == 200, name
        assert not strings_in(response.json()) & hidden, name
    assert answers["round"].json()["hands"] == {}
    assert answers["match"].json()["rounds"][0]["hands"] == {}
    assert answers["replay upto 4"].json()["hands"] == {}
    for name, response in refused.items():
        assert response.status_code in (401, 403), name
        assert not strings_in(response.json()) & hidden, name


def test_a_staff_member_who_is_not_a_superuser_is_refused_the_log_and_its_decks(
    dealt_in_progress: tuple[str, tuple[Card, ...], list[Play]],
) -> None:
    _match_id, deck, plays = dealt_in_progress
    staff = APIClient()
    staff.force_login(UserFactory.create(username="club-organizer", is_staff=True))

    response = staff.get(f"{API}/events/", {"limit": 1000})

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert not strings_in(response.json()) & hidden_cards(deck, plays)


def test_the_play_response_shows_only_the_hands_its_requester_sees(
    organizer: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = ApiMatchFactory.create(client=organizer, first_dealer=0)["id"]
    start_dealt_round(organizer, match_id)
    deck = recorded_deck(organizer, match_id)
    first, second = legal_plays(dealt_state(deck), count=2)
    url = round_url(match_id, 1, "plays")

    monkeypatch.setattr("games.api.plays.viewer", lambda _request, _match_id: PUBLIC)
    public = post(organizer, url, play_body(first)).json()
    monkeypatch.setattr(
        "games.api.plays.viewer", lambda _request, _match_id: Viewer.at_seats([second.seat])
    )
    seated = post(organizer, url, play_body(second)).json()

    assert public["round"]["hands"] == {}
    assert not strings_in(public) & hidden_cards(deck, [first])
    seat_hand = current_hands(state_after(deck, [first, second]))[str(second.seat)]
    assert seated["round"]["hands"] == {str(second.seat): seat_hand}


def test_a_superuser_sees_every_hand_and_the_deck_in_every_read(
    organizer: APIClient, dealt_in_progress: tuple[str, tuple[Card, ...], list[Play]]
) -> None:
    match_id, deck, plays = dealt_in_progress
    now = current_hands(state_after(deck, plays))

    detail = organizer.get(round_url(match_id, 1)).json()
    match = organizer.get(match_url(match_id)).json()
    replay = organizer.get(round_url(match_id, 1, "replay"), {"upto": 4}).json()
    log = organizer.get(f"{API}/events/").json()["events"]

    assert detail["hands"] == match["rounds"][0]["hands"] == now
    assert replay["hands"] == current_hands(state_after(deck, plays[:4]))
    [started] = [event for event in log if event["event_type"] == "RoundStarted"]
    assert started["payload"]["deck"] == [card.code for card in deck]


def test_a_round_dealt_at_the_table_reads_as_such_and_has_no_hands(
    organizer: APIClient, anonymous: APIClient
) -> None:
    match_id = ApiMatchFactory.create(client=organizer)["id"]
    start_physical_round(organizer, match_id, briscola="7D")

    detail = anonymous.get(round_url(match_id, 1)).json()
    replay = organizer.get(round_url(match_id, 1, "replay")).json()

    assert (detail["deal"], detail["hands"]) == ("table", None)
    assert (replay["deal"], replay["hands"]) == ("table", None)


@pytest.mark.usefixtures("dealt_in_progress")
def test_the_projections_of_a_dealt_round_rebuild_identically() -> None:
    assert rebuilding.verify() == []

    rebuilding.rebuild()

    assert rebuilding.verify() == []


def test_the_cards_a_seat_may_play_in_a_dealt_round_are_listed_only_to_who_sees_its_hand(
    organizer: APIClient,
    anonymous: APIClient,
    dealt_in_progress: tuple[str, tuple[Card, ...], list[Play]],
) -> None:
    match_id, deck, plays = dealt_in_progress
    state = state_after(deck, plays)

    seen = organizer.get(round_url(match_id, 1, "replay")).json()
    hidden = anonymous.get(round_url(match_id, 1, "replay")).json()

    assert seen["seat_on_turn"] == hidden["seat_on_turn"] == state.seat_on_turn
    assert seen["playable"] == [card.code for card in legal_cards(state)]
    assert hidden["playable"] is None


def test_six_french_players_with_48_cards_are_dealt_the_eights_and_nines_and_play_them(
    organizer: APIClient,
) -> None:
    variant = {"deck_names": "french", "six_player_deck": 48}
    match_id = ApiMatchFactory.create(
        client=organizer, table_size=6, first_dealer=0, variant=variant
    )["id"]

    start_dealt_round(organizer, match_id)

    deck = recorded_deck(organizer, match_id)
    assert len(set(deck)) == 48
    assert {"11B", "12B", "2B"} <= {card.code for card in deck}
    first = deck[0]  # the leader's (seat 1's) first card
    typed = card_text(first, "french")
    response = post(organizer, round_url(match_id, 1, "plays"), {"seat": 1, "card": typed})
    assert response.status_code == 201, response.json()
    assert response.json()["trick"]["plays"] == [[1, first.code]]
