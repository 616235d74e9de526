"""Every score sheet of a round in one PDF (organizers), beside the console's sheets
(docs/decisions/0030-exports-and-archives.md, 0049): `rounds/{n}/sheets/?format=pdf`, or the HTML
it is drawn from with `?format=html`. Errors stay JSON."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request

from accounts.permissions import Action
from common.api.commands import validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer
from tournaments.api.files import FileApi, FileRenderer
from tournaments.api.schema import TAG
from tournaments.api.table_cards import PDF, PDF_TYPE, PdfRenderer
from tournaments.selectors import sheets
from tournaments.selectors.access import TournamentAccess

HTML = "html"


class HtmlRenderer(FileRenderer):
    media_type = "text/html"
    format = HTML
    charset = "utf-8"


class RoundSheetsApi(FileApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.ORGANIZE}
    renderer_classes = [PdfRenderer, HtmlRenderer]

    class QuerySerializer(Serializer):
        stage = serializers.CharField(required=False, max_length=40)

        class Meta:
            ref_name = "RoundSheetsQuery"

    @extend_schema(
        operation_id="round_score_sheets",
        summary="Every score sheet of a round in one PDF, a page per match (organizers)",
        description="The round as the evening plays it: of `stage` when given; otherwise of "
        "every stage where the round still has a match to play (the groups of a group stage "
        "side by side), or, once it is played everywhere, of every stage that has it. Matches "
        "by table, those without a table last (decision record 0049).",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=[PDF, HTML],
                description="`pdf` (the default) or `html` (what the PDF is drawn from).",
            ),
            OpenApiParameter(
                "stage", OpenApiTypes.STR, description="Only this stage's round (e.g. `A`)."
            ),
        ],
        responses={
            (200, PDF_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="An A4 PDF, a score sheet per match."
            ),
            (200, HtmlRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, description="The sheets as HTML with print CSS."
            ),
            **{
                (status, "application/json"): response
                for status, response in error_responses(
                    {
                        400: "`invalid_input`: `stage`.",
                        401: "`not_authenticated` or `authentication_failed`: sign in.",
                        403: "`permission_denied`: only the tournament's organizers.",
                        404: "`tournament_not_found`, `round_not_found` (no match in that "
                        "round); `not_found` for an unknown `format`.",
                        406: "`not_acceptable`: the sheets are PDF or HTML.",
                    },
                    write=False,
                ).items()
            },
        },
    )
    def get(self, request: Request, tournament_id: UUID, round_number: int) -> HttpResponse:
        query = validated_query(self.QuerySerializer, request.query_params)
        context = sheets.evening_round(
            tournament_id=tournament_id, round_number=round_number, stage=query.get("stage")
        )
        html = sheets.sheet_html(sheets.SCORE_SHEETS, context)
        if request.accepted_renderer.format == HTML:
            return HttpResponse(html, content_type="text/html; charset=utf-8")
        response = HttpResponse(
            sheets.sheet_pdf(html, base_url=request.build_absolute_uri("/")),
            content_type=PDF_TYPE,
        )
        name = f"score-sheets-{tournament_id}-round-{round_number}.pdf"
        response["Content-Disposition"] = f'inline; filename="{name}"'
        return response
