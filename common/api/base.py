"""What every API view shares: request bodies are JSON only, bounded in size and in depth, and
read strictly.

Form and multipart bodies are refused (415 `unsupported_media_type`): a form cannot say what the
schema says (numbers, booleans, lists of objects), and a multipart body that is not a form parsed
as an empty one, so a garbled body was carried out as a command without options. The size bound
is Django's `DATA_UPLOAD_MAX_MEMORY_SIZE` (413 `request_too_large`, common/exceptions.py); the
depth bound keeps the JSON decoder from recursing until it fails (400 `malformed_json`).

DRF's fields are lenient for the sake of HTML forms: a string field takes a number, a number field
a numeric string, a boolean `"yes"` or `1`, a UUID an integer, and unknown fields are dropped.
JSON says what a value is, so `json_errors` refuses a value of another JSON type than its field's
and a field its serializer does not know (400 `invalid_input`): a misspelled `expected_version`
or `reason` must not let a command through without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError
from rest_framework.views import APIView

if TYPE_CHECKING:
    from rest_framework.fields import Field as GenericField

    Field = GenericField[Any, Any, Any, Any]
else:  # Field is generic only in djangorestframework-stubs
    from rest_framework.fields import Field

UNKNOWN_FIELD = "Unknown field: nothing was recorded (is it misspelled?)."

JSON_TYPES: tuple[tuple[type[Field], tuple[type, ...]], ...] = (
    (serializers.BooleanField, (bool,)),
    # A float is left to the field, which takes 3.0 (JSON Schema's integers do too) and not 3.5.
    (serializers.IntegerField, (int, float)),
    (serializers.CharField, (str,)),
    (serializers.UUIDField, (str,)),
)
"""The JSON types each kind of field takes; fields not listed are as strict as DRF makes them."""

MAX_JSON_DEPTH = 32
"""Far deeper than any body the API takes (a match's sides are three levels down)."""


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in `value`; without recursion, so any depth is safe."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser (which reads the body through Django's size check) that refuses JSON
    nested deeper than MAX_JSON_DEPTH instead of failing with a RecursionError."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(self.too_deep()) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(self.too_deep())
        return data

    @staticmethod
    def too_deep() -> str:
        return gettext("JSON parse error - arrays and objects nest deeper than %(most)s levels") % {
            "most": MAX_JSON_DEPTH
        }


def json_errors(field: Field, value: Any) -> Any:
    """DRF-shaped errors for the values of another JSON type than their field's, and for unknown
    fields, in `value` read by `field` (a serializer, a list or a single field); None if none."""
    if value is None:
        return None  # for the field's allow_null to decide
    if isinstance(field, serializers.Serializer) and isinstance(value, Mapping):
        errors = {str(name): [UNKNOWN_FIELD] for name in value if name not in field.fields} | {
            name: found
            for name, child in field.fields.items()
            if name in value and (found := json_errors(child, value[name])) is not None
        }
        return errors or None
    if isinstance(field, serializers.ListSerializer | serializers.ListField) and isinstance(
        value, list
    ):
        child = field.child
        if child is None:
            return None
        item_errors = {
            index: found
            for index, item in enumerate(value)
            if (found := json_errors(child, item)) is not None
        }
        return item_errors or None
    for kind, json_types in JSON_TYPES:
        if isinstance(field, kind):
            return (
                None
                if is_of_json_type(value, kind, json_types)
                else [field.error_messages["invalid"]]
            )
    return None


def is_of_json_type(value: Any, kind: type[Field], json_types: tuple[type, ...]) -> bool:
    if isinstance(value, bool):  # a bool is an int to Python, not to JSON
        return kind is serializers.BooleanField
    return isinstance(value, json_types)


class JsonApi(APIView):
    """The base of every API view. `permission_classes` says where a request acts and `access`
    which action each HTTP method takes there (`accounts.permissions.DeclaresAccess`: GET reads
    unless a view says otherwise)."""

    parser_classes = [BoundedJSONParser]
