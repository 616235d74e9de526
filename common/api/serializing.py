"""A serializer's answer without a serializer's cost: the fast paths every API shares.

`data_of` keeps one bound serializer per class and thread, so an answer does not build the
serializer's fields again (the card path's rows); `validated_input` reads a request body with
the same serializer, strictly (a card's `{"seat": 0, "card": "1D"}`, hundreds a second on a
championship evening), and `validated_data_of` a query string (a tournament's match list).

`represent` is for big documents a projection stored as JSON already: the standings and the
bracket of a 1,024-entrant tournament are tens of thousands of values, and a DRF serializer
spends most of their answer's time looking each one up (`get_attribute`, `SkipField`, ordered
dicts). It walks the same declared fields, in the same order, with DRF's rules for a missing
key (the default, null when the field allows it, left out when it is not required), and gives
each leaf to its own field's `to_representation`, so the answer is the serializer's, value for
value (tested on every format: tests/tournaments/api/test_plain.py). Plain dicts only: no
method fields, no `source` other than the field's name.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from rest_framework import serializers
from rest_framework.fields import empty

from common.api.base import json_errors

if TYPE_CHECKING:
    Serializer = serializers.Serializer[Any]
else:  # Serializer is generic only in djangorestframework-stubs
    Serializer = serializers.Serializer

_bound = threading.local()


def bound(serializer_class: type[Serializer]) -> Serializer:
    """This thread's instance of `serializer_class`, its fields bound once."""
    by_class: dict[type[Serializer], Serializer] = _bound.__dict__.setdefault("by_class", {})
    serializer = by_class.get(serializer_class)
    if serializer is None:
        serializer = by_class[serializer_class] = serializer_class()
    return serializer


def data_of(
    serializer_class: type[Serializer], instance: Any, context: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What `serializer_class(instance, context=context).data` is, without building the
    serializer's fields again: DRF deep-copies (re-creates) every declared field, nested ones
    included, for each new serializer, which was a tenth of a card's CPU. Each thread keeps one
    instance per class with its fields bound once; `context` is set for the call only."""
    serializer = bound(serializer_class)
    serializer._context = context or {}
    try:
        representation: dict[str, Any] = serializer.to_representation(instance)
        return representation
    finally:
        serializer._context = {}


def validated_input(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """A JSON request body as its serializer reads it, strictly: values of the wrong JSON type and
    unknown fields are refused (common/api/base.py). Read with this thread's instance of the
    serializer (`bound`), whose fields are built once, not for every request."""
    serializer = bound(serializer_class)
    serializer.initial_data = data
    try:
        strict_errors = json_errors(serializer, data)
        if not serializer.is_valid() or strict_errors is not None:
            raise serializers.ValidationError(merged_errors(serializer.errors, strict_errors))
        return dict(serializer.validated_data)
    finally:
        forget_validation(serializer)


def merged_errors(errors: Any, more: Any) -> Any:
    """DRF's errors with `more` added where DRF found nothing wrong (both shaped alike)."""
    if isinstance(errors, dict) and isinstance(more, dict):
        return {key: merged_errors(errors.get(key), more.get(key)) for key in errors | more}
    return errors if errors else more


VALIDATION_STATE = ("initial_data", "_validated_data", "_errors", "_data")
"""What `is_valid` leaves on a serializer: dropped after each use of the thread's instance."""


def validated_data_of(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """What `serializer_class(data=data)` validates to (its ValidationError when it does not),
    with this thread's instance (`bound`) instead of a new one and its fields built again."""
    serializer = bound(serializer_class)
    serializer.initial_data = data
    try:
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    finally:
        forget_validation(serializer)


def forget_validation(serializer: Serializer) -> None:
    """Drop what `is_valid` left on a thread's instance, so the next use starts clean."""
    for name in VALIDATION_STATE:
        serializer.__dict__.pop(name, None)


@dataclass(frozen=True, slots=True)
class Slot:
    name: str
    field: Any
    nested: tuple[Slot, ...] | None
    """The fields of a nested serializer (one, or each of a list's); None for a leaf."""
    many: bool
    allow_null: bool
    required: bool
    has_default: bool


@cache
def shape(serializer_class: type[serializers.Serializer]) -> tuple[Slot, ...]:  # type: ignore[type-arg]
    return slots_of(serializer_class())


def slots_of(serializer: serializers.Serializer) -> tuple[Slot, ...]:  # type: ignore[type-arg]
    slots = []
    for name, field in serializer.fields.items():
        if field.write_only:
            continue
        if isinstance(field, serializers.SerializerMethodField) or field.source != name:
            raise TypeError(f"{type(serializer).__name__}.{name}: not a plain field")
        many = isinstance(field, serializers.ListSerializer)
        inner = field.child if isinstance(field, serializers.ListSerializer) else field
        nested = slots_of(inner) if isinstance(inner, serializers.Serializer) else None
        slots.append(
            Slot(
                name=name,
                field=field,
                nested=nested,
                many=many,
                allow_null=field.allow_null,
                required=field.required,
                has_default=field.default is not empty,
            )
        )
    return tuple(slots)


def represent(serializer_class: type[serializers.Serializer], data: Any) -> Any:  # type: ignore[type-arg]
    """What `serializer_class(data).data` is (`many`: a list of documents)."""
    slots = shape(serializer_class)
    if isinstance(data, list):
        return [document(slots, item) for item in data]
    return document(slots, data)


def document(slots: tuple[Slot, ...], data: Mapping[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for slot in slots:
        if slot.name in data:
            value = data[slot.name]
        elif slot.has_default:
            value = slot.field.get_default()
        elif slot.allow_null:
            value = None
        elif not slot.required:
            continue
        else:
            raise KeyError(slot.name)
        if value is None:
            answer[slot.name] = None
        elif slot.nested is None:
            answer[slot.name] = slot.field.to_representation(value)
        elif slot.many:
            answer[slot.name] = [document(slot.nested, item) for item in value]
        else:
            answer[slot.name] = document(slot.nested, value)
    return answer
