"""Seasons: a club's organizers create one, set its points table and best N, and add or remove
its tournaments (decision record 0037). Every change goes through `tournaments.seasons.services`;
a refusal (a bad points table, another club's tournament) shows on the form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Model, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from typing_extensions import override

from accounts.models import Club
from accounts.selectors import organized_clubs
from common.admin import ServiceAddAdmin, translated_labels
from tournaments.errors import InvalidSeason
from tournaments.models import Season, Tournament
from tournaments.seasons import services as season_services
from tournaments.seasons.selectors import may_organize
from tournaments.standings.errors import StandingsError
from tournaments.standings.seasons import MAX_PLACES, InvalidPointsTable, parse_points_table

POINTS_HELP = gettext_lazy(
    "The points of 1st, 2nd, 3rd... place, best first, separated by commas, e.g. "
    "25,18,15,12,10,8,6,4,2,1. They never rise down the table."
)


class SeasonSettingsForm(forms.Form):
    """A season's settings and tournaments (the change page; the add page adds its club)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    points = forms.CharField(label=gettext_lazy("Points"), max_length=400, help_text=POINTS_HELP)
    participation = forms.IntegerField(
        label=gettext_lazy("Participation"),
        min_value=0,
        initial=0,
        help_text=gettext_lazy("Points for a place beyond the table (0: none)."),
    )
    best_n = forms.IntegerField(
        min_value=1,
        max_value=MAX_PLACES,
        required=False,
        label=gettext_lazy("Best N"),
        help_text=gettext_lazy("Count only each player's N best results; empty counts them all."),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        help_text=gettext_lazy("The club's public tournaments the season counts, once finished."),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournaments"]
        if isinstance(field, forms.ModelMultipleChoiceField):
            # Another club's public tournament may be chosen: the service says why it is refused.
            field.queryset = Tournament.objects.filter(
                Q(public=True) | Q(club__in=organized_clubs(user))
            ).order_by("-created_at")

    def clean_points(self) -> tuple[int, ...]:
        try:
            return parse_points_table(self.cleaned_data["points"])
        except InvalidPointsTable as refused:
            raise ValidationError(refused.detail) from refused


class SeasonAddForm(SeasonSettingsForm):
    club = forms.ModelChoiceField(label=gettext_lazy("Club"), queryset=Club.objects.none())
    slug = forms.SlugField(
        label=gettext_lazy("Slug"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("The page's address; empty: made from the name."),
    )
    field_order = ("club", "name", "slug", "points", "participation", "best_n", "tournaments")

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, user=user, **kwargs)
        club = self.fields["club"]
        if isinstance(club, forms.ModelChoiceField):
            club.queryset = organized_clubs(user)


@admin.register(Season)
class SeasonAdmin(ServiceAddAdmin):
    add_form_class = SeasonAddForm
    refusals = (InvalidSeason, StandingsError)
    list_display = ("name", "club", "slug", "points_listed", "best_n", "page")
    list_filter = ("club",)
    search_fields = ("name", "slug")

    def organized(self, user: Any) -> Q:
        return Q(club__in=organized_clubs(user))

    @override
    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        found: QuerySet[Season] = super().get_queryset(request)
        return found.select_related("club")

    @admin.display(description=gettext_lazy("points"))
    def points_listed(self, season: Season) -> str:
        return ",".join(str(points) for points in season.points)

    @admin.display(description=gettext_lazy("page"))
    def page(self, season: Season) -> str:
        return format_html('<a href="{}">{}</a>', season_page_url(season), "season page")

    @override
    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        allowed = admin.ModelAdmin.has_change_permission(self, request, obj)
        return allowed and (obj is None or may_organize(request.user, obj.club_id))  # type: ignore[attr-defined]

    def refusal_detail(self, exc: Exception) -> str:
        return str(getattr(exc, "detail", exc))

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else None
        form = SeasonAddForm(data, user=request.user)
        if form.is_bound and form.is_valid():
            created = self.saved(request, form, lambda: self.create(request, form))
            if created is not None:
                self.log_addition(request, created, [{"added": {}}])
                return HttpResponseRedirect(self.change_url(created))
        context = self.plain_form_context(
            request, form, title=_("Add season"), extra_context=extra_context
        )
        return self.render_change_form(request, context, add=True, form_url=form_url)

    def create(self, request: HttpRequest, form: Any) -> Season:
        data = form.cleaned_data
        if not may_organize(request.user, data["club"].pk):
            raise PermissionDenied
        return season_services.season_create(
            club=data["club"],
            name=data["name"],
            slug=data["slug"],
            points=data["points"],
            participation=data["participation"],
            best_n=data["best_n"],
            tournaments=data["tournaments"],
        )

    def saved(self, request: HttpRequest, form: forms.Form, call: Any) -> Season | None:
        """Run the service in one transaction; a refusal is shown on the form, nothing kept."""
        try:
            with transaction.atomic():
                season: Season = call()
        except self.refusals as refused:
            form.add_error(None, self.refusal_detail(refused))
            return None
        self.message_user(
            request, _("%(season)s was saved.") % {"season": season}, messages.SUCCESS
        )
        return season

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        season = self.get_queryset(request).filter(pk=unquote(object_id)).first()
        if season is None:
            raise Http404
        if not self.has_change_permission(request, season):
            raise PermissionDenied
        initial = {
            "name": season.name,
            "points": ",".join(str(points) for points in season.points),
            "participation": season.participation,
            "best_n": season.best_n,
            "tournaments": list(season.tournaments.all()),
        }
        data = request.POST if request.method == "POST" else None
        form = SeasonSettingsForm(data, initial=initial, user=request.user)
        if (
            form.is_bound
            and form.is_valid()
            and self.saved(request, form, lambda: change(season, form.cleaned_data))
        ):
            return HttpResponseRedirect(request.path)
        context = self.plain_form_context(
            request,
            form,
            title=_("Change season %(season)s") % {"season": season},
            object_id=object_id,
            original=season,
            extra_context=extra_context,
        )
        return self.render_change_form(request, context, change=True, obj=season, form_url=form_url)


def change(season: Season, data: dict[str, Any]) -> Season:
    season_services.season_change(
        season=season,
        name=data["name"],
        points=data["points"],
        participation=data["participation"],
        best_n=data["best_n"],
        clear_best_n=data["best_n"] is None,
    )
    wanted = set(data["tournaments"])
    current = set(season.tournaments.all())
    for tournament in sorted(wanted - current, key=lambda t: t.created_at):
        season_services.season_tournament_add(season=season, tournament=tournament)
    for tournament in current - wanted:
        season_services.season_tournament_remove(season=season, tournament=tournament)
    return season


def season_page_url(season: Season) -> str:
    return reverse("pages:season-detail", args=[season.club.slug, season.slug])


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Season,
    name=gettext_lazy("season"),
    plural=gettext_lazy("seasons"),
    fields={
        "club": gettext_lazy("club"),
        "name": gettext_lazy("name"),
        "slug": gettext_lazy("slug"),
        "points": gettext_lazy("points"),
        "participation": gettext_lazy("participation"),
        "best_n": gettext_lazy("best n"),
        "created_at": gettext_lazy("created at"),
        "tournaments": gettext_lazy("tournaments"),
    },
    help_texts={
        "slug": gettext_lazy("Unique within the club: the page's address."),
        "points": gettext_lazy("Points for 1st, 2nd, 3rd... place, best place first."),
        "participation": gettext_lazy("Points for a place beyond the points table."),
        "best_n": gettext_lazy("Count only each player's N best results; empty: all."),
    },
)
