"""Screenshots of the organizer's console in Italian, for docs/screenshots/ (issue 24).

Run against a served demo (`make run`, or any server with `manage.py load_demo --small`):

    .venv/bin/python scripts/console_screenshots.py http://127.0.0.1:8000 docs/screenshots

It signs in as the demo club's organizer (`circolo`, password `circolo` under DEBUG), reads the
console with the browser's language set to Italian, and saves the index, the tournament list and
the first tournament's console page. Debian's Chromium, as the browser tests use it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ORGANIZER = ("circolo", "circolo")
PAGES = {
    "console-it-index.png": "/admin/",
    "console-it-tournaments.png": "/admin/tournaments/tournament/",
}


def main(base_url: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        context = browser.new_context(
            locale="it-IT",
            extra_http_headers={"Accept-Language": "it"},
            viewport={"width": 1280, "height": 900},
        )
        page = context.new_page()
        page.goto(f"{base_url}/admin/login/")
        page.fill("#id_username", ORGANIZER[0])
        page.fill("#id_password", ORGANIZER[1])
        page.click("input[type=submit], button[type=submit]")
        page.wait_for_url(f"{base_url}/admin/")
        for name, path in PAGES.items():
            page.goto(f"{base_url}{path}")
            page.screenshot(path=str(out / name), full_page=False)
            print(f"{out / name}: {path}")
        page.goto(f"{base_url}/admin/tournaments/tournament/")
        page.locator("#result_list tbody tr th a").first.click()
        page.wait_for_load_state()
        page.screenshot(path=str(out / "console-it-tournament.png"), full_page=True)
        print(f"{out / 'console-it-tournament.png'}: {page.url.removeprefix(base_url)}")
        browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1].rstrip("/"), Path(sys.argv[2]))
