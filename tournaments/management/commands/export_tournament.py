from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from tournaments.errors import TournamentNotFound
from tournaments.services.archive import tournament_archive_lines


class Command(BaseCommand):
    help = (
        "Write a tournament as a JSON Lines archive on standard output: every event of its "
        "stream and of its matches' streams, in global order, and the names they refer to. "
        "`manage.py import_tournament FILE` reads it on another instance."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=UUID, help="The tournament's id.")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lines = tournament_archive_lines(tournament_id=options["tournament"])
            with tqdm(
                desc="export",
                unit=" lines",
                file=self.stderr._out,  # not the wrapper: it styles stderr red, a line per write
                disable=options["quiet"],
                mininterval=0.5,
            ) as bar:
                for line in lines:
                    self.stdout.write(line, ending="")
                    bar.update(1)
        except TournamentNotFound as error:
            raise CommandError(error.detail) from None
