"""A tournament's server-sent event stream, read over real HTTP from the live server: the backlog,
new events as they are recorded, resuming after a disconnect, redaction and access."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import Role
from accounts.services import club_create, role_grant
from games.api.followers import LISTENER_NAME
from games.matches import services as match_services
from tests.event_streams import WAIT_SECONDS, AsgiServer, EventStream, streamed_events
from tests.factories.accounts import UserFactory, token_client
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.games.api.builders import legal_round
from tournaments.models import Fixture, Tournament
from tournaments.selectors.feed import tournament_feed

LIVE = pytest.mark.django_db(transaction=True)


def stream_path(tournament_id: object) -> str:
    return f"/api/v1/tournaments/{tournament_id}/events/stream/"


def feed_positions(tournament: Tournament) -> list[int]:
    events = tournament_feed(tournament_id=tournament.id, after=0)
    return [event.global_position for event in events]


def first_match(tournament: Tournament) -> UUID:
    match_id: UUID = (
        Fixture.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("match_id", flat=True)[0]
    )
    return match_id


@pytest.fixture
def long_streams(settings: Any) -> None:
    """Streams that stay open long enough for a test to act while one is connected."""
    settings.FEED_POLL_SECONDS = 0.05
    settings.FEED_STREAM_SECONDS = 3.0


@LIVE
@pytest.mark.usefixtures("long_streams")
def test_the_backlog_comes_in_log_order_with_each_event_id_its_position(
    asgi_server: AsgiServer,
) -> None:
    tournament = TournamentFactory.create(started=True)
    positions = feed_positions(tournament)

    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        assert stream.status == 200
        assert stream.header("Content-Type") == "text/event-stream"
        assert stream.header("Cache-Control") == "no-cache"
        assert stream.header("X-Accel-Buffering") == "no"
        events = stream.events_until(positions[-1])

    assert [event.id for event in events] == positions
    assert [event.data["position"] for event in events] == positions
    assert events[0].event == events[0].data["event_type"] == "TournamentCreated"
    assert {event.data["stream_id"] for event in events} == {
        str(tournament.id),
        *(str(match) for match in Fixture.objects.values_list("match_id", flat=True)),
    }


@LIVE
@pytest.mark.usefixtures("long_streams")
def test_a_card_played_while_a_follower_is_connected_reaches_it(asgi_server: AsgiServer) -> None:
    tournament = TournamentFactory.create(started=True)
    match_id = first_match(tournament)
    briscola, plays = legal_round(dealer=0, seed=3)

    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        stream.events_until(feed_positions(tournament)[-1])
        match_services.round_start(
            match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER
        )
        match_services.card_play(
            match_id=match_id,
            round_number=1,
            seat=plays[0].seat,
            card=plays[0].card.code,
            actor=ORGANIZER,
        )
        arrived = stream.events_until(feed_positions(tournament)[-1])

    assert [event.event for event in arrived] == ["RoundStarted", "CardPlayed"]
    assert arrived[-1].data["payload"]["card"] == plays[0].card.code


@LIVE
@pytest.mark.usefixtures("long_streams")
def test_a_feed_resumes_after_a_disconnect_without_gaps_or_repeats(
    asgi_server: AsgiServer,
) -> None:
    tournament = TournamentFactory.create(started=True)
    match_id = first_match(tournament)
    briscola, plays = legal_round(dealer=0, seed=4)
    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        before = stream.events_until(feed_positions(tournament)[2])
    match_services.round_start(match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER)
    for play in plays[:3]:
        match_services.card_play(
            match_id=match_id, round_number=1, seat=play.seat, card=play.card.code, actor=ORGANIZER
        )
    everything = feed_positions(tournament)

    last_id = str(before[-1].id)
    with EventStream(
        asgi_server.url, stream_path(tournament.id), {"Last-Event-ID": last_id}
    ) as stream:
        after = stream.events_until(everything[-1])

    received = [event.id for event in before + after]
    assert received == everything
    assert len(set(received)) == len(received)
    assert [event.event for event in after][-3:] == ["CardPlayed"] * 3


def backends_besides_this_one() -> list[tuple[str, str]]:
    """The application name and state of every other connection to the test database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, state FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [(name, state) for name, state in cursor.fetchall()]


