"""A tournament's matches: list them, and publish the next Swiss round when rounds are manual."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.actors import request_actor
from accounts.permissions import Action
from common.api.base import JsonApi
from common.api.commands import (
    QueryIntegerField,
    command_response,
    idempotency_key_of,
    validated_query,
)
from common.api.schema import error_responses
from common.api.serializing import Serializer, validated_input
from tournaments.api.conditional import NOT_MODIFIED, conditional_read, read_kind
from tournaments.api.pagination import (
    CursorField,
    PageQuery,
    cursor_of,
    fixture_key,
    page_output,
    page_parameters,
)
from tournaments.api.schema import (
    TAG,
    TOURNAMENT_NOT_FOUND,
    VERSION_CONFLICT,
    tournament_command_schema,
)
from tournaments.api.serializers import FIXTURE_STATUSES, TournamentMatchOutput, match_document
from tournaments.selectors import answers, fixtures, silence
from tournaments.selectors.access import TournamentAccess
from tournaments.services import running

STAGE_MAX_LENGTH = 40


class TournamentMatchListApi(JsonApi):
    permission_classes = [TournamentAccess]

    class QuerySerializer(PageQuery):
        status = serializers.ChoiceField(choices=FIXTURE_STATUSES, required=False)
        stage = serializers.CharField(required=False, max_length=STAGE_MAX_LENGTH)
        round = QueryIntegerField(required=False, min_value=1)
        after = CursorField(read=fixture_key, required=False)

        class Meta:
            ref_name = "TournamentMatchQuery"

    OutputSerializer = page_output(
        "matches",
        TournamentMatchOutput(
            many=True, help_text="This page's matches, in the order they were created."
        ),
        ref_name="TournamentMatchPage",
    )

    @extend_schema(
        operation_id="tournament_matches",
        summary="The tournament's matches, in the order they were created, a page at a time",
        description="Every match the tournament created, except those replaced after a "
        "corrected result. Score them with the scorer API under /api/v1/matches/{id}/. Follow "
        "`next_after` (as `after`, with the same filters) until it is null for the whole list.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=[str(s) for s in FIXTURE_STATUSES],
                description="Only the matches with this status.",
            ),
            OpenApiParameter(
                "stage", str, description="Only the matches of this stage, e.g. `main`, `A`."
            ),
            OpenApiParameter("round", int, description="Only the matches of this round."),
            *page_parameters("matches"),
        ],
        responses={
            200: OutputSerializer,
            **NOT_MODIFIED,
            **error_responses(
                {
                    400: "`invalid_input`: `status`, `stage`, `round`, `after` or `limit`.",
                    **TOURNAMENT_NOT_FOUND,
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponseBase:
        query = validated_query(self.QuerySerializer, request.query_params)
        now = timezone.now()

        def build() -> HttpResponseBase:
            page = fixtures.tournament_fixture_page(
                tournament_id=tournament_id,
                status=query.get("status"),
                stage=query.get("stage"),
                round_number=query.get("round"),
                after=query.get("after"),
                limit=query["limit"],
            )
            documents = silence.redacted_fixtures(
                (match_document(row, now) for row in page.rows), hidden
            )
            return Response({"matches": documents, "next_after": cursor_of(page.next_after)})

        hidden = silence.hidden_round(request.user, request.place)  # type: ignore[attr-defined]
        kind = read_kind("matches", hidden)
        return conditional_read(request, tournament_id, kind, build, now=now)


class SwissRoundPublishApi(JsonApi):
    permission_classes = [TournamentAccess]
    access = {"post": Action.ORGANIZE}

    class OutputSerializer(Serializer):
        round = serializers.IntegerField(help_text="The number of the round just paired.")
        bye = serializers.IntegerField(
            allow_null=True, help_text="The entrant that sits the round out (and wins it)."
        )
        matches = TournamentMatchOutput(many=True)

        class Meta:
            ref_name = "SwissRound"

    class InputSerializer(Serializer):
        allow_same_group = serializers.BooleanField(
            default=False,
            help_text="Under a strict `avoid_same_group`, a round with no draw keeping "
            "entrants of one group apart is refused (409 `no_draw_without_same_group`): true "
            "publishes it all the same, with as few such pairings as the round allows.",
        )

        class Meta:
            ref_name = "SwissRoundPublishInput"

    @tournament_command_schema(
        operation_id="swiss_round_publish",
        summary="Pair and publish the next Swiss round",
        description="For Swiss tournaments created with `automatic_rounds: false`; otherwise "
        "each round is paired as soon as the previous one is played, and this answers 409 (a "
        "round that a strict `avoid_same_group` could not draw on its own waits for this).",
        request=InputSerializer,
        response=OutputSerializer,
        errors={
            **TOURNAMENT_NOT_FOUND,
            409: "`swiss_round_not_due` (the current round is still being played, every round "
            "was played, or the tournament is not Swiss), `tournament_not_started`, "
            "`no_draw_without_same_group` (nothing published); "
            f"{VERSION_CONFLICT}",
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        result = running.swiss_round_publish(
            tournament_id=tournament_id,
            allow_same_group=data["allow_same_group"],
            actor=request_actor(request),
            idempotency_key=idempotency_key_of(request),
        )
        body = answers.swiss_round_as_left(result=result)
        return command_response(result, self.OutputSerializer(body).data)
