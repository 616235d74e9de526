"""Conditional reads: the tournament's standings, bracket and matches carry an ETag that
changes with what they show (`public.tournament_projected_state`: the tournament stream's
version, the log position its stored projection was folded to, the signature its names
carry), so a client that polls gets 304 Not Modified, and no body, until something moved
(issue 13 §4).

The rendered body is kept too, per process, under everything the ETag is made of (decision
record 0010): a repeated read of an unchanged tournament costs the one query of the ETag and a
lookup, not a rebuild, whoever asks. What a body depends on is all in its key, so a new event
that these reads show, a renamed (erased) entrant, another query or another language is another
key, and a body is never served for a state it was not built from. The reader is not in the
key: these bodies are the same for every reader allowed to read them (the permission is
decided before), so one build serves them all.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.http import HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from common.bodies import Body, BodyCache, body_of
from tournaments.selectors import projected, public

NOT_MODIFIED = {
    304: OpenApiResponse(
        description="Not modified: the `If-None-Match` sent is this answer's `ETag` (no body)."
    )
}

CACHED_FORMATS = ("json", "csv")
"""The browsable API's page holds the reader's CSRF token and name: built every time."""

DEFAULT_CACHE_BYTES = 32 * 2**20
"""Per process, unless the setting TOURNAMENT_READ_CACHE_BYTES says otherwise. A 1,024-entrant
tournament's three reads (JSON and CSV, a page of matches) together are under 1 MiB."""

KEPT_HEADERS = ("Content-Type", "Content-Disposition")


BODIES: BodyCache[tuple[str, ...]] = BodyCache(
    getattr(settings, "TOURNAMENT_READ_CACHE_BYTES", DEFAULT_CACHE_BYTES)
)


def read_key(request: Request, kind: str, tournament_id: UUID, state: str) -> tuple[str, ...]:
    """What the answer depends on: the tournament and its projected state (with the deadlines
    passed, for the match list), the read, and the representation (format, query, language)."""
    representation = f"{request.accepted_renderer.format}?{request.GET.urlencode()}"
    return (str(tournament_id), kind, state, representation, get_language() or "")


def etag_of(request: Request, key: tuple[str, ...]) -> str:
    """The key, and the reader (a cache between the client and us must not give one reader's
    copy to another)."""
    _, kind, state, representation, language = key
    reader = getattr(request.user, "pk", None) or 0
    crc = zlib.crc32(f"{representation}|{language}|{reader}".encode())
    return f'"{kind}-{state}-{crc:x}"'


def conditional_read(
    request: Request,
    tournament_id: UUID,
    kind: str,
    build: Callable[[], HttpResponseBase],
    *,
    now: datetime | None = None,
) -> HttpResponseBase:
    """The answer `build` makes, or the one kept for the same key, or 304 when the client has
    it already; with its ETag. An answer that shows which deadlines have passed (the match
    list's `overdue`) gives the `now` it is built for: the matches overdue then are in the
    key, so the answer changes when another deadline passes."""
    state = public.tournament_projected_state(tournament_id=tournament_id, now=now)
    key = read_key(request, kind, tournament_id, state)
    etag = etag_of(request, key)
    wanted = request.headers.get("If-None-Match")
    response: HttpResponseBase
    if wanted is not None and (etag in parse_etags(wanted) or wanted.strip() == "*"):
        response = HttpResponseNotModified()
    elif request.accepted_renderer.format not in CACHED_FORMATS:
        response = build()
    elif (body := BODIES.get(key)) is not None:
        response = body.response()
    else:
        with BODIES.building(key):  # the readers asking at the same time wait for one build
            body = BODIES.get(key)
            if body is not None:
                response = body.response()
            else:
                response = build()
                body = rendered(request, response)
                if body is not None:
                    BODIES.put(key, body)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept", "Accept-Language", "Authorization", "Cookie"])
    return response


def rendered(request: Request, response: HttpResponseBase) -> Body | None:
    """The answer's bytes and headers; None for an answer that is not kept (not a 200)."""
    if response.status_code != 200:
        return None
    if isinstance(response, Response):
        # Rendered here, as DRF would after the view, to keep the bytes.
        response.accepted_renderer = request.accepted_renderer
        response.accepted_media_type = request.accepted_media_type
        response.renderer_context = {"request": request, "response": response}  # type: ignore[attr-defined]
        response.render()
    if not isinstance(response, HttpResponse):
        return None
    return body_of(response, KEPT_HEADERS)


RESULTS_HIDDEN_HEADER = "Results-Hidden"


def read_kind(kind: str, hidden_from: int | None) -> str:
    """The read's kind in its key: a reader who may not read the silent rounds' results reads
    another body (decision record 0060), kept apart from the one that shows everything."""
    return kind if hidden_from is None else f"{kind}-before-{hidden_from}"


def marked_hidden(
    response: HttpResponseBase, tournament_id: UUID, hidden_from: int | None
) -> HttpResponseBase:
    """Say on the answer that the results from round `hidden_from` are hidden from its reader,
    once a silent round is paired (before, nothing is missing): `Results-Hidden:
    after-round=<the last round shown>` (decision record 0060)."""
    if hidden_from is not None and projected.silent_view(tournament_id) is not None:
        response[RESULTS_HIDDEN_HEADER] = f"after-round={hidden_from - 1}"
    return response
