from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.progress import event_progress
from games.matches.rebuilding import registered_projectors, verify


class Command(BaseCommand):
    help = (
        "Fold the event log in memory and compare it with the live match projections, then "
        "every registered projection built on them; exit status 1 when any differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        with event_progress(self.stderr, quiet=options["quiet"], label="verify") as tick:
            differences = verify(on_event=tick)
        for projector in registered_projectors():
            differences.extend(projector.verify())
        for difference in differences:
            self.stdout.write(difference)
        if differences:
            raise CommandError(f"{len(differences)} differences between the log and projections.")
        names = ", ".join(["match", *(p.name for p in registered_projectors())])
        self.stdout.write(f"The projections ({names}) agree with the log.")
