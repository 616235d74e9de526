"""The standings, bracket and matches of a tournament answer 304 Not Modified to a client that
has them already (its `If-None-Match` is their ETag), until something a reader sees moves."""

import pytest
from rest_framework.test import APIClient

from common.actors import Actor
from tests.tournaments.api.builders import four_started, matches, read, tournament_url, win
from tournaments.models import Entrant, Player, Tournament
from tournaments.projections import consumer
from tournaments.services import corrections, erasure

READS = ["standings", "bracket", "matches"]
ORGANIZER = Actor(device="test")


@pytest.fixture
def started(organizer: APIClient) -> str:
    return four_started(organizer)


@pytest.mark.parametrize("what", READS)
def test_a_read_answered_before_is_not_sent_again_while_nothing_moved(
    anonymous: APIClient, started: str, what: str
) -> None:
    first = read(anonymous, started, what)
    etag = first["ETag"]

    again = read(anonymous, started, what, HTTP_IF_NONE_MATCH=etag)

    assert first.status_code == 200
    assert first.json()
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag


@pytest.mark.parametrize("what", READS)
def test_a_result_recorded_changes_the_etag_and_the_answer(
    organizer: APIClient, anonymous: APIClient, started: str, what: str
) -> None:
    before = read(anonymous, started, what)
    match = matches(anonymous, started)[0]
    win(organizer, match, match["entrants"][0])
    consumer.consume()

    after = read(anonymous, started, what, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.json() != before.json()


def test_the_csv_standings_and_each_filter_have_etags_of_their_own(
    anonymous: APIClient, started: str
) -> None:
    json_etag = read(anonymous, started, "standings")["ETag"]
    csv = anonymous.get(tournament_url(started, "standings"), {"format": "csv"})
    ready = anonymous.get(tournament_url(started, "matches"), {"status": "ready"})

    assert csv["ETag"] != json_etag
    assert ready["ETag"] != read(anonymous, started, "matches")["ETag"]
    not_modified = anonymous.get(
        tournament_url(started, "standings"), {"format": "csv"}, HTTP_IF_NONE_MATCH=csv["ETag"]
    )
    assert not_modified.status_code == 304


def test_another_reader_does_not_get_304_for_what_someone_else_was_answered(
    organizer: APIClient, anonymous: APIClient, started: str
) -> None:
    etag = read(anonymous, started, "standings")["ETag"]

    answer = read(organizer, started, "standings", HTTP_IF_NONE_MATCH=etag)

    assert answer.status_code == 200


@pytest.mark.parametrize("what", READS)
def test_renaming_an_entrant_changes_the_etag_and_the_answer(
    anonymous: APIClient, started: str, what: str
) -> None:
    before = read(anonymous, started, what)
    neri = Entrant.objects.get(tournament_id=started, name="Neri")

    corrections.entrant_correct(
        tournament_id=neri.tournament_id,
        entrant_id=neri.id,
        name="Neri-Bassi",
        reason="married",
        actor=ORGANIZER,
    )
    after = read(anonymous, started, what, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert b"Neri-Bassi" in after.content


def test_renaming_a_player_changes_the_etag_of_the_csv_standings(
    anonymous: APIClient, started: str
) -> None:
    url = tournament_url(started, "standings")
    before = anonymous.get(url, {"format": "csv"})
    neri = Entrant.objects.get(tournament_id=started, name="Neri")

    corrections.entrant_correct(
        tournament_id=neri.tournament_id,
        entrant_id=neri.id,
        players=["Nerina Neri"],
        reason="full name",
        actor=ORGANIZER,
    )
    after = anonymous.get(url, {"format": "csv"}, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert b"Nerina Neri" in after.content


@pytest.mark.parametrize("what", READS)
def test_an_erasure_changes_the_etag_though_it_appends_no_event(
    anonymous: APIClient, started: str, what: str
) -> None:
    version = Tournament.objects.get(id=started).version
    before = read(anonymous, started, what)
    verdi = Player.objects.get(entries__tournament_id=started, name="Verdi")

    erasure.player_erase(player=verdi, actor=ORGANIZER)
    after = read(anonymous, started, what, HTTP_IF_NONE_MATCH=before["ETag"])

    assert Tournament.objects.get(id=started).version == version
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert b"erased player" in after.content
