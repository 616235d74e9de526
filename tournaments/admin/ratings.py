"""The ratings' configuration per club: whether forfeits are rated (decision record 0036)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from typing_extensions import override

from common.admin import ModelAdmin
from tournaments.models import ClubRatingSettings
from tournaments.services.ratings import club_rating_settings_set


@admin.register(ClubRatingSettings)
class ClubRatingSettingsAdmin(ModelAdmin):
    """Saving recomputes the club's ratings and the overall ones through the service."""

    list_display = ("club", "count_forfeits")
    fields = ("club", "count_forfeits")

    @override
    def save_model(
        self, request: HttpRequest, obj: ClubRatingSettings, form: Any, change: bool
    ) -> None:
        saved = club_rating_settings_set(club=obj.club, count_forfeits=obj.count_forfeits)
        obj.pk = saved.pk
