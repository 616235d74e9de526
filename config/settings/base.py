"""Settings shared by every environment; each value can be set from the environment."""

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from common.parsing import ascii_int

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("SECRET_KEY", default="insecure-local-development-key-change-me")
# Signs `manage.py log_digest` records (docs/decisions/0035-hash-chained-log.md).
LOG_DIGEST_KEY = env("LOG_DIGEST_KEY", default=SECRET_KEY)
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_htmx",
    "django_prometheus",
    "common",
    "accounts",
    "games",
    "games.eventstore",
    "tournaments",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "common.observability.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "common.exceptions.ApiErrorEnvelopeMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/briscola"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
# A connection kept between requests is checked before a request reuses it, and replaced if the
# server dropped it (a database restart): without this, the first request on each stale
# connection answered 500.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Under the ASGI server (uvicorn, `make run` and the image: docs/decisions/0051-async-feeds.md)
# Django runs each synchronous request in a thread of its own, so a connection kept by a thread
# would outlive it: the web process takes its connections from one pool instead, at most
# DATABASE_POOL_SIZE, each returned at the request's end (or after a feed's read). 0 (the
# default, the worker and the tests) keeps Django's connection per thread, kept CONN_MAX_AGE.
DATABASE_POOL_SIZE = env.int("DATABASE_POOL_SIZE", default=0)
if DATABASE_POOL_SIZE > 0:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # a pooled connection goes back at the request's end
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
        # An idle connection above min_size is closed every DATABASE_POOL_MAX_IDLE seconds (a
        # minute; the fault suite shortens it to watch the pool shrink back to its floor).
        "max_idle": env.float("DATABASE_POOL_MAX_IDLE", default=60.0),
        # CONN_HEALTH_CHECKS makes Django check each connection the pool hands out.
    }
