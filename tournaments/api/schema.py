"""What the OpenAPI schema says about the tournament commands, on top of the scorer API's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.serializers import BaseSerializer

from common.api.commands import IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH
from common.api.schema import DEVICE, REPEATED_KEY, error_responses
from common.api.serializing import Serializer

TAG = "tournaments"
TOURNAMENT_NOT_FOUND = {404: "`tournament_not_found`."}
ENTRANT_NOT_FOUND = {404: "`tournament_not_found`, `entrant_not_found`."}
VERSION_CONFLICT = (
    "`version_conflict` (with `current_version`): another write to the tournament came first; "
    "read it again and retry."
)
KEY_REUSED = "`idempotency_key_reused`: the `Idempotency-Key` was used for another command."

IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_KEY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        f"Optional, 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} printable characters, unique per command "
        "on this tournament. Sending the same command again with the same key records nothing "
        "and answers 200 with the first answer (the tournament as that command left it); a "
        "different command with a used key is refused (422 `idempotency_key_reused`)."
    ),
)

F = TypeVar("F", bound=Callable[..., Any])


def tournament_command_schema(
    *,
    operation_id: str,
    summary: str,
    request: type[Serializer] | None,
    response: type[Serializer] | BaseSerializer[Any],
    errors: Mapping[int, str],
    unchanged: str | None = None,
    description: str = "",
    idempotent: bool = True,
    recorded_status: int = 201,
) -> Callable[[F], F]:
    """`extend_schema` for a tournament write: 201 when recorded (a change, `PATCH`, answers
    `recorded_status=200`); 200 for a repeated idempotency key (nothing recorded, the first
    answer) and, with `unchanged`, when the command was already carried out."""
    if idempotent:
        errors = {**errors, 422: f"{errors[422]} {KEY_REUSED}" if 422 in errors else KEY_REUSED}
    responses: dict[int, OpenApiResponse] = dict(error_responses(errors))
    said_recorded = ["Recorded."] if recorded_status == 200 else []
    if recorded_status != 200:
        responses[recorded_status] = OpenApiResponse(response, description="Recorded.")
    said_unchanged = [] if unchanged is None else [unchanged]
    said_repeated = [REPEATED_KEY] if idempotent else []
    if said_recorded or said_unchanged or said_repeated:
        responses[200] = OpenApiResponse(
            response, description=" Or: ".join([*said_recorded, *said_unchanged, *said_repeated])
        )
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=[TAG],
        request=request,
        responses=dict(sorted(responses.items())),
        parameters=[IDEMPOTENCY_KEY, DEVICE] if idempotent else [DEVICE],
    )
