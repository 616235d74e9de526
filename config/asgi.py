"""The app as uvicorn serves it (`make run`, the image: docs/decisions/0051-async-feeds.md).

Django's ASGI handler serves every request. A synchronous view (all of them but the streams'
iterators) runs in a thread the handler starts for that request, which ends with it; the
database connections come from the web process's pool (DATABASE_POOL_SIZE).

An event stream (`.../events/stream/`) is served by the same handler without a thread of its
own: its short synchronous part (the middleware, the view's access check and first read) runs
on the process's one shared thread for such work, then its asynchronous iterator waits in the
event loop. A thread per stream would stay parked for the stream's whole half minute.

The lifespan messages are answered here (Django's handler takes HTTP only): at shutdown the
feeds' listener and reads stop (games/api/followers.py).
"""

import os
import re
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
django_application = get_asgi_application()

from games.api.followers import stop_hub  # noqa: E402 - the apps are loaded by the line above

EVENT_STREAM_PATH = re.compile(r"^/api/v1/(?:matches|tournaments)/[^/]+/events/stream/$")

Scope = dict[str, Any]
Receive = Any
Send = Any


async def lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_hub()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await lifespan(receive, send)
    elif scope["type"] == "http" and EVENT_STREAM_PATH.match(scope["path"]):
        await django_application.handle(scope, receive, send)  # no thread of its own
    else:
        await django_application(scope, receive, send)
