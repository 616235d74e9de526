"""A database cursor that binds its parameters on the server, for the few statements every card
or every poll runs.

Django's psycopg cursors bind on the client: each value is quoted into the SQL text, and
PostgreSQL parses and plans the text afresh each time. A cursor that sends the parameters apart
(psycopg's server-side binding) quotes nothing, and a statement it sends is prepared once per
connection after `prepare_threshold` uses (the settings), so PostgreSQL stops planning it. It
takes one statement at a time (the extended protocol): several statements in one string, such
as the event store's append inside a savepoint, keep Django's cursor. Wrapped as Django wraps
its own, so query logging, the tests' query counts and execute wrappers see it.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection


def server_bound_cursor() -> Any:
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)  # type: ignore[arg-type]  # any DB-API cursor
    return connection.make_cursor(raw)  # type: ignore[arg-type]
