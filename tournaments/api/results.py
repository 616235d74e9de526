"""What readers follow: the standings and the bracket, as the tournament consumer projected them
(both lag behind the matches until it has run)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import JsonApi
from common.api.browsable import BrowsableApi
from common.api.schema import error_responses
from common.api.serializing import Serializer, represent
from tournaments.api.conditional import NOT_MODIFIED, conditional_read, marked_hidden, read_kind
from tournaments.api.exports import CSV, CsvRenderer, csv_standings_response
from tournaments.api.files import FileApi
from tournaments.api.schema import TAG, TOURNAMENT_NOT_FOUND, tournament_read_schema
from tournaments.api.serializers import DecidedByField, FormatField, TournamentStatusField
from tournaments.plan.drawing import SIT_OUTS
from tournaments.selectors import lookup, projected, silence
from tournaments.selectors.access import TournamentAccess

PROJECTED = (
    "Projected asynchronously from the event log: a result shows here once the tournament "
    "consumer has read it."
)


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "number", "nullable": True},
        "description": "The configured tie-breaks by name, in the configured order.",
    }
)
class TiebreaksField(serializers.DictField):
    """Values as computed: integers stay integers, Buchholz-like averages may be fractions."""


@extend_schema_field({"type": "number"})
class MatchPointsField(serializers.Field):  # type: ignore[type-arg]
    """A number as the standings have it: an integer, or a fraction shown as a decimal."""

    def to_representation(self, value: Any) -> Any:
        return value


class SatOutOutput(Serializer):
    round = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=list(SIT_OUTS),
        help_text="`late_entry` (no points), `late_entry_bye` (a bye's points), "
        "`requested_bye` (`requested_bye_points`) or `absent` (paused: no points).",
    )

    class Meta:
        ref_name = "SatOut"


class StandingOutput(Serializer):
    rank = serializers.IntegerField(help_text="Entrants the tie-breaks cannot split share it.")
    entrant = serializers.IntegerField(help_text="The entrant's id.")
    name = serializers.CharField()
    match_points = MatchPointsField(
        help_text="An integer; at tables of three a place shared shares its points, so it may "
        "be a fraction (1.5)."
    )
    played = serializers.IntegerField()
    won = serializers.IntegerField(required=False, help_text="Two-sided tables only.")
    tied = serializers.IntegerField(required=False, help_text="Two-sided tables only.")
    lost = serializers.IntegerField(required=False, help_text="Two-sided tables only.")
    byes = serializers.IntegerField(required=False, help_text="Tables of three only.")
    placings = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Tables of three only: how many tables finished 1st, 2nd and 3rd.",
    )
    rounds_won = serializers.IntegerField()
    rounds_lost = serializers.IntegerField(required=False, help_text="Two-sided tables only.")
    points_for = serializers.IntegerField(help_text="Card points taken.")
    points_against = serializers.IntegerField(
        required=False, help_text="Card points conceded (two-sided tables only)."
    )
    tiebreaks = TiebreaksField()
    sat_out = SatOutOutput(
        many=True,
        required=False,
        help_text="Swiss: the rounds drawn without the entrant (a late entry, a requested bye, "
        "an absence), in round order; left out when there are none (decision record 0058).",
    )

    class Meta:
        ref_name = "Standing"


class StandingListApi(FileApi):
    permission_classes = [TournamentAccess]
    renderer_classes = [JSONRenderer, BrowsableApi, CsvRenderer]

    @extend_schema(
        operation_id="tournament_standings",
        summary="The overall standings, best first",
        description=f"Every stage's results together; empty before the start. {PROJECTED} "
        "With `?format=csv` (or `Accept: text/csv`), a CSV file: a header row (`rank`, "
        "`entrant`, `name`, `players`, `match_points`, ..., then each tie-break by name) and "
        "one row per entrant, best first.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=["json", CSV],
                description="`json` (the default) or `csv`; or send `Accept: text/csv`.",
            )
        ],
        responses={
            (200, "application/json"): StandingOutput(many=True),
            (200, CsvRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, description="The standings as CSV (UTF-8, CRLF)."
            ),
            **NOT_MODIFIED,
            **{
                (status, "application/json"): response
                for status, response in error_responses(
                    {**TOURNAMENT_NOT_FOUND, 406: "`not_acceptable`: JSON or CSV."},
                    write=False,
                ).items()
            },
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponseBase:
        if request.accepted_renderer.format == CSV:
            lookup.check_tournament_exists(tournament_id)
        hidden = silence.hidden_round(request.user, request.place)  # type: ignore[attr-defined]
        public = hidden is not None

        def build() -> HttpResponseBase:
            if request.accepted_renderer.format == CSV:
                return csv_standings_response(tournament_id, public=public)
            rows = projected.tournament_standings(tournament_id=tournament_id, public=public)
            return Response(represent(StandingOutput, rows))

        response = conditional_read(request, tournament_id, read_kind("standings", hidden), build)
        return marked_hidden(response, tournament_id, hidden)


class AdvanceOutput(Serializer):
    key = serializers.CharField(help_text="The bracket slot the entrant goes to.")
    side = serializers.ChoiceField(
        choices=["home", "away", "seat"],
        help_text="`seat` in a knockout at tables of three: the winner takes a seat there.",
    )

    class Meta:
        ref_name = "BracketAdvance"


class BracketMatchOutput(Serializer):
    key = serializers.CharField(help_text="The bracket slot or pairing, e.g. `R1-2`, `L2-1`.")
    match_id = serializers.UUIDField(
        allow_null=True, help_text="Null until both entrants are known and the match exists."
    )
    entrants = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="[home, away] entrant ids; null while unknown or for a bye. At tables of "
        "three, the two or three entrants known at the table.",
    )
    entrant_names = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="[home, away] entrant names beside `entrants`; null where the id is.",
    )
    status = serializers.CharField(
        help_text="With a match: `ready`, `in_progress` or `finished`. Without one: `pending` "
        "(entrants unknown), `walkover` (a bye), `empty`, `not_needed` (an unneeded reset)."
    )
    winner = serializers.IntegerField(allow_null=True)
    winner_name = serializers.CharField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    scheduled_at = serializers.DateTimeField(allow_null=True)
    decided_by = DecidedByField(
        allow_null=True,
        help_text="A knockout match that ended level: `higher_seed` or `organizer` when its "
        "winner was decided off the table; null otherwise.",
    )
    winner_to = AdvanceOutput(allow_null=True, help_text="Where the winner goes next; null: out.")
    loser_to = AdvanceOutput(
        allow_null=True, help_text="Where the loser goes next; null: eliminated."
    )

    class Meta:
        ref_name = "BracketMatch"


class BracketRoundOutput(Serializer):
    number = serializers.IntegerField()
    section = serializers.CharField(
        help_text="A bracket's `main`, `winners`, `losers`, `grand_final`, `third_place`; a "
        "league's or group's stage name."
    )
    bye = serializers.IntegerField(
        allow_null=True, help_text="Leagues and Swiss: the entrant sitting the round out."
    )
    bye_name = serializers.CharField(allow_null=True, help_text="The name of `bye`.")
    matches = BracketMatchOutput(many=True)

    class Meta:
        ref_name = "BracketRound"


class BracketStageOutput(Serializer):
    name = serializers.CharField(
        help_text="`bracket`, `knockout`, `league`, `swiss`, a group's label, or `A-playoff` "
        "for the playoff among the entrants tied at group A's qualification cut."
    )
    kind = serializers.CharField(
        help_text="`single_elimination`, `double_elimination`, `round_robin`, `swiss`, `group`, "
        "`playoff` (its matches do not count in the standings)."
    )
    complete = serializers.BooleanField()
    rounds = BracketRoundOutput(many=True)

    class Meta:
        ref_name = "BracketStage"


class PlacementOutput(Serializer):
    entrant = serializers.IntegerField()
    name = serializers.CharField(help_text="The entrant's name.")
    place = serializers.IntegerField(help_text="Entrants eliminated together share a place.")

    class Meta:
        ref_name = "Placement"


class BracketOutput(Serializer):
    format = FormatField()
    status = TournamentStatusField()
    stages = BracketStageOutput(
        many=True, help_text="The stages known so far (a knockout once its groups are played)."
    )
    placements = PlacementOutput(
        many=True, help_text="The last bracket's entrants whose final place is known, best first."
    )
    entrants = serializers.DictField(
        child=serializers.CharField(), help_text="Entrant names by id."
    )
    champion = serializers.IntegerField(
        allow_null=True,
        help_text="The winner: first place of the last bracket, or for a finished league or "
        "Swiss the entrant ranked first alone. Null until known.",
    )
    champion_name = serializers.CharField(
        allow_null=True, help_text="The champion's name; null until known."
    )

    class Meta:
        ref_name = "Bracket"


class BracketDetailApi(JsonApi):
    permission_classes = [TournamentAccess]

    @tournament_read_schema(
        operation_id="tournament_bracket",
        summary="The stages, their rounds and matches, and where each winner and loser goes",
        description=PROJECTED,
        response=BracketOutput,
        answers=NOT_MODIFIED,
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponseBase:
        hidden = silence.hidden_round(request.user, request.place)  # type: ignore[attr-defined]

        def build() -> HttpResponseBase:
            bracket = projected.tournament_bracket(
                tournament_id=tournament_id, public=hidden is not None
            )
            return Response(represent(BracketOutput, bracket))

        response = conditional_read(request, tournament_id, read_kind("bracket", hidden), build)
        return marked_hidden(response, tournament_id, hidden)
