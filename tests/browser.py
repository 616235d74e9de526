"""The browser the page tests drive: Debian's chromium at phone size (tests/conftest.py), and
the accessibility check they run on a page (axe-core, vendored under tests/vendor/axe-core)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHONE = {"width": 390, "height": 844}

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
"""axe-core 4.14.1 (MPL-2.0), from the npm registry: no CDN, nothing fetched at run time."""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SERIOUS = frozenset({"serious", "critical"})


@cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """What axe finds on the page as it stands (WCAG 2.1 A/AA and best practice) of impact
    serious or critical: each rule's id, impact and the elements it names. The script is
    evaluated by the browser's devtools, so the page's Content-Security-Policy stays strict."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;0")
    results: dict[str, Any] = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS
    )
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "nodes": [node["target"] for node in violation["nodes"]],
        }
        for violation in results["violations"]
        if violation["impact"] in SERIOUS
    ]
