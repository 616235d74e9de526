"""The app as config.asgi serves it under uvicorn (`make run`, the image), plus the bench's
endpoints of bench/wsgi.py: the same baselines served by the production server, so that
bench/append.py can measure the card path and its floor as a club's laptop serves them
(`--server uvicorn`, its default: keep-alive connections, each served by one process).

Serve it with `uvicorn bench.asgi:application`. The app never imports this module.
"""

# ruff: noqa: E402  (Django is set up before the handler is imported, as django.core.asgi does)

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
django.setup(set_prefix=False)

from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

import bench.wsgi
from config.asgi import served


class BenchAsgiHandler(ASGIHandler):
    """Django's ASGI handler, resolving every request with bench/wsgi.py's URLconf."""

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        request.urlconf = bench.wsgi.__name__
        return await super().get_response_async(request)


application = served(bench.wsgi.application, BenchAsgiHandler())
