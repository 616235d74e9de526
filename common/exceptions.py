"""Every API error as `{"code": "...", "detail": "..."}`, with its HTTP status decided here only.

The rules core, the match stream and the tournament services raise `RuleViolation`s, the
accounts services `AccountsError`s, the
tournament formats `FormatError`s, the standings `StandingsError`s and the event store
`EventStoreError`s; all carry a stable `code` (and `extra` facts for the body, if any). The
settings name them (`API_DOMAIN_ERRORS`), so this module imports none of the apps. DRF's own
exceptions (validation, parsing, authentication, ...) are reshaped to the same two fields, and
so are Django's refusals of a request too big to read. See docs/decisions/0005-scorer-api.md
and docs/decisions/0010-tournament-api.md.

`detail` is in the request's language (LocaleMiddleware activated it: Accept-Language or the
language cookie), English by default; `code` never changes. Domain errors carry a message
template and its parameters, rendered here as `gettext(template) % params`; DRF's own messages
are translated by DRF's catalogue (decision record 0022).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.module_loading import import_string
from django.utils.translation import gettext, pgettext_lazy
from django.views import defaults
from psycopg_pool import PoolTimeout
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

API_PATH_PREFIX = "/api/"

CONFLICT_CODES = frozenset(
    {
        "version_conflict",
        "round_in_progress",
        "match_finished",
        "round_not_latest",
        "round_voided",
        "round_ruled",
        "match_exists",
        "result_already_confirmed",
        "result_already_disputed",
        "points_already_entered",
        "tournament_started",
        "tournament_not_started",
        "registration_closed",
        "entrant_withdrawn",
        "not_entered",
        "swiss_round_not_due",
        "no_draw_without_same_group",
        "club_exists",
        "round_already_drawn",
        "too_many_byes",
        "bye_already_requested",
        "bye_not_requested",
    }
)
"""The request was well formed and legal in general, but the match or the tournament is not in a
state to take it."""


@cache
def domain_errors() -> tuple[type[Exception], ...]:
    """The errors of `settings.API_DOMAIN_ERRORS`: each has a stable `code`, is raised from a
    message template and its parameters, and may carry `extra` facts for the body."""
    return tuple(import_string(path) for path in settings.API_DOMAIN_ERRORS)


WORD_PARAMS: Mapping[str, Mapping[object, object]] = {
    "stream_type": {
        "match": pgettext_lazy("stream type", "match"),
        "tournament": pgettext_lazy("stream type", "tournament"),
    },
}
"""Parameters that are words of a sentence, said in the request's language (other parameters,
such as card codes and ids, stay as they are)."""

INVALID_INPUT = "invalid_input"
MALFORMED_JSON = "malformed_json"
REQUEST_TOO_LARGE = "request_too_large"
TOO_MANY_FIELDS = "too_many_fields"


def status_for(code: str) -> int:
    """The HTTP status of a domain error code (the rules, the match stream, the tournaments, the
    event store)."""
    if code.endswith("_not_found"):
        return status.HTTP_404_NOT_FOUND
    if code in CONFLICT_CODES:
        return status.HTTP_409_CONFLICT
    if code == INVALID_INPUT:
        return status.HTTP_400_BAD_REQUEST
    return status.HTTP_422_UNPROCESSABLE_ENTITY


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": detail, **extra}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: domain errors by code, DRF's errors reshaped, anything else 500."""
    if isinstance(exc, domain_errors()):
        code: str = getattr(exc, "code")  # noqa: B009 (declared by each error class)
        extra = {name: rendered_fact(value) for name, value in getattr(exc, "extra", {}).items()}
        return domain_error_response(code, translated_detail(exc), **extra)
    if isinstance(exc, exceptions.ValidationError):
        return validation_error_response(exc)
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent):
        return request_too_big_response(exc)
    if waited_too_long_for_a_connection(exc):
        return server_busy_response()
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = drf_error_code(exc, response.status_code)
    response.data = error_body(code, drf_error_detail(response.data))
    return response


SERVER_BUSY_RETRY_SECONDS = 2


def waited_too_long_for_a_connection(exc: Exception) -> bool:
    """Every connection of the web process's pool stayed taken for DATABASE_POOL_TIMEOUT: the
    server is overloaded, not broken (decision 0051)."""
    return isinstance(exc, OperationalError) and isinstance(exc.__cause__, PoolTimeout)


def server_busy_response() -> Response:
    """503 `server_busy` with a Retry-After: the request did nothing (it never had a
    connection), so the client sends it again as it is (the table page keeps it queued)."""
    response = Response(
        error_body(
            "server_busy", gettext("The server is busy: try again in a moment; nothing was lost.")
        ),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
    )
    response["Retry-After"] = str(SERVER_BUSY_RETRY_SECONDS)
    return response


def rendered_fact(value: object) -> object:
    """A fact of an error's body as JSON: a domain error in it (a refused line of a list) as
    its own facts, `code` and `detail`."""
    if isinstance(value, domain_errors()):
        facts = {name: rendered_fact(fact) for name, fact in getattr(value, "extra", {}).items()}
        return {**facts, "code": getattr(value, "code"), "detail": translated_detail(value)}  # noqa: B009
    if isinstance(value, list | tuple):
        return [rendered_fact(item) for item in value]
    return value


def translated_detail(error: Exception) -> str:
    """A domain error's detail in the active language: its template translated, then filled in
    (a parameter that is itself a domain error, the reason behind this one, is translated too).
    An error raised without a template keeps its English detail."""
    template = getattr(error, "template", None)
    params: Mapping[str, object] = getattr(error, "params", {})
    if not isinstance(template, str):
        return str(error)
    values = {name: translated_param(name, value) for name, value in params.items()}
    return gettext(template) % values


