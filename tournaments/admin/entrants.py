"""Entrants: registered and corrected through services, checked in and withdrawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any
from uuid import UUID

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import Model, Q, QuerySet
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.admin import (
    ReadOnlyInline,
    action_form,
    action_form_page,
    admin_actor,
    error_detail,
    run_service,
    translated_labels,
)
from games.eventstore.api import EventStoreError
from games.rules.errors import RuleViolation
from tournaments.admin.adding import TournamentsAddAdmin
from tournaments.admin.bracket import (
    refresh_view,
)
from tournaments.admin.forms import (
    EntrantCorrectForm,
    EntrantRegisterForm,
    WithdrawForm,
    ask_to_confirm_duplicate_name,
)
from tournaments.models import (
    Entrant,
    EntrantPlayer,
    Player,
    TournamentStatus,
)
from tournaments.selectors.organizing import tournament_ids
from tournaments.services import byes, corrections, registration


class EntrantInline(ReadOnlyInline):
    model = Entrant
    show_change_link = True
    fields = (
        "name",
        "players_named",
        "seed",
        "group",
        "checked_in",
        "withdrawn",
        "registered_at",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("players"))
    def players_named(self, entrant: Entrant) -> str:
        return players_of(entrant)


def players_of(entrant: Entrant) -> str:
    return ", ".join(str(player) for player in entrant.players.order_by("entrantplayer__position"))


@admin.register(Entrant)
class EntrantAdmin(TournamentsAddAdmin):
    """Entrants are registered and corrected through services: the change page is a form of
    the corrections (name, players, seed, and why), never a model save. Delete stays refused:
    withdraw an entrant instead."""

    add_form_class = EntrantRegisterForm
    list_display = (
        "name",
        "tournament",
        "players_named",
        "seed",
        "group",
        "checked_in",
        "withdrawn",
    )
    list_filter = ("tournament", "checked_in", "withdrawn")
    list_select_related = ("tournament",)
    search_fields = ("name", "players__name")
    readonly_fields = (
        "tournament",
        "name",
        "players_named",
        "seed",
        "group",
        "checked_in",
        "withdrawn",
        "registered_at",
        "fixed_table",
    )
    fields = readonly_fields
    actions = ("check_in", "withdraw", "pause", "return_to_play", "request_bye")

    @admin.display(description=gettext_lazy("players"))
    def players_named(self, entrant: Entrant) -> str:
        return players_of(entrant)

    def organized(self, user: Any) -> Q:
        return Q(tournament_id__in=tournament_ids(user))

    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:
        return {"tournament": request.GET.get("tournament")}

    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        form = super().add_form(request, data)
        if not isinstance(form, EntrantRegisterForm):
            raise RuntimeError("the add form is an EntrantRegisterForm")
        return form.for_organizer(tournament_ids(request.user))

    def added_url(self, request: HttpRequest, created: Model) -> str:  # noqa: ARG002 - the hook's signature
        """Back to the tournament's page, where the entrant is listed."""
        if not isinstance(created, Entrant):
            raise RuntimeError("an entrant was added")
        return reverse("admin:tournaments_tournament_change", args=[created.tournament_id])

    def add_another_url(self, request: HttpRequest, created: Model) -> str:
        """The add form again, for the same tournament."""
        if not isinstance(created, Entrant):
            raise RuntimeError("an entrant was added")
        return f"{request.path}?{urlencode({'tournament': str(created.tournament_id)})}"

    def create(self, request: HttpRequest, form: EntrantRegisterForm) -> Entrant:
        data = form.cleaned_data
        try:
            registered = registration.entrant_register(
                tournament_id=data["tournament"].id,
                name=data["name"],
                players=data["players"],
                seed=data["seed"],
                fixed_table=data["fixed_table"],
                group=data["group"] or None,
                confirm_duplicate_name=data["confirm_duplicate_name"],
                actor=admin_actor(request),
            )
        except corrections.DuplicateEntrantName:
            ask_to_confirm_duplicate_name(form)  # the warning itself shows on the form
            raise
        refresh_view(registered.tournament_id)
        return Entrant.objects.get(id=registration.registered_entrant_id(registered))

    # The change page: corrections.

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # An entrant's page is the corrections form (change_view), which calls the services.
        return admin.ModelAdmin.has_change_permission(self, request, obj)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        entrant = self.get_object(request, unquote(object_id))
        if entrant is None or not self.has_change_permission(request, entrant):
            return super().change_view(request, object_id, form_url, extra_context)
        players = seated_players(entrant)
        form = EntrantCorrectForm(
            request.POST if request.method == "POST" else None,
            entrant=entrant,
            players=players,
            started=entrant.tournament.status != TournamentStatus.REGISTRATION,
        )
        if form.is_bound and form.is_valid():
            changed = self.correct(request, entrant, form, players)
            if changed is not None:
                return HttpResponseRedirect(self.change_url(entrant))
        context = self.plain_form_context(
            request,
            form,
            title=_("Correct %(entrant)s") % {"entrant": entrant},
            subtitle=entrant_standing(entrant),
            object_id=object_id,
            original=entrant,
            extra_context={"show_save_and_add_another": False, **(extra_context or {})},
        )
        return self.render_change_form(
            request, context, change=True, obj=entrant, form_url=form_url
        )

    def correct(
        self,
        request: HttpRequest,
        entrant: Entrant,
        form: EntrantCorrectForm,
        players: list[Player],
    ) -> list[str] | None:
        """Carry out the form's corrections; the fields changed, or None when refused (the
        reason is on the form)."""
        name = form.corrected_name()
        seated = form.corrected_players(players)
        seed = form.corrected_seed()
        group = form.corrected_group()
        fixed_table = form.corrected_fixed_table()
        changed = (
            [label for label, value in (("name", name), ("players", seated)) if value is not None]
            + ([] if seed is corrections.KEEP_SEED else ["seed"])
            + ([] if group is corrections.KEEP_GROUP else ["group"])
            + ([] if fixed_table is corrections.KEEP_FIXED_TABLE else ["fixed_table"])
        )
        if not changed:
            self.message_user(request, _("Nothing changed: nothing recorded."), messages.INFO)
            return []
        try:
            corrections.entrant_amend(
                tournament_id=entrant.tournament_id,
                entrant_id=entrant.id,
                name=name,
                players=seated,
                seed=seed,
                fixed_table=fixed_table,
                group=group,
                reason=form.cleaned_data["reason"],
                confirm_duplicate_name=form.cleaned_data["confirm_duplicate_name"],
                actor=admin_actor(request),
            )
        except corrections.DuplicateEntrantName as warning:
            form.warn_of_duplicate_name(warning.detail)
            return None
        except (RuleViolation, EventStoreError) as exc:
            form.add_error(None, error_detail(exc))
            return None
        refresh_view(entrant.tournament_id)
        self.log_change(request, entrant, [{"changed": {"fields": changed}}])
        self.message_user(
            request,
            _("%(name)s: %(fields)s corrected.")
            % {
                "name": name or entrant.name,
                "fields": ", ".join(str(CORRECTED_FIELDS.get(field, field)) for field in changed),
            },
            messages.SUCCESS,
        )
        return changed

    @admin.action(description=gettext_lazy("Check in"), permissions=["change"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        for entrant in queryset:
            run_service(
                self,
                request,
                partial(
                    registration.entrant_check_in,
                    tournament_id=entrant.tournament_id,
                    entrant_id=entrant.id,
                    actor=admin_actor(request),
                ),
                success=_("%(name)s checked in.") % {"name": entrant},
                subject=str(entrant),
            )
        refresh_views(entrant.tournament_id for entrant in queryset)

    @admin.action(
        description=gettext_lazy("Withdraw (forfeits their matches still to play)"),
        permissions=["change"],
    )
    def withdraw(
        self, request: HttpRequest, queryset: QuerySet[Entrant]
    ) -> TemplateResponse | None:
        entrants = list(queryset)
        form = action_form(request, WithdrawForm)
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=entrants,
                title=_("Withdraw"),
                action="withdraw",
            )
        for entrant in entrants:
            run_service(
                self,
                request,
                partial(
                    registration.entrant_withdraw,
                    tournament_id=entrant.tournament_id,
                    entrant_id=entrant.id,
                    reason=form.cleaned_data["reason"],
                    actor=admin_actor(request),
                ),
                success=_("%(name)s withdrew.") % {"name": entrant},
                subject=str(entrant),
            )
        refresh_views(entrant.tournament_id for entrant in entrants)
        return None

    @admin.action(
        description=gettext_lazy("Mark absent (not drawn from the next Swiss round)"),
        permissions=["change"],
    )
    def pause(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        self.run_for_each(request, queryset, byes.entrant_pause, _("%(name)s is absent."))

    @admin.action(
        description=gettext_lazy("Back (drawn again from the next Swiss round)"),
        permissions=["change"],
    )
    def return_to_play(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        self.run_for_each(request, queryset, byes.entrant_return, _("%(name)s is back."))

    @admin.action(
        description=gettext_lazy("Requested bye in the next Swiss round"),
        permissions=["change"],
    )
    def request_bye(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        self.run_for_each(
            request,
            queryset,
            byes.bye_request_next_round,
            _("%(name)s sits out the next round."),
        )

    def run_for_each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Entrant],
        service: Callable[..., object],
        success: str,
    ) -> None:
        """One of the byes services (decision record 0058) for each entrant chosen."""
        entrants = list(queryset)
        for entrant in entrants:
            run_service(
                self,
                request,
                partial(
                    service,
                    tournament_id=entrant.tournament_id,
                    entrant_id=entrant.id,
                    actor=admin_actor(request),
                ),
                success=success % {"name": entrant},
                subject=str(entrant),
            )
        refresh_views(entrant.tournament_id for entrant in entrants)


CORRECTED_FIELDS = {
    "name": gettext_lazy("name"),
    "players": gettext_lazy("players"),
    "seed": gettext_lazy("seed"),
    "fixed_table": gettext_lazy("fixed table"),
    "group": gettext_lazy("group"),
}


def seated_players(entrant: Entrant) -> list[Player]:
    return [
        membership.player
        for membership in EntrantPlayer.objects.filter(entrant=entrant)
        .select_related("player")
        .order_by("position")
    ]


def entrant_standing(entrant: Entrant) -> str:
    """The entrant's tournament and where it stands, above its corrections form."""
    facts = [
        str(entrant.tournament),
        _("checked in") if entrant.checked_in else _("not checked in"),
    ]
    if entrant.withdrawn:
        facts.append(_("withdrawn"))
    return " · ".join(facts)


def refresh_views(tournament_ids: Iterable[UUID]) -> None:
    for tournament_id in set(tournament_ids):
        refresh_view(tournament_id)


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Entrant,
    name=gettext_lazy("entrant"),
    plural=gettext_lazy("entrants"),
    fields={
        "tournament": gettext_lazy("tournament"),
        "name": gettext_lazy("name"),
        "seed": gettext_lazy("seed"),
        "checked_in": gettext_lazy("checked in"),
        "withdrawn": gettext_lazy("withdrawn"),
        "registered_at": gettext_lazy("registered at"),
        "fixed_table": gettext_lazy("fixed table"),
    },
)
