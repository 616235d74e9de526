from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.eventstore.chain import broken_links, event_count, head_position
from games.management.progress import event_progress


class Command(BaseCommand):
    help = (
        "Recompute every stream's hash chain and report the first broken link of each stream; "
        "exit status 1 when any is broken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        position = head_position()
        with event_progress(
            self.stderr, quiet=options["quiet"], label="verify", total=event_count(position)
        ) as tick:
            broken = broken_links(position=position, on_event=tick)
        for link in broken:
            self.stdout.write(
                f"stream {link.stream_id}: broken at version {link.stream_version} "
                f"(global position {link.global_position})"
            )
        if broken:
            raise CommandError(f"{len(broken)} streams with a broken hash chain.")
        self.stdout.write(f"Every hash chain holds, up to global position {position}.")
