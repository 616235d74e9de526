"""What makes two commands the same, for idempotency keys (decision record 0020): one function for
every stream kind, reading the command's fields. Standard library only.

A command is a frozen dataclass. Its fingerprint is a hash of the stream's id, the command's class
and its fields, and the names the command brings that live outside the events (an entrant's, a
side's: decision record 0018). A field may say in its metadata what of its value counts:
`LEFT_OUT` for a value the server fills on every request (the time it arrived), `counted_as(f)`
for a value of which only `f(value)` counts (a server deal shuffles afresh on every request:
only that the server dealt counts, not the deck).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from types import MappingProxyType
from typing import Any
from uuid import UUID

_COUNTS = "fingerprint"


def _nothing(_value: Any) -> None:
    return None


LEFT_OUT: Mapping[str, Any] = MappingProxyType({_COUNTS: _nothing})
"""Field metadata: the field does not make two commands different."""


def counted_as(summary: Callable[[Any], Any]) -> Mapping[str, Any]:
    """Field metadata: only `summary(value)` of the field makes two commands different."""
    return MappingProxyType({_COUNTS: summary})


def fingerprint(stream_id: UUID, command: Any, *, names: Sequence[Any] = ()) -> str:
    """The fingerprint of `command` on `stream_id` (not who sends it, nor from which device)."""
    document = json.dumps(
        [str(stream_id), type(command).__name__, _fields(command), list(names)],
        sort_keys=True,
        separators=(",", ":"),
        default=_plain,
    )
    return hashlib.sha256(document.encode()).hexdigest()


def _fields(command: Any) -> dict[str, Any]:
    if not dataclasses.is_dataclass(command) or isinstance(command, type):
        raise TypeError(f"a command is a dataclass instance, not {command!r}")
    counted: dict[str, Any] = {}
    for field in dataclasses.fields(command):
        summary = field.metadata.get(_COUNTS)
        value = getattr(command, field.name)
        counted[field.name] = value if summary is None else summary(value)
    return counted


def _plain(value: Any) -> Any:
    """A value inside a command as JSON: a nested dataclass by its class and fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, _fields(value)]
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date | UUID):
        return str(value)
    if isinstance(value, frozenset | set):
        return sorted(value, key=repr)
    raise TypeError(f"a command's field holds {type(value).__name__}, which has no fingerprint")
