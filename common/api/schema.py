"""What the OpenAPI schema says about errors and headers shared by many operations."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers

from common.api.commands import DEVICE_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH
from common.api.serializing import Serializer


class ErrorOutput(Serializer):
    code = serializers.CharField(help_text="Stable and machine-readable, e.g. `not_your_turn`.")
    detail = serializers.CharField(help_text="What went wrong, for people.")
    current_version = serializers.IntegerField(
        required=False, help_text="With `version_conflict`: the match's version now."
    )
    lines = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="With `entrants_refused`: each refused line, as its `line` (from 1), `code` "
        "and `detail`.",
    )
    # A field named `fields` shadows Serializer.fields for the type checker only: DRF moves
    # declared fields out of the class.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="With `invalid_input`: the messages for each field."
    )

    class Meta:
        ref_name = "Error"


EVERY_ERROR = {
    401: "`authentication_failed`: the key sent is unknown, expired or revoked.",
    429: "`throttled`: too many requests (or failed sign-ins) from this client; `Retry-After` "
    "says how many seconds to wait.",
    503: "`server_busy`: the server is overloaded and did nothing; send the same request again "
    "after `Retry-After` seconds.",
}
"""What any operation may answer, a read too."""

WRITE_ERRORS = {
    **EVERY_ERROR,
    400: "`invalid_input` (with `fields`; a field the operation does not take is refused too) "
    "or `malformed_json`.",
    401: "`not_authenticated` (send `Authorization: Token KEY`) or `authentication_failed`.",
    403: "`permission_denied`: your roles do not let you do this here (the detail says why).",
    413: "`request_too_large`: the body is over the size limit.",
    415: "`unsupported_media_type`: bodies are JSON (`Content-Type: application/json`).",
}


def error_responses(codes: Mapping[int, str], *, write: bool = True) -> dict[int, OpenApiResponse]:
    """Error responses of an operation; `codes` says which codes each status stands for."""
    described = {**(WRITE_ERRORS if write else EVERY_ERROR), **codes}
    return {
        status: OpenApiResponse(ErrorOutput, description=description)
        for status, description in sorted(described.items())
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_KEY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        f"Optional, 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} characters, unique per command on this "
        "match. Sending the same command again with the same key records nothing and answers "
        "200 with the first answer; a different command with a used key is refused "
        "(422 `idempotency_key_reused`)."
    ),
)

DEVICE = OpenApiParameter(
    DEVICE_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        "Optional name of the scoring device, recorded on the events; by default the first "
        "characters of the token. Control characters are refused (400 `invalid_input`)."
    ),
)

COMMAND_HEADERS = [IDEMPOTENCY_KEY, DEVICE]


F = TypeVar("F", bound=Callable[..., Any])

REPEATED_KEY = (
    "The same command again with the same `Idempotency-Key`: nothing recorded, the first answer."
)


def command_schema(
    *,
    operation_id: str,
    summary: str,
    tag: str,
    request: type[Serializer] | None,
    response: type[Serializer],
    errors: Mapping[int, str],
    idempotent: bool = True,
    description: str = "",
    repeated: str | None = None,
) -> Callable[[F], F]:
    """`extend_schema` for a write: 201 when recorded, 200 for a repeated idempotency key (or
    for the repetition `repeated` describes, for a write that takes no key)."""
    responses: dict[int, OpenApiResponse] = {
        201: OpenApiResponse(response, description="Recorded."),
        **error_responses(errors),
    }
    if idempotent or repeated:
        responses[200] = OpenApiResponse(response, description=repeated or REPEATED_KEY)
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=[tag],
        request=request,
        responses=dict(sorted(responses.items())),
        parameters=COMMAND_HEADERS if idempotent else [DEVICE],
    )
