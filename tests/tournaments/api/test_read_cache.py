"""The standings, bracket and match list are kept rendered per process, under everything their
ETag is made of: a repeated read of an unchanged tournament is not built again, and whatever
moves what they show (a result, a correction, an erasure, a deadline passing, another query or
language) is answered afresh, never from a body kept for another state."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from common.actors import Actor
from common.bodies import Body, BodyCache
from tests.games.api.builders import start_round
from tests.tournaments.api.builders import four_started, matches, tournament_url, win
from tournaments.api import conditional
from tournaments.models import Entrant, Fixture, Player
from tournaments.projections import consumer
from tournaments.services import corrections, erasure

READS = ["standings", "standings?format=csv", "bracket", "matches", "matches?status=ready"]
ORGANIZER = Actor(device="test")


@pytest.fixture
def started(organizer: APIClient) -> str:
    tournament_id = four_started(organizer)
    conditional.BODIES.clear()
    return tournament_id


def read(client: APIClient, tournament_id: str, what: str, **headers: Any) -> Any:
    path, _, query = what.partition("?")
    response = client.get(f"{tournament_url(tournament_id, path)}?{query}", **headers)
    assert response.status_code == 200, response.content
    return response


def built_afresh(client: APIClient, tournament_id: str, what: str, **headers: Any) -> Any:
    """The answer as it is built now, with nothing kept."""
    conditional.BODIES.clear()
    return read(client, tournament_id, what, **headers)


@pytest.mark.parametrize("what", READS)
def test_a_repeated_read_of_an_unchanged_tournament_is_not_built_again(
    anonymous: APIClient, started: str, what: str
) -> None:
    first = read(anonymous, started, what)

    with CaptureQueriesContext(connection) as queries:
        again = read(anonymous, started, what)

    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert again["Content-Type"] == first["Content-Type"]
    assert len(queries) <= 3  # the permission, (the CSV's tournament,) the ETag: no rows


@pytest.mark.parametrize("what", READS)
def test_a_result_read_by_the_consumer_is_shown_at_once_to_a_reader_without_an_etag(
    organizer: APIClient, anonymous: APIClient, started: str, what: str
) -> None:
    before = read(anonymous, started, what)
    match = matches(anonymous, started)[0]
    win(organizer, match, match["entrants"][1])
    consumer.consume()

    after = read(anonymous, started, what)

    assert after.content != before.content
    assert after.content == built_afresh(anonymous, started, what).content


@pytest.mark.parametrize("what", ["standings", "bracket", "matches"])
def test_a_match_under_way_shows_once_the_consumer_has_read_it_and_not_before(
    organizer: APIClient, anonymous: APIClient, started: str, what: str
) -> None:
    before = read(anonymous, started, what)
    match = matches(anonymous, started)[0]
    start_round(organizer, match["id"], briscola=None)

    unread = read(anonymous, started, what)
    fresh_unread = built_afresh(anonymous, started, what)
    consumer.consume()
    after = read(anonymous, started, what)

    assert unread.content == before.content == fresh_unread.content
    assert after.content == built_afresh(anonymous, started, what).content


@pytest.mark.parametrize("what", READS)
def test_an_erased_player_reads_erased_player_at_once_in_a_read_answered_before(
    anonymous: APIClient, started: str, what: str
) -> None:
    before = read(anonymous, started, what)
    verdi = Player.objects.get(entries__tournament_id=started, name="Verdi")

    erasure.player_erase(player=verdi, actor=ORGANIZER)
    after = read(anonymous, started, what)

    assert b"Verdi" in before.content
    assert b"Verdi" not in after.content
    assert b"erased player" in after.content
    assert after["ETag"] != before["ETag"]
    assert after.content == built_afresh(anonymous, started, what).content


@pytest.mark.parametrize("what", READS)
def test_a_corrected_name_is_shown_at_once(anonymous: APIClient, started: str, what: str) -> None:
    before = read(anonymous, started, what)
    neri = Entrant.objects.get(tournament_id=started, name="Neri")

    corrections.entrant_correct(
        tournament_id=neri.tournament_id,
        entrant_id=neri.id,
        name="Neri-Bassi",
        reason="married",
        actor=ORGANIZER,
    )
    after = read(anonymous, started, what)

    assert b"Neri-Bassi" not in before.content
    assert b"Neri-Bassi" in after.content


def test_a_deadline_passing_shows_the_match_overdue_at_once(
    anonymous: APIClient, started: str
) -> None:
    fixture = Fixture.objects.filter(tournament_id=started, status="ready").first()
    assert fixture is not None
    Fixture.objects.filter(id=fixture.id).update(deadline=timezone.now() + timedelta(seconds=1))
    before = read(anonymous, started, "matches")

    Fixture.objects.filter(id=fixture.id).update(deadline=timezone.now() - timedelta(seconds=1))
    after = read(anonymous, started, "matches")

    overdue = {m["id"]: m["overdue"] for m in after.json()["matches"]}
    assert not any(m["overdue"] for m in before.json()["matches"])
    assert overdue[str(fixture.match_id)] is True


@pytest.mark.parametrize("what", READS)
def test_each_language_and_each_query_is_kept_apart(
    anonymous: APIClient, started: str, what: str
) -> None:
    english = read(anonymous, started, what, HTTP_ACCEPT_LANGUAGE="en")
    italian = read(anonymous, started, what, HTTP_ACCEPT_LANGUAGE="it")
    other_query = read(anonymous, started, f"{what}{'&' if '?' in what else '?'}limit=1")

    assert len({english["ETag"], italian["ETag"], other_query["ETag"]}) == 3
    kept = [key for key in conditional.BODIES.entries if key[0] == started]
    assert len(kept) == 3


def test_readers_allowed_to_read_share_one_kept_body_but_not_an_etag(
    organizer: APIClient, anonymous: APIClient, started: str
) -> None:
    first = read(anonymous, started, "standings")
    second = read(organizer, started, "standings")

    assert second.content == first.content
    assert second["ETag"] != first["ETag"]
    assert len(conditional.BODIES.entries) == 1


def test_the_browsable_api_is_built_for_each_request_and_not_kept(
    anonymous: APIClient, started: str
) -> None:
    page = anonymous.get(tournament_url(started, "bracket"), HTTP_ACCEPT="text/html")

    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    assert len(conditional.BODIES.entries) == 0


def test_the_kept_bodies_are_bounded_in_bytes_least_recently_used_out_first() -> None:
    kept: BodyCache[tuple[str, ...]] = BodyCache(max_bytes=160)

    for name in "abcd":
        kept.put((name,), Body(b"x" * 40, ()))
    kept.get(("a",))
    kept.put(("e",), Body(b"x" * 40, ()))  # b goes: a was read since
    kept.put(("huge",), Body(b"x" * 41, ()))  # over a quarter of the bound: not kept

    assert list(kept.entries) == [("c",), ("d",), ("a",), ("e",)]
    assert kept.size == 160


@pytest.mark.usefixtures("organizer")
def test_erasing_the_player_of_an_entrant_whose_name_stays_the_same_changes_the_csv(
    anonymous: APIClient, started: str
) -> None:
    # A single registered under the name an erasure gives: only the players column changes.
    entrant = Entrant.objects.get(tournament_id=started, name="Neri")
    Entrant.objects.filter(id=entrant.id).update(name="erased player")
    before = read(anonymous, started, "standings?format=csv")

    erasure.player_erase(player=Player.objects.get(name="Neri"), actor=ORGANIZER)
    after = read(anonymous, started, "standings?format=csv")

    assert b"Neri" in before.content
    assert b"Neri" not in after.content
    assert after.content == built_afresh(anonymous, started, "standings?format=csv").content