# Under the ASGI server every request but an event stream runs on one of a web process's
# WEB_REQUEST_THREADS threads (config/asgi.py); more requests wait for a thread, not for a
# connection. As many as the pool's connections by default: the threads keep the pool busy.
WEB_REQUEST_THREADS = env.int("WEB_REQUEST_THREADS", default=max(DATABASE_POOL_SIZE, 8))
# Of those, how many serve only commands (requests that write, as a scorer's card): the reads
# (pages, API reads) take the others, commands first whatever is waiting (decision 0068).
WEB_THREADS_KEPT_FOR_COMMANDS = env.int("WEB_THREADS_KEPT_FOR_COMMANDS", default=2)
# How often (seconds) a web process's thread holding the interpreter lets another have it.
WEB_SWITCH_INTERVAL = env.float("WEB_SWITCH_INTERVAL", default=0.001)
# The cyclic garbage collector's thresholds in a web process (gc.set_threshold): a young pass
# after this many more allocations than frees, an older one after so many young ones, a full
# one after so many older ones. Python's (700, 10, 10) made a full pass, which holds the
# interpreter 100 to 400 ms under a thousand followers, every few seconds; young passes stay
# short (decision 0068).
WEB_GC_THRESHOLDS = tuple(env.list("WEB_GC_THRESHOLDS", cast=int, default=[1000, 20, 100]))
# Statements sent with server-side binding (the event store's append, alone) are prepared once
# per connection after this many uses; Django's own cursors bind on the client and never are.
# "none" turns preparing off (a pooler in transaction mode shares server sessions).
PREPARE_THRESHOLD = str(env.str("DATABASE_PREPARE_THRESHOLD", default="5")).strip()
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
    None if PREPARE_THRESHOLD.lower() in {"", "none", "off"} else int(PREPARE_THRESHOLD)
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The pages follow the browser's Accept-Language (LocaleMiddleware), with a switch on every page.
LANGUAGES = [("en", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
TIME_ZONE = env("TIME_ZONE", default="Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "config" / "static"]
# WhiteNoise serves static files straight from gunicorn (web, `make run` and tests alike); outside
# production it finds them where they lie, so no `collectstatic` is needed.
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Request size: the API's bodies are a few hundred bytes and the admin's forms little more (its
# CSV import is a file, which does not count). A bigger body is refused before it is read (413
# `request_too_large` under /api/), and so is a query string or form with too many parameters.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=256 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DATA_UPLOAD_MAX_NUMBER_FIELDS", default=1000)

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")


def next_redis_database(url: str) -> str:
    """The same Redis server, the database after the URL's (redis://h:6379/0 -> .../1)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{number + 1}"))


CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL)
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Longer than any countdown we schedule, so a delayed task is not redelivered early.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 60 * 60}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Periodic tasks live in code, reviewed with it; the DatabaseScheduler copies them into
# django-celery-beat's table (and the admin) when beat starts. It reads expire_seconds, not
# expires: a tick not started within 25 s is dropped, the next one comes 5 s later.
CELERY_BEAT_SCHEDULE = {
    "tournaments-catch-up": {
        "task": "tournaments.tasks.catch_up",
        "schedule": env.float("CELERY_CATCH_UP_SECONDS", default=30.0),
        "options": {"expire_seconds": 25},
    },
    "tournaments-webhooks-catch-up": {
        "task": "tournaments.webhooks.catch_up",
        "schedule": env.float("WEBHOOK_CATCH_UP_SECONDS", default=60.0),
        "options": {"expire_seconds": 50},
    },
}
# The modules that define tasks, imported by every worker: `autodiscover_tasks()` imports only
# each app's `tasks` module, and `tournaments.tasks` is a package that re-exports nothing.
CELERY_IMPORTS = ["tournaments.tasks.running", "tournaments.webhooks.tasks"]
# Ours, not a Celery option: enqueue the tournament tasks after a commit (consumer wake-ups,
# scheduling, no-show deadlines). Off, only the catch-up moves tournaments along.
CELERY_WAKE_UPS = env.bool("CELERY_WAKE_UPS", default=True)
# Outgoing webhooks (docs/decisions/0039-outgoing-webhooks.md): a delivery's timeout, the first
# retry's delay (doubled after each failed attempt), the attempts before it is marked failed, and
# whether addresses on private, loopback or link-local networks may receive them (dev and tests).
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
WEBHOOK_BACKOFF_SECONDS = env.float("WEBHOOK_BACKOFF_SECONDS", default=30.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=8)
# Deliveries answered 2xx are kept this long in the admin's log, then forgotten by the catch-up.
WEBHOOK_DELIVERED_KEPT_DAYS = env.float("WEBHOOK_DELIVERED_KEPT_DAYS", default=30.0)
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
# Who may read /metrics (config/metrics.py): networks in CIDR notation.
METRICS_ALLOWED_NETWORKS: list[str] = env.list(
    "METRICS_ALLOWED_NETWORKS", default=["127.0.0.0/8", "::1/128"]
)
# /healthz answers 503 when the oldest event the consumer has not read waited longer than this.
HEALTH_CONSUMER_MAX_LAG_SECONDS = env.int("HEALTH_CONSUMER_MAX_LAG_SECONDS", default=120)
# The rendered standings, brackets and match lists each web process keeps, by their ETag, in
# bytes (tournaments/api/conditional.py, decision 0010).
TOURNAMENT_READ_CACHE_BYTES = env.int("TOURNAMENT_READ_CACHE_BYTES", default=32 * 2**20)
# The tournament pages' live parts each web process keeps rendered, by their ETag, in bytes
# (tournaments/pages/views.py, decision 0068).
TOURNAMENT_PAGE_CACHE_BYTES = env.int("TOURNAMENT_PAGE_CACHE_BYTES", default=16 * 2**20)
# The folded match and tournament streams each web process keeps (games/folded.py,
# tournaments/folded.py): a club evening has a few hundred matches and a few tournaments.
MATCH_MEMO_CAPACITY = env.int("MATCH_MEMO_CAPACITY", default=2048)
TOURNAMENT_MEMO_CAPACITY = env.int("TOURNAMENT_MEMO_CAPACITY", default=64)
# The server-sent event streams of matches and tournaments (games/api/streaming.py, decisions
# 0038 and 0051): one listener per web process hears each append (LISTEN/NOTIFY) and each feed
# followed in the process reads the log once for all its followers, also every
# FEED_POLL_SECONDS in case a notification was lost; a stream sends a keep-alive comment after
# FEED_KEEPALIVE_SECONDS of quiet and ends after FEED_STREAM_SECONDS, telling the client to
# reconnect FEED_RETRY_MILLISECONDS later (with Last-Event-ID: nothing is missed).
FEED_POLL_SECONDS = env.float("FEED_POLL_SECONDS", default=5.0)
# Woken, a feed waits this long before it reads, so that the appends of a busy moment (a card
# every few milliseconds at a hundred tables) reach its followers in one batch: each follower's
# cost is per batch, far more than per event. Half a second halves a thousand followers' cost
# against 0.2 s, well inside the feeds' 2 s delivery target (decision 0068).
FEED_GATHER_SECONDS = env.float("FEED_GATHER_SECONDS", default=0.5)
FEED_KEEPALIVE_SECONDS = env.float("FEED_KEEPALIVE_SECONDS", default=15.0)
FEED_STREAM_SECONDS = env.float("FEED_STREAM_SECONDS", default=30.0)
FEED_RETRY_MILLISECONDS = env.int("FEED_RETRY_MILLISECONDS", default=1000)
# At most this many open streams per client address and per web process: one more is refused
# with 429 `too_many_streams` and a Retry-After of FEED_BUSY_RETRY_SECONDS.
FEED_STREAMS_PER_ADDRESS = env.int("FEED_STREAMS_PER_ADDRESS", default=4)
FEED_STREAMS_PER_PROCESS = env.int("FEED_STREAMS_PER_PROCESS", default=2000)
FEED_BUSY_RETRY_SECONDS = env.int("FEED_BUSY_RETRY_SECONDS", default=10)
# A follower that has this many batches of events waiting (it reads too slowly) is dropped:
# its stream ends, and it resumes from the log with Last-Event-ID.
FEED_FOLLOWER_BACKLOG = env.int("FEED_FOLLOWER_BACKLOG", default=64)
# Seconds a process keeps a token and a user's roles it checked, while no token or role was
# withdrawn since (accounts.credentials, decision 0032); 0 turns it off.
AUTH_TOKEN_CACHE_SECONDS = env.float("AUTH_TOKEN_CACHE_SECONDS", default=10.0)
# A request never waits on Redis (docs/decisions/0021-wake-ups-never-wait-on-redis.md): those
# sends (tournaments/tasks/publishing.py) and the cache below wait at most REDIS_TIMEOUT seconds to
# connect and as many for an answer, and after a failure this process skips Redis for
# REDIS_FAILURE_PAUSE seconds (beat's catch-up does the skipped wake-ups' work, the throttles
# let requests through). The worker's own broker connection waits, by design.
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=0.1)
REDIS_FAILURE_PAUSE = env.float("REDIS_FAILURE_PAUSE", default=30.0)

# Throttling and the sign-in lockout count in this cache, which every worker and machine shares:
# the next database of REDIS_URL's server (so clearing the cache never empties Celery's queues),
# unless CACHE_REDIS_URL names another one.
# Short socket timeouts: when Redis is away, the throttles let requests through (logged) rather
# than hang them (docs/decisions/0014-throttling.md); and after a failure the cache is skipped
# for `failure_pause` seconds rather than waited on by every request (common/cache.py, 0021).
CACHES = {
    "default": {
        "BACKEND": "common.cache.RedisCache",
        "LOCATION": env("CACHE_REDIS_URL", default=next_redis_database(REDIS_URL)),
        "KEY_PREFIX": "cache",
        "OPTIONS": {
            "socket_connect_timeout": REDIS_TIMEOUT,
            "socket_timeout": REDIS_TIMEOUT,
            "failure_pause": REDIS_FAILURE_PAUSE,
        },
    },
}

RATE_PERIODS = {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}


def throttle_rate(variable: str, default: str) -> str | None:
    """A DRF rate ("600/min") from the environment; "none" or "off" switches the scope off."""
    rate = str(env.str(variable, default=default)).strip()
    if rate.lower() in {"", "none", "off"}:
        return None
    number, _, period = rate.partition("/")
    if ascii_int(number) is None or period not in RATE_PERIODS:
        raise ImproperlyConfigured(f"{variable}={rate!r}: give a rate like 600/min, or none")
    return rate


# Requests per client per window (docs/decisions/0014-throttling.md): `user` per device token,
# or per user for user tokens and sessions; `anon` and `login` per client address. A scorer
# enters a card every 2 s or so (30 writes and as many reads a minute), with bursts of several a
# second after a mistake; spectators' phones at a club share its one public address. Override
# with API_THROTTLE_USER etc. (`none` for bench/append.py, whose 8 clients share one token).
API_THROTTLE_RATES = {
    "anon": throttle_rate("API_THROTTLE_ANON", "600/min"),
    "user": throttle_rate("API_THROTTLE_USER", "1200/min"),
    "login": throttle_rate("API_THROTTLE_LOGIN", "10/min"),
    "token": throttle_rate("API_THROTTLE_TOKEN", "30/min"),
    "signup": throttle_rate("API_THROTTLE_SIGNUP", "30/hour"),
}

# Sign-in lockout (accounts/login.py, decision 0033): within the window, this many failed
# sign-ins for one username from one address lock that username at that address only (so a
# stranger elsewhere cannot lock the organizer out); this many for one username from anywhere
# lock it everywhere (the ceiling against guessing from many addresses); this many from one
# address, whatever the usernames, lock that address. A lock lasts the cool-down; a successful
# sign-in forgets the username's failures at its address.
LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS = env.int(
    "LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS", default=5
)
LOGIN_FAILURES_PER_USERNAME = env.int("LOGIN_FAILURES_PER_USERNAME", default=50)
LOGIN_FAILURES_PER_ADDRESS = env.int("LOGIN_FAILURES_PER_ADDRESS", default=20)
LOGIN_FAILURE_WINDOW = env.int("LOGIN_FAILURE_WINDOW", default=15 * 60)
LOGIN_LOCKOUT_SECONDS = env.int("LOGIN_LOCKOUT_SECONDS", default=15 * 60)

# Where the browsable API's sign-in leads when it was not sent from a page (config/urls.py).
LOGIN_REDIRECT_URL = "/api/v1/tournaments/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # A player key (`Token pk_…`) first: any other token goes on to the accounts' own.
        "tournaments.api.authentication.PlayerKeyAuthentication",
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Every view says who may use it (accounts/permissions.py); one that does not refuses all.
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.Undeclared"],
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttling.AnonymousRateThrottle",
        "accounts.throttling.ClientRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": API_THROTTLE_RATES,
    # The client address is REMOTE_ADDR unless the app runs behind this many proxies that append
    # to X-Forwarded-For (a load balancer: 1); anything else a client could forge.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "common.api.browsable.BrowsableApi",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.exceptions.api_exception_handler",
}

API_DOMAIN_ERRORS = [
    "games.rules.errors.RuleViolation",
    "tournaments.formats.errors.FormatError",
    "tournaments.standings.errors.StandingsError",
    "accounts.services.AccountsError",
    "games.eventstore.api.EventStoreError",
]
"""The errors a client can cause and fix: the API answers each with its `code` and its detail in
the request's language (common/exceptions.py)."""

ADMIN_REFUSALS = ["games.rules.errors.RuleViolation", "games.eventstore.api.EventStoreError"]
"""The errors an organizer's action can meet and fix: the admin shows them as a message on the
page, not a 500 (common/admin.py)."""
ADMIN_ORGANIZER_SCOPE = "tournaments.selectors.organizing"
"""The module that says what a user organizes: the console shows and runs nothing else
(common/admin.py, decision 0040)."""

SPECTACULAR_SETTINGS = {
    "TITLE": "briscola-tournaments API",
    "DESCRIPTION": "Scorer, tournament and public read API of briscola-tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API's PATCH bodies are read whole (common.api.serializing.validated_input), with their
    # required fields, not as DRF's partial updates: the schema says them as they are read.
    "COMPONENT_SPLIT_PATCH": False,
}

# One JSON object a line, with the request id (common/observability.py); LOG_FORMAT=text for
# plain lines. Celery keeps this configuration instead of installing its own.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "common.observability.JsonLinesFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": env("LOG_FORMAT", default="json"),
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
