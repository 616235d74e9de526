"""The browsable API (the HTML pages DRF draws for a person exploring the API in a browser)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.renderers import BrowsableAPIRenderer
from typing_extensions import override

from common.exceptions import domain_errors

if TYPE_CHECKING:  # DRF's views import the renderers named in the settings: this one too
    from rest_framework.request import Request
    from rest_framework.views import APIView


class BrowsableApi(BrowsableAPIRenderer):
    """DRF's browsable API, drawing a form only for a request the permissions let through.

    To decide which forms to draw, DRF checks the permissions again and takes its own errors as
    "no form". Ours may raise a domain error instead (an unknown match is `match_not_found`,
    found while looking for the match's place): that means no form too, not a server error, so
    the page shows the error answer the view already gave."""

    @override
    def show_form_for_method(
        self, view: APIView, method: str, request: Request, obj: Any
    ) -> bool | None:
        try:
            return super().show_form_for_method(view, method, request, obj)
        except domain_errors():
            return False

    @override
    def get_rendered_html_form(
        self, data: Any, view: APIView, method: str, request: Request
    ) -> Any:
        try:
            return super().get_rendered_html_form(data, view, method, request)
        except domain_errors():
            return None
