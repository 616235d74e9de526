"""The tournament as files: the standings as CSV (`standings/?format=csv`), the schedule as
iCalendar (`schedule/`) and the whole tournament as a JSON Lines archive (`archive/`, organizers
only). As for the table card, a format is chosen with `?format=` or the Accept header, through
DRF's content negotiation, and errors stay JSON (docs/decisions/0030-exports-and-archives.md)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request

from accounts.permissions import Action
from common.api.schema import error_responses
from tournaments.api.files import FileApi, FileRenderer
from tournaments.api.schema import TAG, TOURNAMENT_NOT_FOUND
from tournaments.selectors import exports, lookup
from tournaments.selectors.access import TournamentAccess
from tournaments.services import archive

CSV = "csv"
ICS = "ics"
JSONL = "jsonl"


class CsvRenderer(FileRenderer):
    media_type = "text/csv"
    format = CSV
    charset = "utf-8"


class IcsRenderer(FileRenderer):
    media_type = "text/calendar"
    format = ICS
    charset = "utf-8"


class JsonLinesRenderer(FileRenderer):
    media_type = "application/jsonl"
    format = JSONL
    charset = "utf-8"


def attachment(response: HttpResponse, filename: str) -> None:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'


def csv_standings_response(tournament_id: UUID, *, public: bool = False) -> HttpResponse:
    response = HttpResponse(
        exports.standings_csv(tournament_id=tournament_id, as_public=public),
        content_type="text/csv; charset=utf-8",
    )
    attachment(response, f"standings-{tournament_id}.csv")
    return response


def file_responses(
    media_type: str, schema: Any, description: str, errors: dict[int, str]
) -> dict[Any, Any]:
    return {
        (200, media_type): OpenApiResponse(schema, description=description),
        **{
            (status, "application/json"): response
            for status, response in error_responses(errors, write=False).items()
        },
    }


class ScheduleApi(FileApi):
    permission_classes = [TournamentAccess]
    renderer_classes = [IcsRenderer]

    @extend_schema(
        operation_id="tournament_schedule",
        summary="The schedule as iCalendar: one event per match with a start time",
        description="Each VEVENT is a match that has a start (`scheduled_at`): its sides' names "
        "as the summary, its table as the location, the tournament's `match_minutes` as the "
        "duration, and the match id as the UID (so a calendar that subscribes updates the "
        "event when the match moves). Matches replaced after a corrected result are left out.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, enum=[ICS], description="`ics`, the only format."
            )
        ],
        responses=file_responses(
            IcsRenderer.media_type,
            OpenApiTypes.STR,
            "An iCalendar (RFC 5545) file.",
            {
                **TOURNAMENT_NOT_FOUND,
                406: "`not_acceptable`: the schedule is iCalendar.",
            },
        ),
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:  # noqa: ARG002 - DRF calls every handler with the request
        lookup.check_tournament_exists(tournament_id)
        response = HttpResponse(
            exports.schedule_ical(tournament_id=tournament_id),
            content_type="text/calendar; charset=utf-8",
        )
        attachment(response, f"schedule-{tournament_id}.ics")
        return response


class ArchiveApi(FileApi):
    permission_classes = [TournamentAccess]
    access = {"get": Action.ORGANIZE}
    renderer_classes = [JsonLinesRenderer]

    @extend_schema(
        operation_id="tournament_archive",
        summary="The whole tournament as a JSON Lines archive (organizers)",
        description="Every event of the tournament's stream and of its matches' streams as "
        "stored, in global order, with their metadata and idempotency keys, and the names "
        "they refer to (the tournament, its entrants and their players) as lines of their "
        "own: one JSON object per line, each with its `kind`. `manage.py import_tournament "
        "FILE` imports it on another instance, after which the API answers the same about "
        "the tournament. The metadata names devices and accounts: organizers only.",
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, enum=[JSONL], description="`jsonl`, the only format."
            )
        ],
        responses=file_responses(
            JsonLinesRenderer.media_type,
            OpenApiTypes.STR,
            "JSON Lines: an `archive` line, then `tournament`, `entrant`, `side`, `event` and "
            "`idempotency_key` lines.",
            {
                401: "`not_authenticated` or `authentication_failed`: sign in.",
                403: "`permission_denied`: only the tournament's organizers.",
                **TOURNAMENT_NOT_FOUND,
                406: "`not_acceptable`: the archive is JSON Lines.",
            },
        ),
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:  # noqa: ARG002 - DRF calls every handler with the request
        response = HttpResponse(
            "".join(archive.tournament_archive_lines(tournament_id=tournament_id)),
            content_type="application/jsonl; charset=utf-8",
        )
        attachment(response, f"tournament-{tournament_id}.jsonl")
        response["Cache-Control"] = "no-store"
        return response
