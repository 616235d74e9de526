"""What every write does around its service call: validate the body, say who is acting, pass the
idempotency key, and answer 201 (recorded) or 200 (a repeated key: the first answer again)."""

from __future__ import annotations

from typing import Any, Protocol
from uuid import UUID

from django.http import QueryDict
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import DeviceToken
from common.api.base import json_errors
from common.observability import current_request_id
from games.api.serializers import MatchOutput, RoundCommandOutput, Serializer, data_of
from games.matches import selectors
from games.matches.projections import StreamPosition, match_row, round_row
from games.matches.services import Actor, CommandResult
from games.models import Round
from games.visibility import Viewer, viewer_of

DEVICE_HEADER = "X-Device"
DEVICE_MAX_LENGTH = 64
HEADER_CONTROL_CHARACTERS = frozenset(map(chr, [*range(0x09), *range(0x0A, 0x20), 0x7F]))
"""What RFC 9110 does not allow in a header's value (a tab is allowed)."""
TOKEN_PREFIX_LENGTH = 8
REASON_MAX_LENGTH = 500
REPEATED_PARAMETER = gettext_lazy("Give this parameter once.")
IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_MAX_LENGTH = 128
"""Within the event store's own limit (200), so that every key the API takes can be stored."""


class CommandInput(Serializer):
    """The fields of a command that may be refused when the match moved on meanwhile."""

    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="The match version you last saw; if the match has moved on since, nothing is "
        "recorded and the answer is 409 `version_conflict` with `current_version`.",
    )


class NoInput(Serializer):
    """The body of a command that takes no options: none, or `{}`. Read all the same, so that a
    malformed body or an unknown field is refused like anywhere else."""


def validated_input(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """A JSON request body as its serializer reads it, strictly: values of the wrong JSON type and
    unknown fields are refused (common/api/base.py)."""
    serializer = serializer_class(data=data)
    strict_errors = json_errors(serializer, data)
    if not serializer.is_valid() or strict_errors is not None:
        raise serializers.ValidationError(merged_errors(serializer.errors, strict_errors))
    return dict(serializer.validated_data)


def merged_errors(errors: Any, more: Any) -> Any:
    """DRF's errors with `more` added where DRF found nothing wrong (both shaped alike)."""
    if isinstance(errors, dict) and isinstance(more, dict):
        return {key: merged_errors(errors.get(key), more.get(key)) for key in errors | more}
    return errors if errors else more


def validated_query(serializer_class: type[Serializer], query: QueryDict) -> dict[str, Any]:
    """Query parameters as their serializer reads them, with two differences from form input:
    a parameter given twice is refused (which one would count?), and an empty value is a value
    (`?limit=` is not a limit, not the default one). Unknown parameters are left alone."""
    repeated = sorted(name for name, values in query.lists() if len(values) > 1)
    if repeated:
        raise serializers.ValidationError({name: [REPEATED_PARAMETER] for name in repeated})
    serializer = serializer_class(data=query.dict())
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def actor_of(request: Request, *, reason: str | None = None) -> Actor:
    """The authenticated user, the device they score on, and why (for voids, corrections...)."""
    return Actor(
        user_id=request.user.pk,
        device=device_of(request),
        reason=reason or None,
        correlation_id=current_request_id(),
    )


def device_of(request: Request) -> str | None:
    """The `X-Device` header, else the token's first characters: enough to tell devices apart
    in the event log without recording a usable secret. None for a browser session. A name
    with characters HTTP does not allow in a header is refused: PostgreSQL's JSON cannot hold a
    NUL, and the log is read by people."""
    named = request.headers.get(DEVICE_HEADER, "").strip()
    if any(char in HEADER_CONTROL_CHARACTERS for char in named):
        raise serializers.ValidationError(
            {DEVICE_HEADER: [gettext("a device name cannot hold control characters")]}
        )
    if named:
        return named[:DEVICE_MAX_LENGTH]
    if isinstance(request.auth, DeviceToken):
        return request.auth.prefix
    if isinstance(request.auth, Token):
        return f"token:{request.auth.key[:TOKEN_PREFIX_LENGTH]}"
    return None


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


def round_after(result: CommandResult, round_number: int) -> Round:
    """The round as the command left it (for a repeated key: as the first command left it), in
    the shape of its projection row."""
    state = result.state
    return round_row(
        state.round(round_number),
        match_id=result.match_id,
        replay_of=state.replay_of.get(round_number),
    )


def round_response(result: CommandResult, round_number: int, *, viewer: Viewer) -> Response:
    """The round as the command left it, with the hands `viewer` sees of it."""
    row = round_after(result, round_number)
    hands = selectors.folded_round_hands(
        match_round=result.state.round(round_number), viewer=viewer
    )
    context = {"version": result.version, "hands": {round_number: hands}}
    return command_response(result, data_of(RoundCommandOutput, row, context))


def match_response(result: CommandResult, *, viewer: Viewer) -> Response:
    """The match as its projection shows it now (commands with no idempotency key only: a
    repeated key must answer what the first command left, not what came after), with the hands
    `viewer` sees."""
    match = selectors.match_get(match_id=result.match_id)
    hands = selectors.match_hands(match=match, viewer=viewer)
    return command_response(result, data_of(MatchOutput, match, {"hands": hands}))


def match_created_response(result: CommandResult, request: Request, names: list[str]) -> Response:
    """A match just created, built from the state the command left: nothing is read back. Its
    creator sees everything of it (a free-standing match is its creator's). A repeated creation
    answers as `match_response`: the match as it stands, as its reader sees it."""
    if result.duplicate or not result.events:
        return match_response(result, viewer=viewer(request, result.match_id))
    first, last = result.events[0], result.events[-1]
    match = match_row(
        result.state,
        match_id=result.match_id,
        position=StreamPosition(
            version=result.version,
            last_position=last.global_position,
            created_at=first.recorded_at,
            updated_at=last.recorded_at,
        ),
    )
    match.side_names = list(names)
    # A new match has no rounds: its (unsaved) row answers that without a query.
    match._prefetched_objects_cache = {"rounds": Round.objects.none()}  # type: ignore[attr-defined]
    return command_response(result, data_of(MatchOutput, match, {"hands": {}}))


def viewer(request: Request, match_id: UUID) -> Viewer:
    """Who reads: the viewer the requester is for the match, at the place its permission found."""
    return viewer_of(request.user, match_id, getattr(request, "place", None))
