"""The web server of `make run` and the image: uvicorn serving config.asgi in `--workers`
processes, on a listening socket whose connections all send without delay.

`uvicorn --workers N` binds its socket without naming TCP as its protocol, so the connections it
accepts do not say they are TCP, asyncio does not turn off Nagle's algorithm on them, and every
answer on a kept-alive connection after the first waits for the client's delayed
acknowledgement of its headers: about 40 ms a request on Linux (uvicorn issue 3149), a scorer's
every card. Here the socket is made for TCP, with TCP_NODELAY set (which the connections
inherit), and handed to uvicorn's own supervisor (decision 0067).

Run: python -m config.serve [--host H] [--port P] [--workers N] [--timeout-graceful-shutdown S]
     [--no-access-log] [--log-level L] [--app MODULE:ATTRIBUTE]
"""

from __future__ import annotations

import argparse
import socket
from collections.abc import Sequence

import uvicorn
from uvicorn.supervisors import Multiprocess


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to (host, port), whose accepted connections have TCP_NODELAY."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)  # the worker processes serve it
    return sock


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m config.serve", description=__doc__)
    parser.add_argument("--app", default="config.asgi:application")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout-graceful-shutdown", type=int, default=5)
    parser.add_argument("--no-access-log", action="store_true")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv)
    config = uvicorn.Config(
        args.app,
        host=args.host,
        port=args.port,
        workers=args.workers,
        proxy_headers=False,  # the app reads the client's address itself (NUM_PROXIES)
        timeout_graceful_shutdown=args.timeout_graceful_shutdown,
        access_log=not args.no_access_log,
        log_level=args.log_level,
    )
    sock = listening_socket(args.host, args.port)
    if args.workers > 1:
        Multiprocess(config, sockets=[sock]).run()
    else:
        uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
