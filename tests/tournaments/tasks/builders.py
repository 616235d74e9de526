"""A second database session for the task tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connections


@contextmanager
def other_session() -> Iterator[psycopg.Connection[Any]]:
    """A second connection to the test database, outside Django, with a transaction open;
    rolled back and closed on exit."""
    db = connections["default"].settings_dict
    connection = psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
    )
    try:
        yield connection
    finally:
        connection.rollback()
        connection.close()
