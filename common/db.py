"""A database cursor that binds its parameters on the server, for the few statements every card
or every poll runs; and rows written with COPY, for the rebuilds.

Django's psycopg cursors bind on the client: each value is quoted into the SQL text, and
PostgreSQL parses and plans the text afresh each time. A cursor that sends the parameters apart
(psycopg's server-side binding) quotes nothing, and a statement it sends is prepared once per
connection after `prepare_threshold` uses (the settings), so PostgreSQL stops planning it. It
takes one statement at a time (the extended protocol): several statements in one string, such
as the event store's append inside a savepoint, keep Django's cursor. Wrapped as Django wraps
its own, so query logging, the tests' query counts and execute wrappers see it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.fields import AutoFieldMixin
from psycopg import sql


def server_bound_cursor() -> Any:
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)  # type: ignore[arg-type]  # any DB-API cursor
    return connection.make_cursor(raw)  # type: ignore[arg-type]


def copy_rows(model: type[models.Model], rows: Sequence[models.Model]) -> int:
    """Insert `rows` (instances of `model`, not saved) with one COPY; returns how many. Each
    value is prepared as `bulk_create` prepares it (a JSON field's value dumped by its encoder),
    so the rows stored are the same; an auto-incremented key is left to its sequence. For the
    rebuilds, which write thousands of rows at once: `bulk_create` spends longer building its
    statement than PostgreSQL running it. A sequence, not a lazy iterable: the connection is
    busy with the COPY until its end, so rows computed by queries must be computed before."""
    fields = copied_fields(model)
    database = connections[DEFAULT_DB_ALIAS]  # the wrapper itself: the proxy's lookups add up
    values = [row_value(field, database) for field in fields]
    return copy_prepared(model, fields, ([value(row) for value in values] for row in rows))


def copy_values(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> int:
    """`copy_rows` for rows given as their values by attribute name (every concrete field's
    but an auto-incremented key's, as the row's attributes would hold them: nothing is set on
    save here), without building a model instance a row."""
    fields = copied_fields(model)
    prepared = row_preparer(fields, connections[DEFAULT_DB_ALIAS])
    return copy_prepared(model, fields, (prepared(row) for row in rows))


def copied_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [field for field in model._meta.concrete_fields if not isinstance(field, AutoFieldMixin)]


def copy_prepared(
    model: type[models.Model], fields: Sequence[models.Field[Any, Any]], rows: Iterable[list[Any]]
) -> int:
    """One COPY of `rows`, each the prepared values of `fields` in order; returns how many."""
    columns: list[sql.Composable] = [sql.Identifier(str(field.column)) for field in fields]
    statement = sql.SQL("COPY {table} ({columns}) FROM STDIN").format(
        table=sql.Identifier(model._meta.db_table),
        columns=sql.SQL(", ").join(columns),
    )
    written = 0
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
            written += 1
    return written


def row_value(field: models.Field[Any, Any], database: Any) -> Callable[[models.Model], Any]:
    """What `copy_rows` writes of a row for `field`: the value `bulk_create` would insert."""
    prepared = value_preparer(field, database)
    if not saved_as_set(field):
        return lambda row: prepared(field.pre_save(row, True))
    read = attrgetter(field.attname)
    return lambda row: prepared(read(row))


def saved_as_set(field: models.Field[Any, Any]) -> bool:
    """Whether saving a row writes the field's attribute as it is (a date set on save, or a
    file committed, is the field's `pre_save` to give)."""
    if isinstance(field, models.DateField):
        return not (field.auto_now or field.auto_now_add)
    return type(field).pre_save is models.Field.pre_save


PASSED_AS_THEY_ARE = (
    models.BooleanField,
    models.CharField,
    models.ForeignKey,
    models.IntegerField,
    models.TextField,
    models.UUIDField,
)
"""Fields whose values psycopg takes as they are: Django's preparation of them only converts
what the projections built of the right type already."""


def value_preparer(field: models.Field[Any, Any], database: Any) -> Callable[[Any], Any]:
    """What a projection writes for a value of `field` (`copy_rows`, the card path's upserts,
    whose placeholders are cast to their columns' types): a JSON document as its text (NULL for
    None, as the field stores it), a number, text, flag or key as it is, anything else as the
    field prepares it for the database."""
    if isinstance(field, models.JSONField):
        return json_dumper(field.encoder)
    if isinstance(field, PASSED_AS_THEY_ARE):
        return lambda value: value
    return lambda value: field.get_db_prep_save(value, database)


def json_dumper(encoder: type[json.JSONEncoder] | None) -> Callable[[Any], str | None]:
    """A JSON field's value as its text: None as NULL, an empty list as `[]` without the
    encoder (most of a match row's lists are empty, and an encoder changes only how the types
    JSON lacks are written), anything else dumped by the encoder."""

    def dump(value: Any) -> str | None:
        if value is None:
            return None
        if type(value) is list and not value:
            return "[]"
        return json.dumps(value, cls=encoder)

    return dump


def row_preparer(
    fields: Sequence[models.Field[Any, Any]], database: Any
) -> Callable[[Mapping[str, Any]], list[Any]]:
    """What a projection writes for a row given as values by attribute name: each of `fields`
    prepared by its `value_preparer`, in order."""
    preparers = [(field.attname, value_preparer(field, database)) for field in fields]

    def prepared(values: Mapping[str, Any]) -> list[Any]:
        return [prepare(values[attname]) for attname, prepare in preparers]

    return prepared
