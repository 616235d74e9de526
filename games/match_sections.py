"""Sections that apps built on games add to the match page (the tournaments' rating changes),
registered in their AppConfig.ready(), so games imports none of them (as with the side namers in
`games.side_names`). Each returns its HTML for a match as its reader may see it (the user who
asked for the page), or "" to add nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

MatchSection = Callable[[UUID, Any], str]
"""Renders the section of a match (its id) for a reader (a user, maybe anonymous)."""

_sections: dict[str, MatchSection] = {}


def register_match_section(name: str, render: MatchSection) -> None:
    """Register (or replace, so a repeated `ready()` is harmless) the section `name`."""
    _sections[name] = render


def match_sections(match_id: UUID, reader: Any) -> list[str]:
    """The registered sections' HTML for the match as `reader` may see it, in registration
    order; empty ones left out."""
    return [html for html in (render(match_id, reader) for render in _sections.values()) if html]
