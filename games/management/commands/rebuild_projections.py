import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.management.progress import event_progress
from games.matches.rebuilding import rebuild, registered_projectors


class Command(BaseCommand):
    help = (
        "Drop the match projections and refill them from the event log, then every registered "
        "projection built on them (tournament brackets and standings)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        with event_progress(self.stderr, quiet=options["quiet"], label="rebuild") as tick:
            matches = rebuild(on_event=tick)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rebuilt {matches} matches from the log in {seconds:.1f} s.")
        for projector in registered_projectors():
            started = time.perf_counter()
            written = projector.rebuild()
            seconds = time.perf_counter() - started
            self.stdout.write(
                f"Rebuilt the {projector.name} projections ({written} written) in {seconds:.1f} s."
            )
