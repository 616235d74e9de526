"""The event log: one match's stream, or the global log in position order for consumers."""

from __future__ import annotations

from functools import cache
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import Action, StaffOnly
from common.api.base import JsonApi
from common.api.commands import QueryIntegerField, validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer
from games.access import MatchAccess
from games.api.responses import viewer
from games.api.serializers import EventOutput
from games.matches import selectors
from games.visibility import Viewer, viewer_of

TAG = "events"
DEFAULT_LOG_PAGE = 100
MAX_GLOBAL_POSITION = 2**63 - 1


class MatchEventListApi(JsonApi):
    permission_classes = [MatchAccess]
    access = {"get": Action.AUDIT}

    class OutputSerializer(Serializer):
        events = EventOutput(many=True, help_text="In stream version order.")

        class Meta:
            ref_name = "MatchEvents"

    @extend_schema(
        operation_id="match_events",
        summary="The events of one match, oldest first",
        description="The `deck` of a round dealt by the server (in its `RoundStarted` payload) "
        "is null unless you may see everything of the match: ask the round's replay for its "
        "hands once it is over.",
        tags=[TAG],
        responses={
            200: OutputSerializer,
            **error_responses(
                {
                    401: "`not_authenticated` or `authentication_failed`: sign in.",
                    403: "`permission_denied`: only the match's organizers read its events.",
                    404: "`match_not_found`.",
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request, match_id: UUID) -> Response:
        events = selectors.match_events(match_id=match_id, viewer=viewer(request, match_id))
        return Response(self.OutputSerializer({"events": events}).data)


class EventListApi(JsonApi):
    permission_classes = [StaffOnly]

    class QuerySerializer(Serializer):
        after = QueryIntegerField(default=0, min_value=0, max_value=MAX_GLOBAL_POSITION)
        limit = QueryIntegerField(
            default=DEFAULT_LOG_PAGE, min_value=1, max_value=selectors.MAX_LOG_PAGE
        )

        class Meta:
            ref_name = "EventLogQuery"

    class OutputSerializer(Serializer):
        events = EventOutput(many=True, help_text="In global position order.")
        next_after = serializers.IntegerField(
            help_text="Send as `after` for the next page: the last position returned, or "
            "`after` itself when there was nothing new."
        )

        class Meta:
            ref_name = "EventLogPage"

    @extend_schema(
        operation_id="log_events",
        summary="The global event log after a position, for consumers that follow it",
        description="The `deck` of a round dealt by the server (in its `RoundStarted` payload) "
        "is null unless you may see everything of that match.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "after", int, description="Return events above this global position (0: all)."
            ),
            OpenApiParameter(
                "limit",
                int,
                description=f"At most this many events, 1 to {selectors.MAX_LOG_PAGE} "
                f"(default {DEFAULT_LOG_PAGE}).",
            ),
        ],
        responses={
            200: OutputSerializer,
            **error_responses(
                {
                    400: "`invalid_input`: `after` or `limit`.",
                    401: "`not_authenticated` or `authentication_failed`: sign in.",
                    403: "`permission_denied`: only superusers read the whole log.",
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request) -> Response:
        query = validated_query(self.QuerySerializer, request.query_params)
        user = request.user

        @cache
        def viewer_of_match(match_id: UUID) -> Viewer:
            return viewer_of(user, match_id)

        events = selectors.log_events(
            after=query["after"], limit=query["limit"], viewer_of_match=viewer_of_match
        )
        next_after = events[-1].global_position if events else query["after"]
        return Response(self.OutputSerializer({"events": events, "next_after": next_after}).data)
