"""A table's printable card (organizers): SVG by default, PDF with `?format=pdf` or
`Accept: application/pdf`; every table's card in one PDF (`tables/cards/`). Errors stay JSON, as
everywhere in the API."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request

from accounts.permissions import Action
from common.api.schema import error_responses
from tournaments.api.files import FileApi, FileRenderer
from tournaments.api.schema import TAG
from tournaments.selectors.access import TournamentAccess
from tournaments.services import table_cards

PDF = "pdf"
PDF_TYPE = "application/pdf"


class SvgRenderer(FileRenderer):
    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"


class PdfRenderer(FileRenderer):
    media_type = "application/pdf"
    format = PDF
    charset = None


class TableCardApi(FileApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.ORGANIZE}
    renderer_classes = [SvgRenderer, PdfRenderer]

    @extend_schema(
        operation_id="table_card",
        summary="A table's printable card with a QR code of the table page and its device key "
        "(organizers)",
        description="The QR code opens `/table/#key=KEY` with a device token that scores this "
        "table of this tournament only. The first card of a table issues the token (yours, for "
        "the configured lifetime); later cards show the same key while it is active. Revoke it "
        "in `device-tokens/` to retire the card: the next card issues a new key.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=["svg", PDF],
                description="`svg` (the default) or `pdf`; or send `Accept: application/pdf`.",
            )
        ],
        responses={
            (200, SvgRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, description="The card: an A6 SVG image or a one-page A6 PDF."
            ),
            (200, PdfRenderer.media_type): OpenApiResponse(
                OpenApiTypes.BINARY, description="The card: an A6 SVG image or a one-page A6 PDF."
            ),
            **{
                (status, "application/json"): response
                for status, response in error_responses(
                    {
                        401: "`not_authenticated` or `authentication_failed`: sign in.",
                        403: "`permission_denied`: only the tournament's organizers.",
                        404: "`tournament_not_found`, `table_not_found`; `not_found` for an "
                        "unknown `format`.",
                        406: "`not_acceptable`: the card is SVG or PDF.",
                        422: "`invalid_device_token`: the table had too many cards.",
                    },
                    write=False,
                ).items()
            },
        },
    )
    def get(self, request: Request, tournament_id: UUID, table: int) -> HttpResponse:
        card = table_cards.table_card_issue(
            tournament_id=tournament_id,
            table=table,
            organizer=request.user,  # type: ignore[arg-type]
            table_page=request.build_absolute_uri(reverse("pages:table")),
        )
        name = f"table-{table}-card"
        if request.accepted_renderer.format == PDF:
            response = HttpResponse(
                table_cards.table_card_pdf(card), content_type="application/pdf"
            )
            response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
        else:
            response = HttpResponse(
                table_cards.table_card_svg(card), content_type="image/svg+xml; charset=utf-8"
            )
            response["Content-Disposition"] = f'inline; filename="{name}.svg"'
        # The card carries a working key: no cache may keep it.
        response["Cache-Control"] = "no-store"
        return response


class TableCardsApi(FileApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.ORGANIZE}
    renderer_classes = [PdfRenderer]

    @extend_schema(
        operation_id="table_cards",
        summary="Every table's card in one PDF, a page per table (organizers)",
        description="The cards of tables 1 to the tournament's tables, each as "
        "`tables/{table}/card/?format=pdf` draws it: a table's first card issues its token, "
        "later ones show the same key while it is active (decision records 0025, 0049).",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=[PDF],
                description="`pdf` (the only format, and the default).",
            )
        ],
        responses={
            (200, PdfRenderer.media_type): OpenApiResponse(
                OpenApiTypes.BINARY, description="An A6 PDF, a page per table in order."
            ),
            **{
                (status, "application/json"): response
                for status, response in error_responses(
                    {
                        401: "`not_authenticated` or `authentication_failed`: sign in.",
                        403: "`permission_denied`: only the tournament's organizers.",
                        404: "`tournament_not_found`; `not_found` for an unknown `format`.",
                        406: "`not_acceptable`: the cards are PDF.",
                        422: "`invalid_device_token`: a table had too many cards.",
                    },
                    write=False,
                ).items()
            },
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:
        cards = table_cards.table_cards_issue(
            tournament_id=tournament_id,
            organizer=request.user,  # type: ignore[arg-type]
            table_page=request.build_absolute_uri(reverse("pages:table")),
        )
        response = HttpResponse(table_cards.table_cards_pdf(cards), content_type=PDF_TYPE)
        response["Content-Disposition"] = f'inline; filename="table-cards-{tournament_id}.pdf"'
        # The cards carry working keys: no cache may keep them.
        response["Cache-Control"] = "no-store"
        return response
