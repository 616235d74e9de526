"""The table page in a real browser at phone size: a scorer taps a round in, through the API."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import pytest
from django.test import Client
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.models import User
from games import rules
from games.eventstore.api import read_stream
from games.matches.stream import CardCorrected, CardPlayed, PlayUndone
from games.rules import Play
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.games.api.builders import created, legal_round, post
from tests.security.roles import World, make_world, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def device_key(tournament_id: str, *tables: int) -> str:
    """The key of a tablet that scores `tables` of the tournament."""
    _token, key = accounts.device_token_create(
        user=User.objects.get(username="scorer"),
        device="tablet",
        created_by=None,
        tournament_id=UUID(tournament_id),
        tables=tables,
    )
    return key


def played_cards(match_id: str) -> list[tuple[int, str]]:
    """The cards of the match's log: each play, minus those undone, as corrected."""
    cards: list[tuple[int, str]] = []
    for event in read_stream(stream_id=UUID(match_id)):
        payload = event.payload
        if event.event_type == CardPlayed.type:
            cards.append((payload["seat"], payload["card"]))
        elif event.event_type == PlayUndone.type:
            cards.pop()
        elif event.event_type == CardCorrected.type:
            cards[payload["play_index"]] = (payload["seat"], payload["card"])
    return cards


def card_events(match_id: str) -> list[str]:
    return [
        event.payload["card"]
        for event in read_stream(stream_id=UUID(match_id))
        if event.event_type == CardPlayed.type
    ]


def start_at_the_table(page: Page, briscola: str, dealer: int | None = 0) -> None:
    if dealer is not None:
        page.click(f'[data-dealer="{dealer}"]')
    page.click(f'[data-briscola="{briscola}"]')
    page.click('[data-action="start-round"]')
    expect(page.locator('[data-view="play"]')).to_be_visible()


def tap(page: Page, plays: list[Play]) -> None:
    for play in plays:
        page.click(f'[data-card="{play.card.code}"]')


