import sys
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from tournaments.services.archive import ArchiveRefused, archive_read, tournament_archive_import


class Command(BaseCommand):
    help = (
        "Import a tournament archive written by `manage.py export_tournament` (or downloaded "
        "from the API's `archive/`): its events are appended with the same stream ids, "
        "versions, payloads, metadata and times, in the same order; its names are written; "
        "then every projection is rebuilt (`rebuild_projections`). Refused, with nothing "
        "written, if the tournament, its streams or its entrant or player ids exist here already."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The archive (.jsonl); `-` reads standard input.")
        parser.add_argument("--quiet", action="store_true", help="No progress bars.")

    def handle(self, *args: Any, **options: Any) -> None:
        quiet = options["quiet"]
        try:
            if options["file"] == "-":
                archive = archive_read(sys.stdin)
            else:
                with Path(options["file"]).open(encoding="utf-8") as lines:
                    archive = archive_read(lines)
            with tqdm(
                total=len(archive.events),
                desc="import",
                unit=" events",
                file=self.stderr._out,  # not the wrapper: it styles stderr red, a line per write
                disable=quiet,
                mininterval=0.5,
            ) as bar:
                imported = tournament_archive_import(
                    archive=archive, on_event=lambda: bar.update(1)
                )
        except OSError as error:
            raise CommandError(f"Cannot read the archive: {error}") from None
        except ArchiveRefused as error:
            raise CommandError(f"Not imported: {error.detail}.") from None
        club = f", club {imported.club}" if imported.club else ", no club here"
        self.stdout.write(
            f"Imported tournament {imported.tournament_id}: {imported.events} events in "
            f"{imported.streams} streams, {imported.entrants} entrants, {imported.players} players"
            f"{club}."
        )
        call_command(
            "rebuild_projections",
            *(["--quiet"] if quiet else []),
            stdout=self.stdout,
            stderr=self.stderr,
        )
