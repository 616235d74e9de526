"""What narrows a requester beyond their role: a device token's tables and tournament, a match
that is over, the hands of a dealt round, a private tournament."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.models import Role
from common.actors import Actor
from games.eventstore.api import last_position
from games.rules.cards import parse_card
from games.rules.replay import play_card
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import created, dealt_state, legal_plays, legal_round, play_body, post
from tests.security.roles import World, make_world
from tests.tournaments.api.builders import (
    matches,
    register,
    started_tournament,
    tournament_url,
    tournaments,
)
from tournaments.models import Player
from tournaments.projections import consumer
from tournaments.services import scheduling


@pytest.fixture
def world(db: None) -> World:  # noqa: ARG001 - requested for its side effect
    return make_world()


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def start_round(client: APIClient, match_id: str, **body: Any) -> Any:
    return client.post(
        f"{API}/matches/{match_id}/rounds/", {"briscola": "7D", **body}, format="json"
    )


def two_tables(world: World) -> tuple[str, dict[int, str]]:
    """A started knockout of four, its two matches at tables 3 and 4, and a scorer (user
    `scorer`) of the whole tournament."""
    tournament_id, _ = started_tournament(world.organizer, 4, tables=4)
    consumer.consume()
    at: dict[int, str] = {}
    for table, match in zip((3, 4), matches(world.organizer, tournament_id), strict=True):
        scheduling.fixture_table_assign(match_id=match["id"], table=table, actor=Actor())
        at[table] = match["id"]
    scorer, _ = get_user_model().objects.get_or_create(username="scorer")
    accounts.role_grant(user=scorer, role=Role.SCORER, tournament_id=UUID(tournament_id))
    return tournament_id, at


def issue_device_token(world: World, tournament_id: str, **body: Any) -> dict[str, Any]:
    response = world.organizer.post(
        tournament_url(tournament_id, "device-tokens"),
        {"scorer": "scorer", "name": "tablet at table 3", **body},
        format="json",
    )
    assert response.status_code == 201, response.json()
    issued: dict[str, Any] = response.json()
    return issued


def test_a_scorer_token_for_table_3_cannot_write_to_table_4(world: World) -> None:
    tournament_id, at = two_tables(world)
    tablet = token_client(issue_device_token(world, tournament_id, tables=[3])["key"])
    before = last_position()

    refused = start_round(tablet, at[4])

    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert "table 4" in refused.json()["detail"]
    assert last_position() == before
    assert start_round(tablet, at[3]).status_code == 201


def test_the_same_scorer_without_the_device_scope_scores_every_table_of_the_tournament(
    world: World,
) -> None:
    _, at = two_tables(world)
    scorer = get_user_model().objects.get(username="scorer")
    own_token = token_client(Token.objects.create(user=scorer).key)

    assert start_round(own_token, at[4]).status_code == 201


def test_a_device_token_of_one_tournament_scores_no_other_match(world: World) -> None:
    tournament_id, _ = two_tables(world)
    _, other_tables = two_tables(world)
    tablet = token_client(issue_device_token(world, tournament_id)["key"])

    response = start_round(tablet, other_tables[3])

    assert response.status_code == 403
    assert "another tournament" in response.json()["detail"]


def test_a_device_token_only_scores_even_when_its_user_organizes(world: World) -> None:
    tournament_id, at = two_tables(world)
    scorer = get_user_model().objects.get(username="scorer")
    accounts.role_grant(user=scorer, role=Role.ORGANIZER, tournament_id=UUID(tournament_id))
    tablet = token_client(issue_device_token(world, tournament_id, tables=[3])["key"])

    forfeit = tablet.post(
        f"{API}/matches/{at[3]}/forfeit/", {"side": 0, "reason": "late"}, format="json"
    )
    free_standing = tablet.post(
        f"{API}/matches/", {"table_size": 2, "sides": [{"name": "A"}, {"name": "B"}]}, format="json"
    )

    assert (forfeit.status_code, free_standing.status_code) == (403, 403)


def test_a_revoked_device_token_signs_in_no_more(world: World) -> None:
    tournament_id, at = two_tables(world)
    issued = issue_device_token(world, tournament_id, tables=[3])
    revoked = world.organizer.post(
        tournament_url(tournament_id, "device-tokens", issued["id"], "revoke"), format="json"
    )

    response = start_round(token_client(issued["key"]), at[3])

    assert revoked.json()["state"] == "revoked"
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_a_device_token_is_issued_only_to_a_scorer_of_the_tournament(world: World) -> None:
    tournament_id, _ = two_tables(world)
    UserFactory.create(username="stranger")

    response = world.organizer.post(
        tournament_url(tournament_id, "device-tokens"),
        {"scorer": "stranger", "name": "tablet"},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (422, "invalid_device_token")


def test_the_organizer_lists_the_devices_without_their_keys(world: World) -> None:
    tournament_id, _ = two_tables(world)
    issued = issue_device_token(world, tournament_id, tables=[3])

    listed = world.organizer.get(tournament_url(tournament_id, "device-tokens")).json()

    assert [token["prefix"] for token in listed] == [issued["prefix"]]
    assert "key" not in listed[0]
    assert listed[0]["tables"] == [3]


def test_a_scorer_cannot_change_a_finished_match_but_an_organizer_can(world: World) -> None:
    match_id = world.finished_match()
    void = f"{API}/matches/{match_id}/rounds/1/void/"
    body = {"reason": "wrong table"}

    scorer = world.clients["scorer_this_table"].post(void, body, format="json")
    organizer = world.organizer.post(void, body, format="json")

    assert scorer.status_code == 403
    assert "over" in scorer.json()["detail"]
    assert organizer.status_code == 201


def test_a_player_confirms_only_their_own_side(world: World) -> None:
    match_id = world.finished_match()
    player = world.clients["player"]

    other_side = player.post(f"{API}/matches/{match_id}/confirm/", {"side": 1}, format="json")
    own_side = player.post(f"{API}/matches/{match_id}/confirm/", {"side": 0}, format="json")

    assert other_side.status_code == 403
    assert own_side.status_code == 201


def test_in_a_dealt_round_a_player_sees_their_own_hand_and_the_organizer_every_hand(
    world: World,
) -> None:
    match_id = world.match()
    assert start_round(world.organizer, match_id, briscola=None, deal="server").status_code == 201
    url = f"{API}/matches/{match_id}/rounds/1/"

    hands = {
        persona: world.clients[persona].get(url).json()["hands"]
        for persona in ("anonymous", "player", "scorer_this_table", "organizer")
    }

    assert hands["anonymous"] == hands["scorer_this_table"] == {}
    assert list(hands["player"]) == ["0"]
    assert sorted(hands["organizer"]) == ["0", "1"]
    assert hands["player"]["0"] == hands["organizer"]["0"]
    assert len(hands["organizer"]["0"]) == 3


def test_a_private_tournament_is_listed_only_for_its_people(world: World) -> None:
    private = world.tournament(public=False)

    listed = {
        persona: private in {t["id"] for t in tournaments(client)}
        for persona, client in world.clients.items()
    }

    assert listed == {
        "anonymous": False,
        "player": True,
        "player_key": False,  # the key of the world's public tournament: no account
        "scorer_other_table": True,
        "scorer_this_table": True,
        "organizer_other_club": False,
        "organizer": True,
    }


def test_in_a_dealt_round_of_pairs_a_player_sees_their_partners_hand_once_the_stock_is_empty(
    world: World,
) -> None:
    organizer = world.organizer
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=4)["id"]
    for n in (1, 2):
        register(organizer, tournament_id, f"Pair {n}", players=[f"P{n}a", f"P{n}b"], seed=n)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()
    [match] = matches(organizer, tournament_id)
    Player.objects.filter(entries__id=match["entrants"][0], entrantplayer__position=0).update(
        user=world.users["player"]
    )
    start_round(organizer, match["id"], briscola=None, deal="server")
    events = organizer.get(f"{API}/matches/{match['id']}/events/").json()["events"]
    deck = tuple(parse_card(code) for code in events[-1]["payload"]["deck"])
    state = dealt_state(deck, table_size=4)
    url = f"{API}/matches/{match['id']}/rounds/1/"
    player = world.clients["player"]
    before = player.get(url).json()["hands"]

    for play in legal_plays(state, count=28):  # seven tricks: the stock is empty
        created(post(organizer, url + "plays/", play_body(play)))
        state = play_card(state, play)
    after = player.get(url).json()["hands"]

    assert state.stock_is_empty
    assert list(before) == ["0"]
    assert sorted(after) == ["0", "2"]
    assert state.hands is not None
    assert after["2"] == [card.code for card in state.hands[2]]


@pytest.mark.django_db(transaction=True)  # committed: the fold memo fills on commit
def test_a_tablet_at_its_table_plays_a_card_in_three_round_trips(
    world: World, django_assert_num_queries: Any
) -> None:
    tournament_id, at = two_tables(world)
    tablet = token_client(issue_device_token(world, tournament_id, tables=[3])["key"])
    briscola, plays = legal_round(table_size=2, dealer=0, seed=3)
    created(start_round(tablet, at[3], briscola=briscola, dealer_seat=0))
    url = f"{API}/matches/{at[3]}/rounds/1/plays/"
    created(post(tablet, url, play_body(plays[0])))

    # The match row (with the events the memo lacks) and the fixture with its players (the
    # place), then the append with its projection, a transaction of its own: the token and the
    # scorer's role were checked a moment ago.
    with django_assert_num_queries(3):
        answer = created(post(tablet, url, play_body(plays[1])))

    assert answer["play_index"] == 1


def private_places(tournament_id: str, match_id: str) -> list[str]:
    """The organizers' and the audit's addresses of a tournament and its match."""
    return [
        tournament_url(tournament_id, "archive"),
        tournament_url(tournament_id, "device-tokens"),
        tournament_url(tournament_id, "webhooks"),
        tournament_url(tournament_id, "tables", 1, "card"),
        f"{API}/matches/{match_id}/events/",
    ]


def test_a_device_token_of_another_tournament_finds_a_private_tournament_no_more_than_a_made_up_id(
    world: World,
) -> None:
    own_tournament, _ = two_tables(world)
    tablet = token_client(issue_device_token(world, own_tournament)["key"])
    private = private_places(world.tournament(public=False), world.private_match())
    made_up = private_places(str(uuid4()), str(uuid4()))

    answers = [tablet.get(url) for url in private]
    unknown = [tablet.get(url) for url in made_up]

    assert [(a.status_code, a.json()["code"]) for a in answers] == [
        (u.status_code, u.json()["code"]) for u in unknown
    ]
    assert {a.status_code for a in answers} == {404}


def test_a_device_token_of_another_tournament_is_refused_where_its_user_may_read(
    world: World,
) -> None:
    own_tournament, _ = two_tables(world)
    tablet = token_client(issue_device_token(world, own_tournament)["key"])
    private = world.tournament(public=False)
    scorer = get_user_model().objects.get(username="scorer")
    accounts.role_grant(user=scorer, role=Role.ORGANIZER, tournament_id=UUID(private))

    answers = [tablet.get(url) for url in private_places(private, world.private_match())]

    assert {(a.status_code, a.json()["code"]) for a in answers} == {(403, "permission_denied")}
