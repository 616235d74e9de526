"""A progress bar over the match events of the log, for the projection commands."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.core.management.base import OutputWrapper
from django.db import connection
from tqdm import tqdm

from games.eventstore.models import Event
from games.matches.projections import MATCH_STREAM


def match_event_count() -> int:
    """A fast estimate is not enough for a progress bar that must end at 100%: count them."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {Event._meta.db_table} WHERE stream_type = %s",  # noqa: S608 - constant table names; values are bound
            [MATCH_STREAM],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


@contextmanager
def event_progress(
    stream: OutputWrapper, *, quiet: bool, label: str, total: int | None = None
) -> Iterator[Callable[[], None]]:
    """Yields a callback to call once per event folded (`total`: the match events by default).

    The bar writes to the stream under the command's wrapper: the wrapper styles stderr as an
    error (red on a terminal) and ends every write with a newline, which would print each
    refresh of the bar on a line of its own. Quiet, nothing is counted: no bar shows the
    count, and counting the events of a long log is a scan of it."""
    if quiet:
        yield lambda: None
        return
    bar = tqdm(
        total=match_event_count() if total is None else total,
        desc=label,
        unit=" events",
        unit_scale=True,
        file=stream._out,
        mininterval=0.5,
    )
    try:
        yield lambda: bar.update(1)
    finally:
        bar.close()
