from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.progress import event_progress
from games.projections import verify


class Command(BaseCommand):
    help = (
        "Fold the event log in memory and compare it with the live match projections; "
        "exit status 1 when they differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        with event_progress(self.stderr, quiet=options["quiet"], label="verify") as tick:
            differences = verify(on_event=tick)
        for difference in differences:
            self.stdout.write(difference)
        if differences:
            raise CommandError(f"{len(differences)} differences between the log and projections.")
        self.stdout.write("The match projections agree with the log.")
