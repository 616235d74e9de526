"""The app as uvicorn serves it (`make run`, the image: docs/decisions/0051-async-feeds.md).

Every request but an event stream is served by Django's WSGI handler on one of the process's
WEB_REQUEST_THREADS threads (config/request_threads.py: the request waits for a free thread,
not for a database connection in the pool), the middleware, the view and the answer in one go
on that thread (docs/decisions/0067-requests-on-threads-and-no-nagle-delay.md). A command (a
request that writes: a scorer's card) is taken before the reads waiting, and
WEB_THREADS_KEPT_FOR_COMMANDS threads never serve reads (decision 0068).
Django's ASGI handler ran a synchronous view behind a middleware chain that it adapts, call by
call, between the event loop and a thread started for the request: about 5 ms of CPU a request
more, three times a card's cost. The database connections come from the web process's pool
(DATABASE_POOL_SIZE), each given back when the request ends.

An event stream (`.../events/stream/`) is served by Django's ASGI handler without a thread of
its own: its short synchronous part (the middleware, the view's access check and first read) runs
on the process's one shared thread for such work, then its asynchronous iterator waits in the
event loop. A thread per stream would stay parked for the stream's whole half minute.

The lifespan messages are answered here (Django's handler takes HTTP only): at shutdown the
feeds' listener and reads stop (games/api/followers.py).
"""

import gc
import os
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402 - the apps are loaded by the line above
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402

from config.request_threads import RequestThreads  # noqa: E402
from games.api.followers import stop_hub  # noqa: E402

EVENT_STREAM_PATH = re.compile(r"^/api/v1/(?:matches|tournaments)/[^/]+/events/stream/$")

Scope = dict[str, Any]
Receive = Any
Send = Any
Application = Callable[[Scope, Receive, Send], Awaitable[None]]


async def lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_hub()
            await send({"type": "lifespan.shutdown.complete"})
            return


def served(wsgi: WSGIHandler, asgi: ASGIHandler) -> Application:
    """The application uvicorn serves: the streams by `asgi`, every other request by `wsgi` on
    this process's request threads (bench/asgi.py serves the bench's endpoints alike)."""
    on_threads = RequestThreads(
        wsgi,
        threads=settings.WEB_REQUEST_THREADS,
        kept_for_commands=settings.WEB_THREADS_KEPT_FOR_COMMANDS,
    )

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
        elif scope["type"] == "http" and EVENT_STREAM_PATH.match(scope["path"]):
            await asgi.handle(scope, receive, send)  # no thread of its own
        elif scope["type"] == "http":
            await on_threads(scope, receive, send)
        else:
            await asgi(scope, receive, send)  # refuses what is not HTTP

    return application


application = served(WSGIHandler(), django_application)

# The event loop, a card's thread and a page's render share one interpreter: a thread that
# wants it back waits for the one holding it to let go, by default every 5 ms. A card's answer
# changes hands twice (loop, thread, loop), so behind a projector's render it waited 5 ms each
# time; 1 ms keeps the scorers' turns short (decision 0067).
sys.setswitchinterval(settings.WEB_SWITCH_INTERVAL)

# What the process holds once the app is loaded (Django, the apps, the URLs, the templates'
# modules: hundreds of thousands of objects) lives as long as the process: out of the cyclic
# collector's sight, its full passes, which hold the interpreter, walk only what the requests
# and the streams made since. With a thousand followers they took 130 to 380 ms each, every
# card in the process waiting; the thresholds (WEB_GC_THRESHOLDS) make them rare and keep the
# young passes short (decision 0068).
gc.freeze()
gc.set_threshold(*settings.WEB_GC_THRESHOLDS)
