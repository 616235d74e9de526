"""System checks for what the append relies on in the database connection settings."""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register
from django.db import DEFAULT_DB_ALIAS


@register()
def check_the_append_can_send_several_statements_at_once(**kwargs: Any) -> list[CheckMessage]:
    database = settings.DATABASES.get(DEFAULT_DB_ALIAS, {})
    return binding_errors(engine=database.get("ENGINE", ""), options=database.get("OPTIONS", {}))


def binding_errors(*, engine: str, options: Mapping[str, Any]) -> list[CheckMessage]:
    # Inside a caller's transaction, append_to_stream sends its savepoint, the append and the
    # release in one string: that takes client-side parameter binding, the psycopg 3 default.
    if engine == "django.db.backends.postgresql" and options.get("server_side_binding") is True:
        return [
            Error(
                "The event store needs client-side parameter binding.",
                hint=(
                    "Remove OPTIONS['server_side_binding'] from the default database: "
                    "games.eventstore sends a savepoint, an append and its release in one "
                    "round trip, which server-side binding refuses."
                ),
                id="eventstore.E001",
            )
        ]
    return []
