import pytest

from games.eventstore.api import iter_all, last_position, last_position_of_streams, read_all
from tests.games.eventstore.builders import append, card_played, cards_played, new_stream_id

pytestmark = pytest.mark.django_db


def test_read_all_interleaves_streams_in_the_order_they_were_appended() -> None:
    start = last_position()
    match_a, match_b = new_stream_id(), new_stream_id()

    append(match_a, [card_played("1D")])
    append(match_b, cards_played("3C", "10S"))
    append(match_a, [card_played("9B")])

    events = read_all(after=start)
    assert [(e.stream_id, e.payload["card"]) for e in events] == [
        (match_a, "1D"),
        (match_b, "3C"),
        (match_b, "10S"),
        (match_a, "9B"),
    ]
    positions = [e.global_position for e in events]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)


def test_read_all_starts_after_the_given_position_and_stops_at_the_limit() -> None:
    start = last_position()
    positions = [
        e.global_position for e in append(events=cards_played("1D", "3C", "10S", "9B")).events
    ]

    assert [e.global_position for e in read_all(after=start, limit=2)] == positions[:2]
    assert [e.global_position for e in read_all(after=positions[1], limit=10)] == positions[2:]
    assert read_all(after=positions[-1]) == []


def test_read_all_can_follow_only_some_stream_types() -> None:
    start = last_position()
    append(stream_type="match")
    tournament_event = append(stream_type="tournament").events[0]
    append(stream_type="match")
    club_event = append(stream_type="club").events[0]

    assert read_all(after=start, stream_types=["tournament"]) == [tournament_event]
    assert read_all(after=start, stream_types=["club", "tournament"]) == [
        tournament_event,
        club_event,
    ]
    assert read_all(after=start, stream_types=[]) == []


def test_iter_all_yields_the_whole_log_in_order_a_batch_at_a_time() -> None:
    start = last_position()
    for _ in range(7):
        append(events=cards_played("1D", "3C", "10S"))

    everything = list(iter_all(after=start, batch_size=4))
    exact_batches = list(iter_all(after=start, batch_size=21))

    assert len(everything) == 21
    assert everything == read_all(after=start, limit=100)
    assert exact_batches == everything
    assert list(iter_all(after=everything[9].global_position, batch_size=4)) == everything[10:]


def test_iter_all_can_follow_only_some_stream_types() -> None:
    start = last_position()
    for stream_type in ["match", "tournament"] * 5:
        append(stream_type=stream_type)

    tournaments = list(iter_all(after=start, batch_size=2, stream_types=["tournament"]))

    assert [e.stream_type for e in tournaments] == ["tournament"] * 5


def test_the_last_position_is_the_position_of_the_last_event_appended() -> None:
    result = append(events=cards_played("1D", "3C"))

    assert last_position() == result.last_position


def test_the_last_position_of_some_streams_ignores_the_others() -> None:
    first, second, other = new_stream_id(), new_stream_id(), new_stream_id()
    append(stream_id=first, events=cards_played("1D"))
    last = append(stream_id=second, events=cards_played("3C", "2S"))
    append(stream_id=other, events=cards_played("4B"))

    assert last_position_of_streams(stream_ids=[first, second]) == last.last_position
    assert last_position_of_streams(stream_ids=[new_stream_id()]) == 0
    assert last_position_of_streams(stream_ids=[]) == 0


@pytest.mark.parametrize(("after", "limit"), [(-1, 10), (0, 0)])
def test_read_all_refuses_a_negative_position_or_an_empty_page(after: int, limit: int) -> None:
    with pytest.raises(ValueError, match=r"at least 1|start at 1"):
        read_all(after=after, limit=limit)
