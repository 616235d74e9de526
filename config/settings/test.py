"""Tests: the real PostgreSQL and Redis, fast password hashing."""

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["CONN_MAX_AGE"] = 0
DATABASES["default"]["TEST"] = {"NAME": "test_briscola"}
