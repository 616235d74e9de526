"""What the OpenAPI schema says about the tournament commands, on top of the scorer API's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiResponse, extend_schema

from games.api.schema import DEVICE, error_responses
from games.api.serializers import Serializer

TAG = "tournaments"
TOURNAMENT_NOT_FOUND = {404: "`tournament_not_found`."}
ENTRANT_NOT_FOUND = {404: "`tournament_not_found`, `entrant_not_found`."}
VERSION_CONFLICT = (
    "`version_conflict` (with `current_version`): another write to the tournament came first; "
    "read it again and retry."
)

F = TypeVar("F", bound=Callable[..., Any])


def tournament_command_schema(
    *,
    operation_id: str,
    summary: str,
    request: type[Serializer] | None,
    response: type[Serializer],
    errors: Mapping[int, str],
    unchanged: str | None = None,
    description: str = "",
) -> Callable[[F], F]:
    """`extend_schema` for a tournament write: 201 when recorded; 200 with `unchanged` saying
    when the command was already carried out (nothing recorded)."""
    responses: dict[int, OpenApiResponse] = {
        201: OpenApiResponse(response, description="Recorded."),
        **error_responses(errors),
    }
    if unchanged is not None:
        responses[200] = OpenApiResponse(response, description=unchanged)
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=[TAG],
        request=request,
        responses=dict(sorted(responses.items())),
        parameters=[DEVICE],
    )
