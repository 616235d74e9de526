"""A card played into a free-standing match costs two round trips to PostgreSQL (its place with
the events the process lacks, and the append with its projection, which commits by itself), and
the shortcuts never let a stale state through (issue 13 §2, decision 0032)."""

from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from common.actors import Actor
from games import folded
from games.access import match_place
from games.eventstore.api import WrongExpectedVersion, read_stream
from games.eventstore.loading import EMPTY_STREAM, Head
from games.matches import execution, rebuilding, services
from games.matches.stream.commands import CreateMatch
from games.matches.stream.errors import MatchAlreadyCreated
from games.models import Match
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    dealt_match,
    legal_round,
    play_body,
    play_cards,
    post,
    round_url,
)

# Committed transactions: the memo remembers a state once its transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

SCORER = Actor(device="lean-path-test")


def test_a_card_in_a_match_this_process_knows_makes_two_round_trips(
    scorer: APIClient, django_assert_num_queries: Any
) -> None:
    match_id, plays = dealt_match(scorer)
    play_cards(scorer, match_id, 1, plays[:2])

    # The place (with the stream's head), and the append with its projection, a transaction of
    # its own: the token was checked a moment ago and the memo is at the head.
    with django_assert_num_queries(2):
        response = post(scorer, round_url(match_id, 1, "plays"), play_body(plays[2]))

    assert response.status_code == 201, response.json()
    assert response.json()["play_index"] == 2
    assert response.json()["trick"]["plays"][-1] == [plays[2].seat, plays[2].card.code]


def test_a_card_after_another_workers_write_reads_it_with_the_place(
    scorer: APIClient, django_assert_num_queries: Any
) -> None:
    """Workers serve requests in turn, so a worker's memo is often a card or two behind: the
    place's round trip brings the events it lacks, and the card still makes two."""
    match_id, plays = dealt_match(scorer)
    play_cards(scorer, match_id, 1, plays[:1])
    behind = folded.recall(UUID(match_id))
    assert behind is not None
    play_cards(scorer, match_id, 1, plays[1:3])  # "another worker"
    folded.memo.entries.put(UUID(match_id), behind)

    with django_assert_num_queries(2):
        response = post(scorer, round_url(match_id, 1, "plays"), play_body(plays[3]))

    assert response.status_code == 201, response.json()
    assert response.json()["play_index"] == 3
    assert response.json()["version"] == behind.version + 3


def stale_worker(
    match_id: str, plays: list[Any], client: APIClient
) -> tuple[folded.Folded[Any], Head]:
    """This process folded the match after its first card; "another worker" then played the
    second, and this process saw the head before that write landed."""
    play_cards(client, match_id, 1, plays[:1])
    before = folded.recall(UUID(match_id))
    assert before is not None
    play_cards(client, match_id, 1, plays[1:2])
    folded.memo.entries.put(UUID(match_id), before)
    return before, Head(before.version, before.position)


def seed_where(third_card_by_the_second_seat: bool) -> int:
    """A seeded round whose third card is (or is not) played by the seat of the second: on the
    state before the second card, that third card is then legal (or not that seat's turn)."""
    return next(
        seed
        for seed in range(1, 100)
        if ((plays := legal_round(seed=seed)[1])[2].seat == plays[1].seat)
        == third_card_by_the_second_seat
    )


@pytest.mark.parametrize(
    "third_card_by_the_second_seat",
    [
        pytest.param(True, id="the stale state takes the card: the append's version check"),
        pytest.param(False, id="the stale state refuses the card: decided again"),
    ],
)
def test_a_write_landing_after_the_head_was_seen_never_decides_the_command(
    scorer: APIClient, third_card_by_the_second_seat: bool
) -> None:
    match_id, plays = dealt_match(scorer, seed=seed_where(third_card_by_the_second_seat))
    before, head = stale_worker(match_id, plays, scorer)

    result = services.card_play(
        match_id=UUID(match_id),
        round_number=1,
        seat=plays[2].seat,
        card=plays[2].card.code,
        actor=SCORER,
        head=head,
    )

    assert result.version == before.version + 2
    recorded = read_stream(stream_id=UUID(match_id))
    assert [event.payload.get("card") for event in recorded[-3:]] == [
        play.card.code for play in plays[:3]
    ]
    # The first attempt, on the stale state, wrote nothing: the projections are the log's fold.
    assert rebuilding.verify() == []


def test_a_command_expecting_the_version_it_saw_is_refused_when_a_write_landed_since(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    before, head = stale_worker(match_id, plays, scorer)

    with pytest.raises(WrongExpectedVersion):
        services.card_play(
            match_id=UUID(match_id),
            round_number=1,
            seat=plays[1].seat,
            card=plays[1].card.code,
            actor=SCORER,
            expected_version=before.version,
            head=head,
        )


def test_the_place_of_a_command_carries_where_the_stream_stood_with_the_events_the_memo_lacks(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    play_cards(scorer, match_id, 1, plays[:2])
    behind = folded.recall(UUID(match_id))
    assert behind is not None
    play_cards(scorer, match_id, 1, plays[2:3])  # "another worker"
    folded.memo.entries.put(UUID(match_id), behind)
    row = Match.objects.get(id=match_id)

    head = match_place(UUID(match_id), for_command=True).stream_head

    assert isinstance(head, Head)
    assert head.version == row.version == behind.version + 1
    assert head.from_version == behind.version
    assert [event.stream_version for event in head.events or ()] == [
        behind.version,
        behind.version + 1,
    ]


def test_creating_a_match_makes_four_round_trips_and_reads_nothing_back(
    scorer: APIClient, django_assert_num_queries: Any
) -> None:
    ApiMatchFactory.create(client=scorer)  # the token is checked now

    # BEGIN, the append with its projection (in a savepoint), the sides' names, COMMIT: a new
    # id's stream is known to be empty, and the answer is the state the command left.
    with django_assert_num_queries(4):
        match = ApiMatchFactory.create(client=scorer)

    assert match["version"] == 1
    assert [side["name"] for side in match["sides"]] == ["Rossi", "Bianchi"]


def test_an_id_believed_new_that_a_stream_has_is_refused_after_a_real_read(
    scorer: APIClient,
) -> None:
    match_id = UUID(ApiMatchFactory.create(client=scorer)["id"])
    folded.memo.entries.pop(match_id)

    with pytest.raises(MatchAlreadyCreated):
        execution.execute(
            match_id=match_id,
            command=CreateMatch(
                table_size=2,
                match_format=MatchFormat.best_of(1),
                sides=({}, {}),
                variant=DEFAULT_VARIANT,
            ),
            actor=SCORER,
            head=EMPTY_STREAM,
        )

    assert [event.stream_version for event in read_stream(stream_id=match_id)] == [1]
