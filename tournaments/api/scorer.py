"""What a scorer may score: the matches the table page offers a tablet or a signed-in scorer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import SignedIn, scoped_device
from common.api.base import JsonApi
from common.api.schema import error_responses
from common.api.serializing import Serializer
from games.api.serializers import MatchStatusField
from tournaments import selectors
from tournaments.api.schema import TAG


class ScorerTournamentOutput(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()

    class Meta:
        ref_name = "ScorerTournament"


class ScorerMatchOutput(Serializer):
    id = serializers.UUIDField(help_text="Score it with /api/v1/matches/{id}/ and its rounds.")
    status = MatchStatusField()
    sides = serializers.ListField(
        child=serializers.CharField(), help_text="The sides' names, side 0 first."
    )
    table = serializers.IntegerField(allow_null=True, help_text="Null outside a tournament.")
    tournament = ScorerTournamentOutput(
        allow_null=True, help_text="Null for a free-standing match."
    )
    round = serializers.IntegerField(allow_null=True, help_text="The tournament's round.")

    class Meta:
        ref_name = "ScorerMatch"


class ScorerMatchListApi(JsonApi):
    permission_classes = [SignedIn]

    @extend_schema(
        operation_id="scorer_matches",
        summary="The matches you may score, open ones first",
        description="For a device token limited to a tournament or tables: that tournament's "
        "matches at those tables. For a signed-in user: the matches of the tournaments and "
        "clubs they organize, those they score (at their tables when their role names tables), "
        f"and the free-standing matches they created. At most {selectors.SCORER_MATCHES_LIMIT}.",
        tags=[TAG],
        responses={
            200: ScorerMatchOutput(many=True),
            **error_responses(
                {
                    401: "`not_authenticated` (send `Authorization: Token KEY`) or "
                    "`authentication_failed`."
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request) -> Response:
        found = selectors.scorer_matches(user=request.user, device=scoped_device(request.auth))
        return Response(ScorerMatchOutput(found, many=True).data)
