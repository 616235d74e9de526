"""`make run` checks that its address is free before it brings anything up.

Left to itself, the development server finds the port taken only once everything else is up,
and its complaint scrolls away among the worker's logs. Standard library only, so it runs before
the virtual environment exists.

Usage: `python scripts/check_port.py HOST PORT`; exits 0 when a server could listen there, 1
with a message that says what to do otherwise.
"""

from __future__ import annotations

import errno
import socket
import sys


def port_problem(host: str, port: int) -> str | None:
    """Why a server could not listen on `host`:`port`, or None when it could."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"{host} is not an address of this machine ({exc.strerror})"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As the development server does: a port left in TIME_WAIT by a server that stopped a
        # moment ago is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} on {host} is already in use (another `make run`?): stop what "
                    f"serves there, or choose another port: make run PORT={port + 1}"
                )
            return f"cannot listen on {host}:{port}: {exc.strerror}"
    return None


def main(argv: list[str]) -> int:
    # Not common.parsing: the script runs before the project is importable (a bare checkout).
    if len(argv) != 2 or not (argv[1].isascii() and argv[1].isdigit()):
        print("usage: check_port.py HOST PORT", file=sys.stderr)
        return 2
    problem = port_problem(argv[0], int(argv[1]))
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
