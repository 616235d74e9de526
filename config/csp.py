"""A strict Content-Security-Policy for the pages: no inline script, no other origin.

The table page keeps a device key on the device, so no script that the server did not ship may
run there. The admin and the API's own HTML (the browsable API, the OpenAPI docs) keep Django's
and their libraries' defaults: they are for signed-in staff and include inline scripts.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
EXEMPT_PREFIXES = ("/admin/", "/api/", "/api-auth/")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(EXEMPT_PREFIXES):
            response.headers.setdefault("Content-Security-Policy", POLICY)
            response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
