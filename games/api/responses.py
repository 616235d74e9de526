"""What a match command answers: the round or the match as the command left it, with the hands
the reader sees; and the input every command on a match takes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from uuid import UUID

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action, refusal
from common.api.commands import command_response, idempotency_key_of
from common.api.serializing import Serializer, data_of
from games.access import head_of
from games.api.serializers import MatchOutput, RoundCommandOutput
from games.matches import selectors
from games.matches.execution import CommandResult
from games.matches.projections import StreamPosition, match_row, round_row
from games.models import Round
from games.visibility import Viewer, viewer_of


class CommandInput(Serializer):
    """The fields of a command that may be refused when the match moved on meanwhile."""

    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="The match version you last saw; if the match has moved on since, nothing is "
        "recorded and the answer is 409 `version_conflict` with `current_version`.",
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


def match_response(
    result: CommandResult, *, viewer: Viewer, may_organize: bool = False
) -> Response:
    """The match as its projection shows it now (commands with no idempotency key only: a
    repeated key must answer what the first command left, not what came after), with the hands
    `viewer` sees and whether the requester may settle it (`may_organize`)."""
    match = selectors.match_get(match_id=result.match_id)
    hands = selectors.match_hands(match=match, viewer=viewer)
    context = {"hands": hands, "may_organize": may_organize}
    return command_response(result, data_of(MatchOutput, match, context))


def match_created_response(result: CommandResult, request: Request, names: list[str]) -> Response:
    """A match just created, built from the state the command left: nothing is read back. Its
    creator sees everything of it (a free-standing match is its creator's). A repeated creation
    answers as `match_response`: the match as it stands, as its reader sees it."""
    if result.duplicate or not result.events:
        return match_response(result, viewer=viewer(request, result.match_id), may_organize=True)
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
    context = {"hands": {}, "may_organize": True}  # a free-standing match is its creator's
    return command_response(result, data_of(MatchOutput, match, context))


def may_organize(request: Request) -> bool:
    """Whether the requester may take the organizer's actions on the match the request's place
    is (`Action.ORGANIZE`: never a table's tablet), so that a page offers only those."""
    place = getattr(request, "place", None)
    return place is not None and refusal(request.user, request.auth, Action.ORGANIZE, place) is None


def viewer(request: Request, match_id: UUID) -> Viewer:
    """Who reads: the viewer the requester is for the match, at the place its permission found."""
    return viewer_of(request.user, match_id, getattr(request, "place", None))


def round_command(
    request: Request,
    service: Callable[..., CommandResult],
    *,
    match_id: UUID,
    round_number: int,
    data: Mapping[str, Any],
    actor_reason: str | None = None,
    keyed: bool = True,
    **arguments: Any,
) -> Response:
    """Run a command on one round with what every such command takes besides its `arguments`
    (the version the client saw, who acts and why: `actor_reason`, the idempotency key unless
    the command takes none), and answer the round as the command left it."""
    actor = request_actor(request, reason=actor_reason)
    key = {"idempotency_key": idempotency_key_of(request)} if keyed else {}
    result = service(
        match_id=match_id,
        round_number=round_number,
        **arguments,
        expected_version=data.get("expected_version"),
        actor=actor,
        head=head_of(request),
        **key,
    )
    return round_response(result, round_number, viewer=viewer(request, match_id))


def match_command(
    request: Request,
    service: Callable[..., CommandResult],
    *,
    match_id: UUID,
    actor_reason: str | None = None,
    **arguments: Any,
) -> Response:
    """Run a command on a match (who acts and why, `actor_reason`, besides its `arguments`),
    and answer the match as it stands now, with the hands the reader sees."""
    result = service(
        match_id=match_id,
        **arguments,
        actor=request_actor(request, reason=actor_reason),
        head=head_of(request),
    )
    return match_response(
        result, viewer=viewer(request, match_id), may_organize=may_organize(request)
    )
