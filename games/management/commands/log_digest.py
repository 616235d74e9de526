import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.eventstore.chain import (
    event_count,
    head_digest,
    head_position,
    sign_digest,
    signature_matches,
)
from games.management.progress import event_progress


class Command(BaseCommand):
    help = (
        "Print a signed digest of the log's head (JSON: position, digest, signature), or with "
        "--check FILE verify a saved digest against the log up to its position."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", metavar="FILE", help="A digest printed earlier.")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        key = str(settings.LOG_DIGEST_KEY)
        saved: dict[str, Any] | None = None
        if options["check"]:
            saved = json.loads(Path(options["check"]).read_text(encoding="utf-8"))
            if not isinstance(saved, dict) or not signature_matches(saved, key=key):
                raise CommandError("The saved digest's signature does not match this key.")
            position = int(saved["position"])
        else:
            position = head_position()
        with event_progress(
            self.stderr, quiet=options["quiet"], label="digest", total=event_count(position)
        ) as tick:
            digest = head_digest(position=position, on_event=tick)
        if saved is None:
            record = sign_digest(position=position, digest=digest, key=key)
            self.stdout.write(json.dumps(record, sort_keys=True))
            return
        if digest != saved["digest"]:
            raise CommandError(f"The log up to position {position} has changed since the digest.")
        self.stdout.write(f"The log up to position {position} matches the saved digest.")
