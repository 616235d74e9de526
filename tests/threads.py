"""Threads started together on one piece of work, switching as often as the interpreter lets
them, so that a structure shared without a lock shows it within a few thousand steps."""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SWITCH_INTERVAL_SECONDS = 1e-6
"""How often a running thread is asked to let another run (CPython's default is 5 ms)."""


@contextmanager
def switching_often() -> Iterator[None]:
    """Threads switch every microsecond or so inside the block, as often as on a busy server."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def hammered(work: Callable[[int, int], object], *, threads: int, steps: int) -> list[str]:
    """Run `work(thread, step)` for `steps` steps in each of `threads` threads started at once;
    the errors raised (one per thread at most: a thread stops at its first), as tracebacks."""
    start = threading.Barrier(threads)
    errors: list[str] = []

    def run(thread: int) -> None:
        start.wait()
        try:
            for step in range(steps):
                work(thread, step)
        except Exception:  # every error is the finding, reported to the test
            errors.append(traceback.format_exc())

    workers = [threading.Thread(target=run, args=(n,), name=f"hammer-{n}") for n in range(threads)]
    with switching_often():
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return errors
