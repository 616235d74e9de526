"""Views that answer a file (exports, table cards): the renderers only name the formats for
DRF's content negotiation, and errors are answered in JSON whatever format was asked."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import JsonApi


class FileRenderer(BaseRenderer):
    """Names a file format for DRF's content negotiation; the view writes the file itself."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> Any:
        raise NotImplementedError("the view answers its file itself")


class FileApi(JsonApi):
    """A view that answers a file: errors are answered in JSON whatever format was asked."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        if isinstance(response, Response):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
