"""Tests: the real PostgreSQL and Redis, fast password hashing."""

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["CONN_MAX_AGE"] = 0
DATABASES["default"]["TEST"] = {"NAME": "test_briscola"}
# The event store's triggers reject TRUNCATE unless this session setting is on, and Django's
# transactional tests empty tables with TRUNCATE (docs/decisions/0003-event-store.md).
_database_options = DATABASES["default"].setdefault("OPTIONS", {})
_database_options["options"] = (
    f"{_database_options.get('options', '')} -c eventstore.allow_truncate=on".strip()
)