def wait_for_backends(expected: Callable[[list[tuple[str, str]]], bool]) -> list[tuple[str, str]]:
    """The other connections, once `expected` holds of them (within the streams' wait)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not expected(found := backends_besides_this_one()):
        assert time.monotonic() < deadline, found
        time.sleep(0.02)
    return found


@LIVE
def test_a_waiting_stream_holds_no_connection_only_the_process_s_listener_does(
    asgi_server: AsgiServer, settings: Any
) -> None:
    settings.FEED_STREAM_SECONDS = 30.0
    tournament = TournamentFactory.create(started=True)
    before = Counter(backends_besides_this_one())  # another test's server may still be closing

    def opened(found: list[tuple[str, str]]) -> Counter[tuple[str, str]]:
        return Counter(found) - before

    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        stream.events_until(feed_positions(tournament)[-1])
        waiting = wait_for_backends(lambda found: opened(found) == {(LISTENER_NAME, "idle"): 1})

    # no idle in transaction, no connection per stream: only the process's listener
    assert opened(waiting) == {(LISTENER_NAME, "idle"): 1}


@LIVE
def test_a_new_event_reaches_a_follower_through_the_notification_not_a_poll(
    asgi_server: AsgiServer, settings: Any
) -> None:
    settings.FEED_POLL_SECONDS = 600.0  # no poll within the test: only the notification wakes
    settings.FEED_STREAM_SECONDS = 30.0
    tournament = TournamentFactory.create(started=True)
    match_id = first_match(tournament)
    briscola, _ = legal_round(dealer=0, seed=5)

    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        stream.events_until(feed_positions(tournament)[-1])
        wait_for_backends(lambda found: (LISTENER_NAME, "idle") in found)
        match_services.round_start(
            match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER
        )
        arrived = stream.events_until(feed_positions(tournament)[-1])

    assert [event.event for event in arrived] == ["RoundStarted"]


@LIVE
def test_the_stream_says_when_to_reconnect_then_ends_when_its_time_is_up(
    asgi_server: AsgiServer, settings: Any
) -> None:
    settings.FEED_STREAM_SECONDS = 0.3
    settings.FEED_KEEPALIVE_SECONDS = 0.1
    settings.FEED_RETRY_MILLISECONDS = 1500
    tournament = TournamentFactory.create(entrants=0)

    with EventStream(asgi_server.url, stream_path(tournament.id)) as stream:
        messages = list(stream.messages())  # the server ends the stream: no timeout hit

    assert messages[0].retry == 1500
    assert [message.event for message in messages if message.id] == ["TournamentCreated"]
    assert "keep-alive" in [comment for message in messages for comment in message.comments]


@pytest.mark.django_db
def test_the_public_stream_hides_a_dealt_deck_that_the_organizer_sees(
    api_client: APIClient,
) -> None:
    club = club_create(name="Circolo del Mazzo")
    organizer = UserFactory.create(username="mazzo-organizer")
    role_grant(user=organizer, role=Role.ORGANIZER, club=club)
    tournament = TournamentFactory.create(started=True, club=club)
    match_services.round_start(
        match_id=first_match(tournament), briscola=None, deal="server", actor=ORGANIZER
    )

    public = streamed_events(api_client.get(stream_path(tournament.id)))[-1]
    seen_by_organizer = streamed_events(token_client(organizer).get(stream_path(tournament.id)))[-1]

    assert public.event == seen_by_organizer.event == "RoundStarted"
    assert public.data["payload"]["deck"] is None
    assert len(seen_by_organizer.data["payload"]["deck"]) == 40


@pytest.mark.django_db
def test_a_private_tournament_stream_is_not_found_for_a_stranger_and_open_to_its_club(
    api_client: APIClient,
) -> None:
    club = club_create(name="Circolo Riservato")
    member = UserFactory.create(username="riservato-organizer")
    role_grant(user=member, role=Role.ORGANIZER, club=club)
    tournament = TournamentFactory.create(club=club, public=False)
    stranger = token_client(UserFactory.create(username="stranger"))

    refused = [client.get(stream_path(tournament.id)) for client in (api_client, stranger)]
    allowed = token_client(member).get(stream_path(tournament.id))

    assert [response.status_code for response in refused] == [404, 404]
    assert {response.json()["code"] for response in refused} == {"tournament_not_found"}
    assert allowed.status_code == 200
    assert [event.id for event in streamed_events(allowed)] == feed_positions(tournament)


@pytest.mark.django_db
@pytest.mark.parametrize("last_event_id", ["abc", "-1", "1.5", " 7", "9" * 20, "٣"])
def test_a_last_event_id_that_is_not_a_position_is_refused(
    api_client: APIClient, last_event_id: str
) -> None:
    tournament = TournamentFactory.create()

    response = api_client.get(stream_path(tournament.id), HTTP_LAST_EVENT_ID=last_event_id)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_last_event_id"
    assert "Last-Event-ID" in response.json()["detail"]


@pytest.mark.django_db
def test_the_header_wins_over_the_after_parameter_which_resumes_a_first_connection(
    api_client: APIClient,
) -> None:
    tournament = TournamentFactory.create(entrants=2)
    positions = feed_positions(tournament)

    by_parameter = api_client.get(stream_path(tournament.id), {"after": positions[0]})
    by_header = api_client.get(
        stream_path(tournament.id), {"after": 0}, HTTP_LAST_EVENT_ID=str(positions[1])
    )
    refused = api_client.get(stream_path(tournament.id), {"after": "soon"})

    assert [event.id for event in streamed_events(by_parameter)] == positions[1:]
    assert [event.id for event in streamed_events(by_header)] == positions[2:]
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_input"


@pytest.mark.django_db
def test_an_unknown_tournament_has_no_stream(api_client: APIClient) -> None:
    response = api_client.get(stream_path("00000000-0000-4000-8000-0000000000ff"))

    assert response.status_code == 404
    assert response.json()["code"] == "tournament_not_found"
