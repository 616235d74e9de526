"""Sections that apps built on games add to the match page (the tournaments' rating changes),
registered in their AppConfig.ready(), so games imports none of them (as with the side namers in
`games.side_names`). Each returns its HTML for a match, or "" to add nothing."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

_sections: dict[str, Callable[[UUID], str]] = {}


def register_match_section(name: str, render: Callable[[UUID], str]) -> None:
    """Register (or replace, so a repeated `ready()` is harmless) the section `name`."""
    _sections[name] = render


def match_sections(match_id: UUID) -> list[str]:
    """The registered sections' HTML for the match, in registration order; empty ones left out."""
    return [html for html in (render(match_id) for render in _sections.values()) if html]