def expect_the_rules_result(page: Page, table_size: int, briscola: str, plays: list[Play]) -> None:
    start = rules.StartRound(table_size, 0, briscola=rules.parse_card(briscola))
    outcome = rules.replay_round(start, plays).state.outcome
    assert outcome is not None
    named = "tie" if outcome.winning_side is None else f"side{outcome.winning_side}"
    expect(page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(page.locator("[data-result]")).to_have_attribute("data-result", named)
    for side, points in enumerate(outcome.points):
        expect(page.locator(f'[data-points-side="{side}"]')).to_have_text(str(points))


@pytest.fixture
def world() -> World:
    return make_world()


@dataclass
class WatchedPage:
    """A phone-sized page whose console errors the test inspects itself: a request the page
    expects to fail (no network, a refusal) is logged by the browser as a failed load."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def assert_only_failed_loads(self, *reasons: str) -> None:
        unexpected = [
            error
            for error in self.errors
            if not any(error.startswith(f"Failed to load resource: {r}") for r in reasons)
        ]
        assert unexpected == []


@pytest.fixture
def watched_page(page: Page, live_server: LiveServer) -> WatchedPage:  # noqa: ARG001 - requested for its side effect
    watched = WatchedPage(page)
    page.on("console", lambda m: watched.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: watched.errors.append(str(error)))
    page.set_default_timeout(10_000)
    return watched


def test_a_two_player_round_tapped_in_with_a_device_key_ends_as_the_rules_say(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=5)

    browser_page.goto(f"{live_server.url}/table/#key={device_key(tournament_id, 3)}")

    expect(browser_page).to_have_url(re.compile(rf"/table/\?match={at[3]}$"))
    expect(browser_page.locator("[data-match-title]")).to_have_text("Player 1 \u2013 Player 4")
    start_at_the_table(browser_page, briscola)
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", "1")
    tap(browser_page, plays[:2])
    expect(browser_page.locator("[data-trick-winner]")).not_to_have_attribute(
        "data-trick-winner", ""
    )
    expect(browser_page.locator(f'[data-card="{plays[0].card.code}"]')).to_be_disabled()
    tap(browser_page, plays[2:])
    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert played_cards(at[3]) == [(play.seat, play.card.code) for play in plays]


def test_without_a_key_or_an_account_the_page_says_where_to_find_one(
    browser_page: Page, live_server: LiveServer
) -> None:
    browser_page.goto(f"{live_server.url}/table/")

    expect(browser_page.locator('[data-view="access"]')).to_contain_text("table card")
    expect(browser_page.get_by_role("link", name="Sign in")).to_have_attribute(
        "href", "/api-auth/login/?next=%2Ftable%2F"
    )


def test_a_four_player_round_tapped_in_by_a_signed_in_creator_ends_as_the_rules_say(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    sides = [{"name": "Rossi e Verdi"}, {"name": "Bianchi e Neri"}]
    match = created(post(api, f"{API}/matches/", {"table_size": 4, "sides": sides}))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    briscola, plays = legal_round(table_size=4, dealer=0, seed=11)

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays)

    expect_the_rules_result(browser_page, 4, briscola, plays)
    assert played_cards(match["id"]) == [(play.seat, play.card.code) for play in plays]


def test_cards_tapped_offline_wait_on_the_device_and_are_recorded_once_when_it_reconnects(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=8)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:1])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.context.set_offline(True)
    tap(browser_page, plays[1:6])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "5")
    expect(browser_page.locator(f'[data-card="{plays[5].card.code}"]')).to_be_disabled()
    assert card_events(at[3]) == [plays[0].card.code]
    browser_page.context.set_offline(False)

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[6].seat))
    assert card_events(at[3]) == [play.card.code for play in plays[:6]]
    tap(browser_page, plays[6:])
    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert card_events(at[3]) == [play.card.code for play in plays]
    watched_page.assert_only_failed_loads("net::ERR_INTERNET_DISCONNECTED")


def test_cards_waiting_offline_go_in_one_batch_request_when_the_device_reconnects(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=5)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    browser_page.context.set_offline(True)
    tap(browser_page, plays[:6])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "6")
    posted: list[tuple[str, Any]] = []
    browser_page.on(
        "request",
        lambda request: (
            posted.append((request.url, request.post_data_json))
            if request.method == "POST" and "/plays/" in request.url
            else None
        ),
    )

    browser_page.context.set_offline(False)

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    assert card_events(at[3]) == [play.card.code for play in plays[:6]]
    batches = [body for url, body in posted if url.endswith("/plays/batch/")]
    # The first card was tried alone before the network went: it is sent again as it was.
    assert [url.endswith("/plays/") for url, _ in posted] == [True, False]
    assert batches[0]["plays"] == [[p.seat, p.card.code] for p in plays[1:6]]
    watched_page.assert_only_failed_loads("net::ERR_INTERNET_DISCONNECTED")


def test_cards_waiting_on_the_device_survive_a_reload(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=9)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)

    browser_page.route("**/api/v1/matches/*/rounds/*/plays/", lambda route: route.abort())
    tap(browser_page, plays[:3])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "3")
    browser_page.reload()
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "3")
    assert card_events(at[3]) == []
    browser_page.unroute("**/api/v1/matches/*/rounds/*/plays/")

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    assert card_events(at[3]) == [play.card.code for play in plays[:3]]
    watched_page.assert_only_failed_loads("net::ERR_FAILED")


def test_a_card_whose_answer_was_lost_is_sent_again_and_recorded_once(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=6)
    browser_page = watched_page.page
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    answers: list[Any] = []

    def lose_the_first_answer(route: Route) -> None:
        if answers:
            route.continue_()
            return
        answers.append(route.fetch())  # the server records the card...
        route.abort()  # ...and its answer never reaches the tablet

    browser_page.route("**/api/v1/matches/*/rounds/*/plays/", lose_the_first_answer)
    tap(browser_page, plays[:1])

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[1].seat))
    assert answers[0].status == 201
    assert card_events(at[3]) == [plays[0].card.code]
    watched_page.assert_only_failed_loads("net::ERR_FAILED")


def test_undo_takes_back_the_last_card(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=3)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:3])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.click('[data-action="undo"]')

    expect(browser_page.locator(f'[data-card="{plays[2].card.code}"]')).to_be_enabled()
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[2].seat))
    assert played_cards(at[3]) == [(play.seat, play.card.code) for play in plays[:2]]


def test_a_card_entered_wrongly_is_corrected_and_the_round_then_voided_with_a_reason(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=4)
    actually = next(
        code for code in ("1D", "2D", "3D") if code not in (briscola, plays[0].card.code)
    )
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:1])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.click('[data-action="correct"]')
    browser_page.click('[data-play-index="0"]')
    browser_page.click(f'[data-card="{actually}"]')

    expect(browser_page.locator(f'[data-card="{plays[0].card.code}"]')).to_be_enabled()
    expect(browser_page.locator(f'[data-card="{actually}"]')).to_be_disabled()
    assert played_cards(at[3]) == [(plays[0].seat, actually)]

    browser_page.click(".void summary")
    browser_page.fill("#void-reason", "a card fell face up")
    browser_page.click('[data-action="void"]')

    expect(browser_page.locator("[data-result]")).to_contain_text("a card fell face up")
    expect(browser_page.locator('[data-view="setup"]')).to_be_visible()
    rounds = world.organizer.get(f"{API}/matches/{at[3]}/").json()["rounds"]
    assert [(r["status"], r["void_reason"]) for r in rounds] == [("voided", "a card fell face up")]


def test_a_round_scored_by_points_only_asks_one_number_at_a_table_of_two(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")

    browser_page.click('[data-action="points-only"]')
    browser_page.fill('[data-points-input="0"]', "52")
    expect(browser_page.locator("[data-points-other]")).to_contain_text("68")
    browser_page.click('[data-action="enter-points"]')

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-points-side="0"]')).to_have_text("52")
    expect(browser_page.locator('[data-points-side="1"]')).to_have_text("68")
    assert world.organizer.get(f"{API}/matches/{at[3]}/").json()["rounds"][0]["points"] == [52, 68]


def test_a_table_3_device_key_cannot_score_table_4_through_the_page(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    key = device_key(tournament_id, 3)

    browser_page.goto(f"{live_server.url}/table/?match={at[4]}#key={key}")
    browser_page.click('[data-briscola="7D"]')
    browser_page.click('[data-action="start-round"]')

    expect(browser_page.locator("[data-problem]")).to_contain_text("table 4")
    expect(browser_page.locator('[data-view="setup"]')).to_be_visible()
    assert world.organizer.get(f"{API}/matches/{at[4]}/").json()["rounds"] == []
    watched_page.assert_only_failed_loads("the server responded with a status of 403")


def test_the_table_page_speaks_italian_and_keeps_the_key_across_the_language_switch(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    expect(browser_page.locator("[data-needs]")).to_contain_text("needs")

    browser_page.click('[data-language="it"]')

    expect(browser_page.locator("html")).to_have_attribute("lang", "it")
    expect(browser_page.locator('[data-action="points-only"]')).to_have_text("Solo punti")
    expect(browser_page.locator('[data-briscola="1D"]')).to_have_attribute(
        "aria-label", "Asso di Denari"
    )
    expect(browser_page.locator("[data-needs]")).to_contain_text("Vittorie che mancano")
    expect(browser_page.locator('[data-dealer="0"]')).to_have_text("Posto 1: Player 1")


def test_a_round_of_french_cards_tapped_in_is_recorded_as_the_cards_tapped(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    body = {"table_size": 2, "sides": sides, "variant": {"deck_names": "french"}}
    match = created(post(api, f"{API}/matches/", body))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    briscola, plays = legal_round(dealer=0, seed=5)

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays)

    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert played_cards(match["id"]) == [(play.seat, play.card.code) for play in plays]
    [started] = [e for e in read_stream(stream_id=UUID(match["id"])) if "briscola" in e.payload]
    assert started.payload["briscola"] == briscola


def signed_in_match(
    browser_page: Page, live_server: LiveServer, **body: Any
) -> tuple[dict[str, Any], APIClient]:
    """A free-standing match created through the API by a creator signed in on the page."""
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    match = created(post(api, f"{API}/matches/", body))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    return match, api


def enter_points(browser_page: Page, *points: int) -> None:
    browser_page.click('[data-action="points-only"]')
    for side, side_points in enumerate(points if len(points) > 2 else points[:1]):
        browser_page.fill(f'[data-points-input="{side}"]', str(side_points))
    browser_page.click('[data-action="enter-points"]')


def test_the_table_page_says_when_a_deciding_round_is_due_until_one_is_won(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=2,
        sides=sides,
        scoring="points",
        rounds=2,
        decider="round",
    )
    url = f"{API}/matches/{match['id']}/"
    for points in ([70, 50], [50, 70]):
        number = created(post(api, f"{url}rounds/", {"briscola": None}))["number"]
        created(post(api, f"{url}rounds/{number}/score/", {"points": points}))
    notice = browser_page.locator("[data-deciding-round]")

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "Deciding round: the match is level after its 2 rounds; one more round decides it "
        "(a tied one is played again)."
    )
    expect(browser_page.locator("[data-needs]")).to_have_text("")
    enter_points(browser_page, 60, 60)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("it is played again")
    expect(notice).to_be_visible()
    enter_points(browser_page, 52, 68)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    expect(notice).to_be_hidden()
    assert api.get(url).json()["winner"] == "side1"


def test_the_deciding_round_notice_speaks_italian(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=2,
        sides=sides,
        scoring="points",
        rounds=1,
        decider="round",
    )
    url = f"{API}/matches/{match['id']}/"
    created(post(api, f"{url}rounds/", {"briscola": None}))
    created(post(api, f"{url}rounds/1/score/", {"points": [60, 60]}))
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    expect(browser_page.locator("[data-deciding-round]")).to_be_visible()

    browser_page.click('[data-language="it"]')

    expect(browser_page.locator("html")).to_have_attribute("lang", "it")
    expect(browser_page.locator("[data-deciding-round]")).to_have_text(
        "Partita decisiva: l'incontro è in parità dopo la sua partita; un'altra partita lo "
        "decide (se finisce in pareggio si rigioca)."
    )


def test_a_tied_round_of_a_match_scored_by_points_is_not_said_to_be_played_again(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page, live_server, table_size=2, sides=sides, scoring="points", rounds=2
    )
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    enter_points(browser_page, 60, 60)

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("nobody wins it")
    expect(browser_page.locator("[data-deciding-round]")).to_be_hidden()
    assert api.get(f"{API}/matches/{match['id']}/").json()["status"] == "in_progress"


def test_at_three_under_at_least_61_a_round_where_nobody_reaches_61_is_played_again(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}, {"name": "Verdi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=3,
        sides=sides,
        best_of=1,
        variant={"three_winner": "at_least_61"},
    )
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    enter_points(browser_page, 50, 40, 30)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("it is played again")
    enter_points(browser_page, 30, 61, 29)

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    rounds = api.get(f"{API}/matches/{match['id']}/").json()["rounds"]
    assert [(r["points"], r["result"], r["replay_of"]) for r in rounds] == [
        ([50, 40, 30], "tie", None),
        ([30, 61, 29], "side1", 1),
    ]
