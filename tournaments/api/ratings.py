"""Ratings: a club's leaderboard and a player's ratings with their history (issue 15 §1,
decision record 0036). Public reads: only public tournaments' results are rated; each player is
shown as the player page shows them (decision record 0043)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import JsonApi
from common.api.commands import QueryIntegerField, validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer, represent
from tournaments.ratings import selectors as rating_selectors
from tournaments.selectors import players
from tournaments.selectors.access import PublicRead
from tournaments.selectors.lookup import club_get

TAG = "ratings"
PROJECTED = (
    "Projected asynchronously from the event log (openskill Plackett-Luce, in log order): a "
    "result counts once the ratings consumer has read it. `rating` is mu minus three sigma."
)


class LeaderboardRowOutput(Serializer):
    rank = serializers.IntegerField(help_text="Equal ratings share a rank.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField(help_text='"erased player" for an erased player.')
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(help_text="The display value: mu - 3 sigma.")
    matches = serializers.IntegerField(help_text="Rated matches in the club.")

    class Meta:
        ref_name = "LeaderboardRow"


class LeaderboardQuery(Serializer):
    min_matches = QueryIntegerField(
        required=False, min_value=0, default=rating_selectors.DEFAULT_MIN_MATCHES
    )


class ClubRatingsApi(JsonApi):
    permission_classes = [PublicRead]

    @extend_schema(
        operation_id="club_ratings",
        summary="A club's leaderboard, best rating first",
        description=f"The players with at least `min_matches` rated matches in the club. "
        f"{PROJECTED}",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "min_matches",
                OpenApiTypes.INT,
                description=f"Default {rating_selectors.DEFAULT_MIN_MATCHES}; "
                "0 lists every rated player.",
            )
        ],
        responses={
            200: LeaderboardRowOutput(many=True),
            **error_responses(
                {
                    400: "`invalid_input`: `min_matches` is not a non-negative integer.",
                    404: "`club_not_found`.",
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request, slug: str) -> Response:
        query = validated_query(LeaderboardQuery, request.query_params)
        club = club_get(slug)
        rows = rating_selectors.club_leaderboard(
            club=club, reader=request.user, min_matches=query["min_matches"]
        )
        return Response(represent(LeaderboardRowOutput, rows))


class RatingHistoryOutput(Serializer):
    match_id = serializers.UUIDField(help_text="The match rated.")
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    mu = serializers.FloatField(help_text="After the match.")
    sigma = serializers.FloatField(help_text="After the match.")

    class Meta:
        ref_name = "RatingHistoryEntry"


class ScopeRatingOutput(Serializer):
    club = serializers.CharField(allow_null=True, help_text="The club's slug; null: overall.")
    club_name = serializers.CharField(allow_null=True)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(help_text="The display value: mu - 3 sigma.")
    matches = serializers.IntegerField()
    history = RatingHistoryOutput(many=True, help_text="Oldest match first.")

    class Meta:
        ref_name = "ScopeRating"


class PlayerRatingsOutput(Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text='"erased player" for an erased player.')
    ratings = ScopeRatingOutput(
        many=True, help_text="Overall first (`club` null), then each club by name."
    )

    class Meta:
        ref_name = "PlayerRatings"


class PlayerRatingsApi(JsonApi):
    permission_classes = [PublicRead]

    @extend_schema(
        operation_id="player_ratings",
        summary="A player's ratings, overall and per club, with their history",
        description=f"Empty `ratings` for a player with no rated match. {PROJECTED}",
        tags=[TAG],
        responses={
            200: PlayerRatingsOutput,
            **error_responses(
                {
                    404: "`player_not_found`: no such player, or one who plays only in "
                    "tournaments the requester may not read (as on the player's page)."
                },
                write=False,
            ),
        },
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = players.player_get(player_id=player_id, reader=request.user)
        return Response(
            represent(PlayerRatingsOutput, rating_selectors.player_ratings(player=player))
        )
