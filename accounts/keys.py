"""Device token keys: how they are made, told apart from the older user tokens, and hashed.

A key is `dt_` and 43 URL-safe characters (32 random bytes). Only its SHA-256 is stored, with the
first characters (`dt_` and 8 more) in clear, so a key can be recognised in a list or an event's
metadata without being usable. A slow password hash would add nothing: with 256 random bits a key
cannot be guessed from its hash, and a fast hash keeps the lookup an index search per request.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

from django.utils.crypto import salted_hmac

DEVICE_KEY_PREFIX = "dt_"
"""The older tokens (`rest_framework.authtoken`) are 40 hexadecimal digits: never this."""

VISIBLE_LENGTH = len(DEVICE_KEY_PREFIX) + 8
KEY_BYTES = 32


def new_device_key() -> str:
    return DEVICE_KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)


def derived_device_key(*, purpose: str) -> str:
    """A key the server can make again, from its SECRET_KEY and `purpose` only (the way Django
    makes password reset tokens): shaped like a random key, 256 bits no one can guess without
    the secret. Stored like any key, by its hash. A table card shows its key again this way
    (tournaments/services/table_cards.py)."""
    digest = salted_hmac("accounts.keys.derived_device_key", purpose, algorithm="sha256").digest()
    return DEVICE_KEY_PREFIX + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def is_device_key(key: str) -> bool:
    return key.startswith(DEVICE_KEY_PREFIX)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def visible_prefix(key: str) -> str:
    return key[:VISIBLE_LENGTH]
