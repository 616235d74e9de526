"""Cursor pagination of the tournament API's lists, like the event log's: `after` and `limit` in
the query, `next_after` in the answer (decision record 0010).

A cursor is opaque to clients: the key of the last row of the previous page in the list's
order, as URL-safe base64 of a JSON array. The selectors page by that key (keyset pagination,
never OFFSET), so a page costs the same wherever it is and rows added meanwhile never shift the
pages that follow."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from common.api.commands import QueryIntegerField
from common.api.serializing import Serializer
from common.parsing import ascii_int

DEFAULT_PAGE = 100
MAX_PAGE = 500
MAX_CURSOR_LENGTH = 200


def cursor_of(key: object) -> str | None:
    """The cursor of a key: a value, or a tuple of them (None: no more pages)."""
    if key is None:
        return None
    parts = key if isinstance(key, tuple) else (key,)
    values = [value.isoformat() if isinstance(value, datetime) else str(value) for value in parts]
    text = json.dumps(values, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def key_of(cursor: str) -> list[str]:
    """The strings a cursor holds; ValueError if it holds anything else."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(text)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValueError(cursor) from None
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise ValueError(cursor)
    return values


def tournament_key(values: list[str]) -> tuple[datetime, UUID]:
    created_at, tournament_id = values  # ValueError unless two
    moment = datetime.fromisoformat(created_at)
    if moment.tzinfo is None:
        raise ValueError(created_at)
    return moment, UUID(tournament_id)


def fixture_key(values: list[str]) -> int:
    (fixture_id,) = values
    number = ascii_int(fixture_id)
    if number is None:
        raise ValueError(fixture_id)
    return number


class CursorField(serializers.CharField):
    """`after`: a `next_after` this list gave, read into the key it stands for."""

    default_error_messages = {
        "not_a_cursor": _("Not a cursor of this list: send the next_after of the previous page.")
    }

    def __init__(self, *, read: Callable[[list[str]], Any], **kwargs: Any) -> None:
        self.read = read
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        cursor = super().to_internal_value(data)
        if len(cursor) > MAX_CURSOR_LENGTH:
            self.fail("not_a_cursor")
        try:
            return self.read(key_of(cursor))
        except ValueError:
            self.fail("not_a_cursor")


class PageQuery(Serializer):
    """The query of a paginated list: `after` (read by the list's `key`) and `limit`."""

    limit = QueryIntegerField(default=DEFAULT_PAGE, min_value=1, max_value=MAX_PAGE)


def page_parameters(rows: str) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "after",
            str,
            description=f"The `next_after` of the previous page: the {rows} that follow it. "
            "Absent: the first page. Anything else is 400 `invalid_input`.",
        ),
        OpenApiParameter(
            "limit",
            int,
            description=f"At most this many {rows}, 1 to {MAX_PAGE} (default {DEFAULT_PAGE}).",
        ),
    ]


NEXT_AFTER_HELP = (
    "Send as `after` for the next page; null on the last page. An opaque string: keep it as it is."
)


def page_output(
    rows: str, page: serializers.Field[Any, Any, Any, Any], *, ref_name: str
) -> type[Serializer]:
    """The answer of a paginated list: its `page` of `rows` (a serializer with `many=True`),
    then `next_after`; named `ref_name` in the schema."""
    fields = {
        rows: page,
        "next_after": serializers.CharField(allow_null=True, help_text=NEXT_AFTER_HELP),
        "Meta": type("Meta", (), {"ref_name": ref_name}),
    }
    output: type[Serializer] = type(ref_name, (Serializer,), fields)
    return output
