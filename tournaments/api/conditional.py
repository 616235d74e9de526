"""Conditional reads: the tournament's standings, bracket and matches carry an ETag that
changes with what readers see (`selectors.tournament_read_state`: the log's position for the
tournament and its matches, the consumer's catching up, the entrants' names), so a client that
polls gets 304 Not Modified, and no body, until something moved (issue 13 §4)."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from django.http import HttpResponseBase, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request

from tournaments import selectors

NOT_MODIFIED = {
    304: OpenApiResponse(
        description="Not modified: the `If-None-Match` sent is this answer's `ETag` (no body)."
    )
}


def etag_of(request: Request, kind: str, tournament_id: UUID, *, now: datetime | None) -> str:
    """What the answer depends on: the tournament's read state, the representation (format,
    query, language), the reader, and for the match list the deadlines passed (`overdue`)."""
    state = selectors.tournament_read_state(tournament_id=tournament_id)
    representation = f"{request.accepted_renderer.format}?{request.GET.urlencode()}"
    overdue = (
        ""
        if now is None
        else f"-o{len(selectors.overdue_fixtures(tournament_id=tournament_id, now=now))}"
    )
    reader = getattr(request.user, "pk", None) or 0
    crc = zlib.crc32(f"{representation}|{get_language()}|{reader}".encode())
    return f'"{kind}-{state}{overdue}-{crc:x}"'


def conditional_read(
    request: Request,
    tournament_id: UUID,
    kind: str,
    build: Callable[[], HttpResponseBase],
    *,
    deadlines: bool = False,
) -> HttpResponseBase:
    """The answer `build` makes, or 304 when the client has it already; with its ETag."""
    etag = etag_of(request, kind, tournament_id, now=timezone.now() if deadlines else None)
    wanted = request.headers.get("If-None-Match")
    if wanted is not None and (etag in parse_etags(wanted) or wanted.strip() == "*"):
        response: HttpResponseBase = HttpResponseNotModified()
    else:
        response = build()
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept", "Accept-Language", "Authorization", "Cookie"])
    return response
