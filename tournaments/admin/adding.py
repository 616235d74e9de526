"""Adding tournaments and entrants through their services instead of saving a model form."""

from __future__ import annotations

from django.db.models import Model

from common.admin import ServiceAddAdmin, error_detail
from games.eventstore.api import EventStoreError
from games.rules.errors import RuleViolation
from tournaments.standings.errors import StandingsError


class TournamentsAddAdmin(ServiceAddAdmin):
    """Tournaments and entrants are added through their services; what the rules or the event
    store refuse shows on the form."""

    refusals = (RuleViolation, EventStoreError, StandingsError)

    def refusal_detail(self, exc: Exception) -> str:
        if isinstance(exc, StandingsError):  # e.g. match points per place that make no sense
            return exc.detail
        if not isinstance(exc, RuleViolation | EventStoreError):
            raise RuntimeError(f"unexpected refusal: {exc!r}") from exc
        return error_detail(exc)

    def added_message(self, created: Model) -> str | None:
        return f"{created} was added."
