"""The standings, bracket and matches of a tournament answer 304 Not Modified to a client that
has them already (its `If-None-Match` is their ETag), until something a reader sees moves."""

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api.builders import four_started, matches, read, tournament_url, win
from tournaments import projections

READS = ["standings", "bracket", "matches"]


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
    projections.consume()

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
