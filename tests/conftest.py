import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from playwright.sync_api import ConsoleMessage, Page
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from accounts import credentials
from games.api import streaming
from tests.browser import PHONE


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Every test starts with an empty cache (this process's memory, config/settings/test.py):
    throttles and lockouts count failed sign-ins there, and no test may inherit another's; nor
    the tokens and roles this process checked (`accounts.credentials`), nor the open streams'
    slots (decision 0051: a test client's answer left unread keeps its slot)."""
    cache.clear()
    credentials.forget()
    streaming.SLOTS = streaming.StreamSlots()  # nor the stream slots an unread answer kept


# Pages in a real browser: Debian's chromium (installed by scripts/services.py when missing),
# driven by Playwright through pytest-playwright, at phone size. No browser is downloaded.

# Playwright's synchronous API keeps an event loop running in the test thread from the first
# browser test to the end of the session, and Django refuses database calls while a loop runs in
# the thread. The tests' own database work is synchronous, so that guard is lifted for the run.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": PHONE, "locale": "en-GB"}


@pytest.fixture(autouse=True)
def flush_outlasts_the_live_servers_readers(request: pytest.FixtureRequest) -> None:
    """A test on the live server ends with its database emptied (TRUNCATE) while a page's live
    stream may still be reading in the server's thread: the two can deadlock, and PostgreSQL
    aborts whichever session noticed first. This session waits longer before it looks, so the
    reader is the one aborted (the browser that opened it is gone), never the emptying."""
    if "live_server" not in request.fixturenames:
        return
    request.getfixturevalue("transactional_db")
    with connection.cursor() as cursor:
        cursor.execute("SET deadlock_timeout = '10s'")  # the tests connect as a superuser


@pytest.fixture
def browser_page(page: Page, live_server: LiveServer) -> Iterator[Page]:  # noqa: ARG001 - requested for its side effect
    """A phone-sized page for the live server's pages. The test fails if the
    page logs any console error or throws (a Content-Security-Policy refusal is one).
    """
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(10_000)
    yield page
    assert errors == [], f"console errors on {page.url}: {errors}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under `pytest -n N --dist loadgroup` (`make test`): each module's tests run on one worker
    (its module-scoped fixtures are built once), and the whole fault suite on one worker (its
    private PostgreSQL cluster and Redis are the session's, and a second stack would drop the
    first's cluster as a leftover)."""
    for item in items:
        module = item.nodeid.split("::")[0]
        group = "faults" if item.get_closest_marker("faults") else module
        item.add_marker(pytest.mark.xdist_group(group))
