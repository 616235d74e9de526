"""A tournament's fixtures, read from their rows."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from tournaments.errors import TournamentMatchNotFound
from tournaments.models import (
    Fixture,
    FixtureStatus,
)
from tournaments.selectors.lookup import (
    Page,
    check_tournament_exists,
)


def check_match_of_tournament(*, tournament_id: UUID, match_id: UUID) -> None:
    """404 `match_not_found` for a match that is not this tournament's, like an entrant."""
    check_tournament_exists(tournament_id)
    if not Fixture.objects.filter(tournament_id=tournament_id, match_id=match_id).exists():
        raise TournamentMatchNotFound.because(
            gettext_noop("match %(match)s is not a match of this tournament"), match=match_id
        )


def tournament_fixture(*, tournament_id: UUID, match_id: UUID) -> Fixture:
    """One of the tournament's matches, as its row has it now."""
    return Fixture.objects.select_related("home", "away", "third").get(
        tournament_id=tournament_id, match_id=match_id
    )


def tournament_fixtures(
    *,
    tournament_id: UUID,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
) -> list[Fixture]:
    """The tournament's matches in the order they were created; a match replaced after a
    corrected result (status `reset`) is left out."""
    check_tournament_exists(tournament_id)
    fixtures = live_fixtures(tournament_id, status=status, stage=stage, round_number=round_number)
    return list(fixtures.select_related("home", "away", "third").order_by("id"))


def live_fixtures(
    tournament_id: UUID,
    *,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
) -> QuerySet[Fixture]:
    fixtures = Fixture.objects.filter(tournament_id=tournament_id).exclude(
        status=FixtureStatus.RESET
    )
    if status is not None:
        fixtures = fixtures.filter(status=status)
    if stage is not None:
        fixtures = fixtures.filter(stage=stage)
    if round_number is not None:
        fixtures = fixtures.filter(round=round_number)
    return fixtures


FIXTURE_ROW_FIELDS = (
    "id",
    "match_id",
    "key",
    "stage",
    "round",
    "home_id",
    "away_id",
    "third_id",
    "home__name",
    "away__name",
    "third__name",
    "places",
    "status",
    "table",
    "scheduled_at",
    "called_at",
    "deadline",
    "winner_id",
    "decided_by",
)
"""A fixture's columns and its entrants' names, as `tournament_fixture_page` gives them."""


def tournament_fixture_page(
    *,
    tournament_id: UUID,
    status: str | None = None,
    stage: str | None = None,
    round_number: int | None = None,
    after: int | None = None,
    limit: int,
) -> Page[dict[str, Any], int]:
    """At most `limit` of `tournament_fixtures`, those after the fixture `after` (a key of the
    order: the fixture's id, increasing as they were created), as plain rows of
    FIXTURE_ROW_FIELDS (a page can be 500 matches: no model instances)."""
    check_tournament_exists(tournament_id)
    fixtures = live_fixtures(tournament_id, status=status, stage=stage, round_number=round_number)
    if after is not None:
        fixtures = fixtures.filter(id__gt=after)
    rows = list(fixtures.order_by("id").values(*FIXTURE_ROW_FIELDS)[: limit + 1])
    if len(rows) <= limit:
        return Page(rows, None)
    return Page(rows[:limit], rows[limit - 1]["id"])


def overdue_fixtures(*, tournament_id: UUID, now: datetime) -> list[Fixture]:
    """Ready matches past their no-show deadline that nobody forfeited (both sides absent, or
    both present but not playing): for the organizer to settle."""
    return list(
        Fixture.objects.filter(
            tournament_id=tournament_id, status=FixtureStatus.READY, deadline__lte=now
        ).order_by("id")
    )
