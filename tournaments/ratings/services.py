"""The ratings' configuration: whether a club's forfeits are rated (decision record 0036)."""

from __future__ import annotations

from django.db import transaction

from accounts.models import Club
from tournaments.models import ClubRatingSettings
from tournaments.ratings import projection


def club_rating_settings_set(*, club: Club, count_forfeits: bool) -> ClubRatingSettings:
    """Set whether the club's forfeited matches change ratings; the club's ratings and the
    overall ones are computed again at once (a forfeit counts, or stops counting, where it
    was in the log)."""
    with transaction.atomic():
        settings, _ = ClubRatingSettings.objects.update_or_create(
            club=club, defaults={"count_forfeits": count_forfeits}
        )
        projection.recount_club(club.id)
    return settings
