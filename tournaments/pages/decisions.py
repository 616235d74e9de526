"""The match page's word on a level knockout match whose winner was decided off the table (the
higher seed, the organizer: decision records 0029 and 0045). The match's own stream knows only
its rounds, so this section comes from the tournament."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.html import format_html
from django.utils.translation import gettext

from tournaments.models import Fixture
from tournaments.pages.labels import decided_by_text


def match_decision_section(match_id: UUID, reader: Any) -> str:  # noqa: ARG001 - every section takes the reader; the match page already checked it may read the match
    """One line naming the winner and how they were decided; empty for a match won at the
    table. The organizer's reason is not shown (0029: it stays in the event log)."""
    fixture = (
        Fixture.objects.filter(match_id=match_id, decided_by__isnull=False)
        .select_related("winner")
        .first()
    )
    if fixture is None or fixture.winner is None:
        return ""
    return format_html(
        '<p class="match-decider" data-decided-by="{}">{}</p>',
        fixture.decided_by,
        gettext("%(name)s won the match off the table: %(how)s.")
        % {"name": fixture.winner.name, "how": decided_by_text(fixture.decided_by)},
    )
