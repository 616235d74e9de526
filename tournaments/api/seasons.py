"""A club's seasons and a season's standings, for anyone to read (decision record 0037).

The standings are computed when read from the season's finished tournaments' events; only
public tournaments are counted, so a season is public too."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from typing_extensions import override

from common.api.base import JsonApi
from common.api.schema import error_responses
from common.api.serializing import Serializer
from tournaments.models import Season
from tournaments.seasons import selectors as season_selectors

TAG = "seasons"


class AnyoneReads(permissions.BasePermission):
    """Seasons count public tournaments only: anyone reads them. Writes are the admin's: this
    API has no method for them (405 for everyone, as for any method a view does not take)."""

    @override
    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method not in permissions.SAFE_METHODS:
            raise exceptions.MethodNotAllowed(request.method or "")
        return True


class SeasonSummaryOutput(Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points for 1st, 2nd, 3rd... place."
    )
    participation = serializers.IntegerField(help_text="Points for any place beyond `points`.")
    best_n = serializers.IntegerField(
        allow_null=True, help_text="Only each player's N best results count; null: all."
    )

    class Meta:
        ref_name = "SeasonSummary"


class SeasonListOutput(Serializer):
    club = serializers.CharField(help_text="The club's slug.")
    club_name = serializers.CharField()
    seasons = SeasonSummaryOutput(many=True)

    class Meta:
        ref_name = "SeasonList"


class SeasonTournamentOutput(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="`registration`, `in_progress` or `finished`.")
    counted = serializers.BooleanField(
        help_text="Finished, so its places count; a running tournament counts once finished."
    )

    class Meta:
        ref_name = "SeasonTournament"


class SeasonResultOutput(Serializer):
    tournament = serializers.UUIDField()
    place = serializers.IntegerField(help_text="The final place; shared places repeat.")
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the player's best N results.")

    class Meta:
        ref_name = "SeasonResult"


class SeasonStandingOutput(Serializer):
    rank = serializers.IntegerField(
        help_text="By points, then count-back (more 1st places, then 2nd...); equal rows share it."
    )
    player = serializers.IntegerField(
        help_text="The player's id: their first row the requester may know of."
    )
    name = serializers.CharField(help_text="`erased player` for an erased player.")
    points = serializers.IntegerField(help_text="The counted results' points.")
    counted_results = serializers.IntegerField()
    results = SeasonResultOutput(many=True, help_text="Every result, in tournament order.")

    class Meta:
        ref_name = "SeasonStanding"


class SeasonDetailOutput(SeasonSummaryOutput):
    club = serializers.CharField(help_text="The club's slug.")
    club_name = serializers.CharField()
    tournaments = SeasonTournamentOutput(many=True, help_text="Oldest first.")
    standings = SeasonStandingOutput(many=True, help_text="Best first.")

    class Meta:
        ref_name = "SeasonDetail"


def summary(season: Season) -> dict[str, Any]:
    return {
        "name": season.name,
        "slug": season.slug,
        "points": list(season.points),
        "participation": season.participation,
        "best_n": season.best_n,
    }


class SeasonListApi(JsonApi):
    permission_classes = [AnyoneReads]

    @extend_schema(
        operation_id="club_seasons",
        summary="A club's seasons, newest first",
        tags=[TAG],
        responses={
            200: SeasonListOutput,
            **error_responses({404: "`club_not_found`."}, write=False),
        },
    )
    def get(self, request: Request, club_slug: str) -> Response:  # noqa: ARG002 - DRF calls every handler with the request
        club, found = season_selectors.club_seasons(club_slug=club_slug)
        body = {
            "club": club.slug,
            "club_name": club.name,
            "seasons": [summary(season) for season in found],
        }
        return Response(SeasonListOutput(body).data)


class SeasonDetailApi(JsonApi):
    permission_classes = [AnyoneReads]

    @extend_schema(
        operation_id="club_season",
        summary="A season with its standings",
        description="The standings are computed from the season's finished tournaments' "
        "events when read: each player's points per final place, only the best N counting.",
        tags=[TAG],
        responses={
            200: SeasonDetailOutput,
            **error_responses({404: "`club_not_found`, `season_not_found`."}, write=False),
        },
    )
    def get(self, request: Request, club_slug: str, season_slug: str) -> Response:
        season = season_selectors.season_of(club_slug=club_slug, season_slug=season_slug)
        standings = season_selectors.standings_of(season, reader=request.user)
        body = summary(season) | {
            "club": season.club.slug,
            "club_name": season.club.name,
            "tournaments": [
                {"id": line.id, "name": line.name, "status": line.status, "counted": line.counted}
                for line in standings.tournaments
            ],
            "standings": [
                {
                    "rank": row.rank,
                    "player": row.player,
                    "name": row.name,
                    "points": row.points,
                    "counted_results": row.counted,
                    "results": [
                        {
                            "tournament": result.tournament,
                            "place": result.place,
                            "points": result.points,
                            "counted": result.counted,
                        }
                        for result in row.results
                    ],
                }
                for row in standings.rows
            ],
        }
        return Response(SeasonDetailOutput(body).data)
