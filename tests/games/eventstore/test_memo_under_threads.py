"""The per-process memo of folded streams (`games.eventstore.memo.StreamMemo`) is shared by
every thread of a gunicorn gthread worker: remembering, recalling and forgetting at once must
neither raise nor leave it beyond its capacity or holding an older state over a newer one."""

from __future__ import annotations

import uuid

from games.eventstore.memo import Folded, StreamMemo
from tests.threads import hammered

STREAMS = [uuid.UUID(int=number) for number in range(12)]
CAPACITY = 8


def test_eight_threads_remembering_recalling_and_forgetting_at_once_raise_nothing() -> None:
    memo: StreamMemo[str] = StreamMemo(CAPACITY)

    def work(thread: int, step: int) -> None:
        stream_id = STREAMS[(thread + step) % len(STREAMS)]
        if step % 3 == 0:
            memo.remember(stream_id, Folded(f"state {step}", step, step))
        elif step % 3 == 1:
            memo.recall(stream_id)
        else:
            memo.forget(stream_id)

    assert hammered(work, threads=8, steps=20_000) == []
    assert len(memo.entries) <= CAPACITY


def test_a_state_remembered_is_never_replaced_by_an_older_one_from_another_thread() -> None:
    memo: StreamMemo[int] = StreamMemo(CAPACITY)
    stream_id = STREAMS[0]

    def work(thread: int, step: int) -> None:
        version = step * 8 + thread
        memo.remember(stream_id, Folded(version, version, version))
        remembered = memo.recall(stream_id)
        assert remembered is not None
        assert remembered.version >= version

    assert hammered(work, threads=8, steps=40_000) == []
