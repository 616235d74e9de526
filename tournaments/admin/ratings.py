"""The ratings' configuration per club: whether forfeits are rated (decision record 0036)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import ForeignKey, Q
from django.forms import ModelChoiceField
from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from typing_extensions import override

from accounts.selectors import organized_clubs
from common.admin import OrganizerScopedAdmin, translated_labels
from tournaments.models import ClubRatingSettings
from tournaments.ratings.services import club_rating_settings_set


@admin.register(ClubRatingSettings)
class ClubRatingSettingsAdmin(OrganizerScopedAdmin):
    """Saving recomputes the club's ratings and the overall ones through the service. An
    organizer sets the clubs they organize."""

    list_display = ("club", "count_forfeits")
    fields = ("club", "count_forfeits")

    def organized(self, user: Any) -> Q:
        return Q(club__in=organized_clubs(user))

    @override
    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "club":
            kwargs["queryset"] = organized_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @override
    def save_model(
        self, request: HttpRequest, obj: ClubRatingSettings, form: Any, change: bool
    ) -> None:
        saved = club_rating_settings_set(club=obj.club, count_forfeits=obj.count_forfeits)
        obj.pk = saved.pk


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    ClubRatingSettings,
    name=gettext_lazy("club rating settings"),
    plural=gettext_lazy("club rating settings"),
    fields={
        "club": gettext_lazy("club"),
        "count_forfeits": gettext_lazy("count forfeits"),
    },
    help_texts={
        "count_forfeits": gettext_lazy(
            "Forfeited matches change the players' ratings (off: they are not rated)."
        ),
    },
)
