import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.management.progress import event_progress
from games.matches.rebuilding import rebuild, rebuild_registered


@contextmanager
def cyclic_collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the rebuild: the folded states and the rows
    written are many small objects alive until the end, which each of its passes walks again
    for nothing (a fifth of a rebuild's time); what the rebuild drops is freed by reference
    counting all the same. On again at the end, as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Command(BaseCommand):
    help = (
        "Drop the match projections and refill them from the event log, then every registered "
        "projection built on them (tournament rows, brackets and standings, ratings)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        with cyclic_collector_paused():
            self.rebuild(quiet=options["quiet"])

    def rebuild(self, *, quiet: bool) -> None:
        started = time.perf_counter()
        with event_progress(self.stderr, quiet=quiet, label="rebuild") as tick:
            matches = rebuild(on_event=tick)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rebuilt {matches} matches from the log in {seconds:.1f} s.")
        for step in rebuild_registered():
            if step.written is None:
                self.stdout.write(f"Read and folded the {step.name} in {step.seconds:.1f} s.")
                continue
            self.stdout.write(
                f"Rebuilt the {step.name} projections ({step.written} written) "
                f"in {step.seconds:.1f} s."
            )