def translated_param(name: str, value: object) -> object:
    if isinstance(value, domain_errors()):
        return translated_detail(value)
    words = WORD_PARAMS.get(name, {})
    return words.get(value, value) if isinstance(value, str) else value


def domain_error_response(code: str, detail: str, **extra: Any) -> Response:
    set_rollback()
    return Response(error_body(code, detail, **extra), status=status_for(code))


def validation_error_response(exc: exceptions.ValidationError) -> Response:
    fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    set_rollback()
    return Response(
        error_body(INVALID_INPUT, first_message(fields) or gettext("invalid input"), fields=fields),
        status=status.HTTP_400_BAD_REQUEST,
    )


def request_too_big_response(exc: RequestDataTooBig | TooManyFieldsSent) -> Response:
    """Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE, or a query string or form
    with more than DATA_UPLOAD_MAX_NUMBER_FIELDS parameters; left to Django, both would answer
    an HTML page."""
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body(
                REQUEST_TOO_LARGE,
                gettext("the request body is over %(size)s bytes")
                % {"size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    return Response(
        error_body(
            TOO_MANY_FIELDS,
            gettext("the request has over %(count)s parameters")
            % {"count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS},
        ),
        status=status.HTTP_400_BAD_REQUEST,
    )


def first_message(errors: object, path: tuple[str, ...] = ()) -> str | None:
    """The first message of a (nested) DRF error structure, prefixed with where it applies."""
    if isinstance(errors, Mapping):
        for key, value in errors.items():
            found = first_message(value, (*path, str(key)))
            if found is not None:
                return found
        return None
    if isinstance(errors, list):
        for index, value in enumerate(errors):
            # A field's messages are a list of strings; a nested list has an entry per item.
            found = first_message(value, path if isinstance(value, str) else (*path, str(index)))
            if found is not None:
                return found
        return None
    where = ".".join(part for part in path if part != "non_field_errors")
    return f"{where}: {errors}" if where else str(errors)


def drf_error_code(exc: Exception, status_code: int) -> str:
    if isinstance(exc, exceptions.ParseError):
        return MALFORMED_JSON
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        return codes if isinstance(codes, str) else exc.default_code
    # Django's Http404 or PermissionDenied, which DRF's handler turned into a response.
    return "not_found" if status_code == status.HTTP_404_NOT_FOUND else "permission_denied"


def drf_error_detail(data: object) -> str:
    if isinstance(data, Mapping) and "detail" in data:
        return str(data["detail"])
    return first_message(data) or gettext("error")


# Django's own handlers, for requests that never reach a DRF view (a URL that does not resolve,
# such as a match id that is not a UUID) or fail outside one.


def is_api_request(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PATH_PREFIX)


def api_or_page(
    request: HttpRequest, status_code: int, page: Callable[[], HttpResponse]
) -> HttpResponse:
    """Django's own error answers: JSON with a code under /api/, Django's page elsewhere."""
    if is_api_request(request):
        body = error_body(API_ERROR_CODES[status_code], api_error_detail(request, status_code))
        return JsonResponse(body, status=status_code)
    return page()


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return api_or_page(
        request,
        status.HTTP_404_NOT_FOUND,
        lambda: defaults.page_not_found(request, exception),
    )


def server_error(request: HttpRequest) -> HttpResponse:
    return api_or_page(
        request,
        status.HTTP_500_INTERNAL_SERVER_ERROR,
        lambda: defaults.server_error(request),
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's own 400s (a body it could not read, a disallowed host...) before DRF runs."""
    return api_or_page(
        request, status.HTTP_400_BAD_REQUEST, lambda: defaults.bad_request(request, exception)
    )


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's own 403s (a CSRF failure of a browser session...) before DRF runs."""
    return api_or_page(
        request, status.HTTP_403_FORBIDDEN, lambda: defaults.permission_denied(request, exception)
    )


API_ERROR_CODES = {
    status.HTTP_400_BAD_REQUEST: "bad_request",
    status.HTTP_403_FORBIDDEN: "permission_denied",
    status.HTTP_404_NOT_FOUND: "not_found",
    status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
    status.HTTP_500_INTERNAL_SERVER_ERROR: "server_error",
}


class ApiErrorEnvelopeMiddleware:
    """Under /api/, an error answer that is not JSON becomes `{"code", "detail"}`.

    The handlers above answer Django's own refusals only when DEBUG is off; with DEBUG on (as
    `make run` serves) Django answers an unresolved URL or an exception with its HTML debug
    page, and a view restricted to some methods answers 405 with an empty body. A client of the
    API reads the envelope whatever the settings. DRF's own answers are left as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        code = API_ERROR_CODES.get(response.status_code)
        # A DRF view's answer is the envelope already (or the browsable API's page of it).
        if code is None or not is_api_request(request) or isinstance(response, Response):
            return response
        enveloped = JsonResponse(
            error_body(code, api_error_detail(request, response.status_code)),
            status=response.status_code,
        )
        if response.has_header("Allow"):
            enveloped["Allow"] = response["Allow"]
        return enveloped


def api_error_detail(request: HttpRequest, status_code: int) -> str:
    if status_code == status.HTTP_404_NOT_FOUND:
        return gettext("there is nothing at %(path)s") % {"path": request.path}
    if status_code == status.HTTP_405_METHOD_NOT_ALLOWED:
        return gettext("%(method)s is not allowed at %(path)s") % {
            "method": request.method,
            "path": request.path,
        }
    if status_code == status.HTTP_500_INTERNAL_SERVER_ERROR:
        return gettext("the server failed to answer this request; it is logged")
    if status_code == status.HTTP_403_FORBIDDEN:
        return gettext("this request was refused")
    return gettext("the request could not be read")
