"""Words the public pages and the drawn bracket both say, in the page's language: a place at a
table and how a level match's winner was decided. Imported by the template filters and by the
bracket's layout, which must not import each other."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

DECIDED_BY = {
    "higher_seed": _("decided by the higher seed"),
    "organizer": _("organizer's decision"),
}
"""How a level knockout match's winner was decided off the table (decision record 0029)."""


def decided_by_text(value: str | None) -> str:
    return "" if value is None else str(DECIDED_BY.get(value, value))


def place_text(place: int | None) -> str:
    """A place as the standings' columns name it: 1st, 2nd, 3rd (1°, 2°, 3° in Italian)."""
    labels = {1: pgettext("column", "1st"), 2: pgettext("column", "2nd")}
    return "" if place is None else labels.get(place, pgettext("column", "3rd"))
