"""Tests: the real PostgreSQL and Redis, fast password hashing."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, env

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["CONN_MAX_AGE"] = 0
# TEST_DATABASE_NAME and TEST_CELERY_BROKER_URL let two checkouts on one machine run their
# suites at the same time without emptying each other's database or Redis.
DATABASES["default"]["TEST"] = {"NAME": env("TEST_DATABASE_NAME", default="test_briscola")}
# The event store's triggers reject TRUNCATE unless this session setting is on, and Django's
# transactional tests empty tables with TRUNCATE (docs/decisions/0003-event-store.md).
_database_options = DATABASES["default"].setdefault("OPTIONS", {})
_database_options["options"] = (
    f"{_database_options.get('options', '')} -c eventstore.allow_truncate=on".strip()
)

# A Redis database of their own (flushed by the worker tests) and no wake-ups: tests without a
# worker enqueue nothing. The worker tests switch wake-ups on (tests/tournaments/tasks/).
CELERY_BROKER_URL = env("TEST_CELERY_BROKER_URL", default="redis://127.0.0.1:6379/15")
# Under pytest-xdist (`make test`: workers gw0, gw1, ...) each worker has its own test database
# (pytest-django adds the suffix) and its own Redis database: the given one for gw0, the one
# below it for gw1, and so on.
# The processes a test starts (Celery workers, commands) inherit the worker's own URL, marked as
# such, and keep it.
_xdist_worker = env("PYTEST_XDIST_WORKER", default="")
if (
    _xdist_worker.startswith("gw")
    and _xdist_worker[2:].isdigit()
    and not env.bool("TEST_CELERY_BROKER_OF_WORKER", default=False)
):
    _broker_base, _, _broker_db = CELERY_BROKER_URL.rpartition("/")
    CELERY_BROKER_URL = f"{_broker_base}/{int(_broker_db) - int(_xdist_worker[2:])}"
    os.environ["TEST_CELERY_BROKER_URL"] = CELERY_BROKER_URL
    os.environ["TEST_CELERY_BROKER_OF_WORKER"] = "1"
CELERY_RESULT_BACKEND = CELERY_BROKER_URL
CELERY_WAKE_UPS = env.bool("CELERY_WAKE_UPS", default=False)
# Webhooks go to a receiver on the loopback, retried within moments.
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
WEBHOOK_TIMEOUT_SECONDS = 5.0
WEBHOOK_BACKOFF_SECONDS = env.float("WEBHOOK_BACKOFF_SECONDS", default=0.05)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=4)
# The worker tests start workers that must find a killed worker's message quickly.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=6 * 60 * 60),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}

# The throttles and the sign-in lockout count in this process's memory, so no test run sees
# another's counts; every test starts with it empty (tests/conftest.py). The rates are the
# deployed defaults: the suite must pass under them.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "briscola-tests",
    },
}

# Static files come from the finders (base.py); nothing is collected, so WhiteNoise has no
# collected directory to look in (it would warn once per request handler without this).
STATIC_ROOT = None

# Event streams end quickly, so that a test (or the API fuzz) reading one to its end is not held:
# the streaming tests set their own times.
FEED_POLL_SECONDS = 0.02
FEED_GATHER_SECONDS = 0.02
FEED_KEEPALIVE_SECONDS = 15.0
FEED_STREAM_SECONDS = 0.1
FEED_RETRY_MILLISECONDS = 1000
