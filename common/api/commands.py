"""What every write does around its service call: take the idempotency key and answer 201
(recorded) or 200 (a repeated key: the first answer again). The body is read by
`common.api.serializing.validated_input`; who is acting is `accounts.actors.request_actor`; the
answers in a match's shape are `games.api.responses`."""

from __future__ import annotations

from typing import Any, Protocol

from django.http import QueryDict
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.serializing import Serializer, validated_data_of
from common.parsing import ASCII_DIGITS, MAX_BIGINT, ascii_int

DEVICE_HEADER = "X-Device"
REASON_MAX_LENGTH = 500
REPEATED_PARAMETER = gettext_lazy("Give this parameter once.")
IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_MAX_LENGTH = 128
"""Within the event store's own limit (200), so that every key the API takes can be stored."""


class NoInput(Serializer):
    """The body of a command that takes no options: none, or `{}`. Read all the same, so that a
    malformed body or an unknown field is refused like anywhere else."""


class QueryIntegerField(serializers.IntegerField):
    """A whole number of a query string, read by the one strict parser (common/parsing.py):
    ASCII digits only, within `min_value` (default 0) and `max_value` (default what a bigint
    holds); anything else is refused with the field's own messages, never a 500."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_BIGINT)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        text = str(data) if isinstance(data, str | int) and not isinstance(data, bool) else ""
        if not ASCII_DIGITS.fullmatch(text):
            self.fail("invalid")
        number = ascii_int(text)
        if number is None:  # digits, more than a bigint holds
            self.fail("max_value", max_value=self.max_value)
        return number


def validated_query(serializer_class: type[Serializer], query: QueryDict) -> dict[str, Any]:
    """Query parameters as their serializer reads them, with two differences from form input:
    a parameter given twice is refused (which one would count?), and an empty value is a value
    (`?limit=` is not a limit, not the default one). Unknown parameters are left alone."""
    repeated = sorted(name for name, values in query.lists() if len(values) > 1)
    if repeated:
        raise serializers.ValidationError({name: [REPEATED_PARAMETER] for name in repeated})
    return validated_data_of(serializer_class, query.dict())


def idempotency_key_of(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_KEY_HEADER)
    if key is None:
        return None
    if not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX_LENGTH or not key.isprintable():
        raise serializers.ValidationError(
            {
                IDEMPOTENCY_KEY_HEADER: [
                    gettext("an idempotency key is 1 to %(most)s printable characters")
                    % {"most": IDEMPOTENCY_KEY_MAX_LENGTH}
                ]
            }
        )
    return key


class Answered(Protocol):
    """A command's result, as far as its status goes (the match and tournament services')."""

    @property
    def duplicate(self) -> bool: ...


def command_response(result: Answered, body: Any) -> Response:
    """201 for a command just recorded; 200 for a repeated idempotency key (nothing recorded)."""
    return Response(
        body, status=status.HTTP_200_OK if result.duplicate else status.HTTP_201_CREATED
    )
