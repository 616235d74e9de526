"""Tournaments: the console of one tournament (bracket, standings, the evening's steps and
the operations that can run now), the pasted list and the CSV import of entrants, the seeds and
the printable sheets."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors import organized_clubs
from common.admin import (
    admin_actor,
    error_detail,
    is_active_superuser,
    run_service,
    translated_labels,
)
from games.eventstore.admin import events_link, events_url
from games.eventstore.api import EventStoreError
from games.rules.errors import RuleViolation
from tournaments.admin.adding import TournamentsAddAdmin
from tournaments.admin.bracket import (
    bracket_columns,
    evening_prints,
    refresh_view,
    round_sheet_response,
    sheet_links,
    standings_table,
    table_card_links,
    view_of,
)
from tournaments.admin.entrants import (
    EntrantInline,
)
from tournaments.admin.forms import (
    EntrantImportForm,
    EntrantPasteForm,
    TournamentCreateForm,
)
from tournaments.admin.operations import (
    OPERATIONS,
    seeds_form,
)
from tournaments.admin.sign_up import sign_up_console
from tournaments.admin.webhooks import WebhookEndpointInline, add_endpoint_link
from tournaments.errors import EntrantsRefused
from tournaments.models import (
    Tournament,
    TournamentStatus,
)
from tournaments.projections.rows import tables_of
from tournaments.selectors import fixtures, projected, sheets
from tournaments.selectors.console import Evening, evening
from tournaments.selectors.organizing import tournament_ids
from tournaments.services import corrections, registration
from tournaments.services.registration import ImportedEntrant
from tournaments.standings.config import DEFAULT_TIEBREAKS
from tournaments.standings.placings import PLACING_TIEBREAKS_DEFAULT


@admin.register(Tournament)
class TournamentAdmin(TournamentsAddAdmin):
    add_form_class = TournamentCreateForm
    list_display = ("name", "format", "table_size", "status", "entrant_count", "created_at")
    list_filter = ("status", "format", "table_size")
    search_fields = ("name",)
    # Explicit: the entrant count's GROUP BY drops the model's ordering (pages and autocomplete).
    ordering = ("-created_at",)
    inlines = (EntrantInline, WebhookEndpointInline)
    readonly_fields = (
        "name",
        "format",
        "table_size",
        "status",
        "settings_listed",
        "version",
        "created_at",
        "updated_at",
        "events",
        "webhooks",
    )
    fields = readonly_fields
    actions = ("seed_given", "seed_random", "start", "publish_swiss_round", "schedule")

    def organized(self, user: Any) -> Q:
        return Q(id__in=tournament_ids(user))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        tournaments: QuerySet[Tournament] = super().get_queryset(request)
        return tournaments.annotate(entrants_registered=Count("entrants"))

    @admin.display(description=gettext_lazy("entrants"), ordering="entrants_registered")
    def entrant_count(self, tournament: Tournament) -> int:
        return int(getattr(tournament, "entrants_registered", 0))

    @admin.display(description=gettext_lazy("settings"))
    def settings_listed(self, tournament: Tournament) -> str:
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "", "<li>{}: {}</li>", sorted((k, str(v)) for k, v in tournament.settings.items())
            ),
        )

    @admin.display(description=gettext_lazy("event log"))
    def events(self, tournament: Tournament) -> str:
        return events_link(tournament.id)

    @admin.display(description=gettext_lazy("webhooks"))
    def webhooks(self, tournament: Tournament) -> str:
        return add_endpoint_link(tournament.id)

    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        form = super().add_form(request, data)
        if not isinstance(form, TournamentCreateForm):
            raise RuntimeError("the add form is a TournamentCreateForm")
        return form.for_organizer(
            organized_clubs(request.user), club_required=not is_active_superuser(request.user)
        )

    def create(self, request: HttpRequest, form: TournamentCreateForm) -> Tournament:
        return registration.tournament_create(
            **form.service_arguments(), actor=admin_actor(request)
        )

    # The change page: the console of one tournament.

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/run/<str:operation>/",
                wrap(self.run_view),
                name="tournaments_tournament_run",
            ),
            path(
                "<path:object_id>/import-entrants/",
                wrap(self.import_view),
                name="tournaments_tournament_import_entrants",
            ),
            path(
                "<path:object_id>/paste-entrants/",
                wrap(self.paste_view),
                name="tournaments_tournament_paste_entrants",
            ),
            path(
                "<path:object_id>/seeds/",
                wrap(self.seeds_view),
                name="tournaments_tournament_seeds",
            ),
            path(
                "<path:object_id>/sheets/<str:kind>/",
                wrap(self.sheet_view),
                name="tournaments_tournament_sheet",
            ),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        tournament = self.get_object(request, unquote(object_id))
        context = {} if tournament is None else self.console(request, tournament)
        return super().change_view(request, object_id, form_url, context | (extra_context or {}))

    def console(self, request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
        view_of(tournament)
        may_change = self.has_change_permission(request)
        tonight = evening(tournament_id=tournament.id, now=timezone.now())
        rows = projected.tournament_standings(tournament_id=tournament.id)
        at_three = tournament.table_size == 3
        default = PLACING_TIEBREAKS_DEFAULT if at_three else DEFAULT_TIEBREAKS
        tiebreaks, standings = standings_table(
            rows, tournament.settings.get("tiebreaks") or (default if rows else ())
        )
        filtered = f"?tournament__id__exact={tournament.id}"
        return {
            "table_cards": table_card_links(tournament),
            "prints": evening_prints(tournament),
            "tables_change": {
                "url": reverse("admin:tournaments_tournament_run", args=[tournament.id, "tables"]),
                "tables": tables_of(tournament),
                "by_need": tournament.settings.get("tables") is None,
            }
            if may_change
            else None,
            "sheets": sheet_links(tournament),
            "sign_up": sign_up_console(tournament, may_change=may_change),
            "overdue": [
                (fixture.key, reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
                for fixture in fixtures.overdue_fixtures(
                    tournament_id=tournament.id, now=timezone.now()
                )
            ],
            "standings": standings,
            "tiebreaks": tiebreaks,
            "at_three": at_three,
            "bracket": bracket_columns(projected.tournament_bracket(tournament_id=tournament.id)),
            "operations": self.operations_for(tournament, tonight) if may_change else [],
            "evening": tonight,
            "steps": [
                {
                    "step": step,
                    "operations": self.operations_for(tournament, tonight, only=step.operations)
                    if may_change
                    else [],
                }
                for step in tonight.steps
            ],
            "may_change": may_change,
            "paste_form": EntrantPasteForm()
            if may_change and tournament.status == TournamentStatus.REGISTRATION
            else None,
            "seeds_form": seeds_form(tournament)
            if self.has_change_permission(request)
            and tournament.status == TournamentStatus.REGISTRATION
            else None,
            "links": [
                (_("Event log"), events_url(tournament.id)),
                (_("Entrants"), reverse("admin:tournaments_entrant_changelist") + filtered),
                (_("Fixtures"), reverse("admin:tournaments_fixture_changelist") + filtered),
                (
                    _("Add an entrant"),
                    f"{reverse('admin:tournaments_entrant_add')}?tournament={tournament.id}",
                ),
                (
                    _("Import entrants (CSV)"),
                    reverse("admin:tournaments_tournament_import_entrants", args=[tournament.id]),
                ),
                (_("Bracket (API)"), reverse("api-v1:tournament-bracket", args=[tournament.id])),
                (
                    _("Standings (API)"),
                    reverse("api-v1:tournament-standings", args=[tournament.id]),
                ),
            ],
        }

    def operations_for(
        self,
        tournament: Tournament,
        tonight: Evening,
        *,
        only: Sequence[str] | None = None,
    ) -> list[dict[str, str]]:
        """The buttons of the operations that can run now (`only`: one step's)."""
        names = tonight.operations if only is None else only
        return [
            {
                "name": name,
                "label": OPERATIONS[name].label,
                "url": reverse("admin:tournaments_tournament_run", args=[tournament.id, name]),
            }
            for name in dict.fromkeys(names)
        ]

    def sheet_view(self, request: HttpRequest, object_id: str, kind: str) -> HttpResponse:
        """A printable sheet of a round (`?stage=&round=`; the current round without them): PDF,
        or the HTML it is drawn from with `?format=html`."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None or kind not in sheets.SHEETS:
            raise Http404("no such tournament or sheet")
        return round_sheet_response(request, tournament.id, kind)

    def run_view(self, request: HttpRequest, object_id: str, operation: str) -> HttpResponse:
        """A console button: one operation on one tournament, then back to its page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_change_permission(request):
            raise PermissionDenied
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None or operation not in OPERATIONS:
            raise Http404("no such tournament or operation")
        self.run_operation(request, tournament, operation)
        return HttpResponseRedirect(self.change_url(tournament))

    def import_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Register the entrants of a CSV file: all its lines, or none."""
        tournament = self.tournament_to_change(request, object_id)
        form = EntrantImportForm(
            request.POST if request.method == "POST" else None,
            request.FILES if request.method == "POST" else None,
        )
        refusals: list[str] = []
        if form.is_bound and form.is_valid():
            lines = form.cleaned_data["file"]
            refusals = self.register_lines(
                request, tournament, lines, form.cleaned_data["confirm_duplicate_names"]
            )
            if not refusals:
                self.message_user(
                    request,
                    _("%(count)s entrants imported into %(tournament)s.")
                    % {"count": len(lines), "tournament": tournament},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(self.change_url(tournament))
        return self.form_page(
            request,
            tournament,
            form,
            title=_("Import entrants into %(tournament)s") % {"tournament": tournament},
            template="admin/tournaments/import_entrants.html",
            refusals=refusals,
        )

    def paste_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A pasted list of entrants (the box on the tournament's page): shown as it will be
        registered, with what the tournament would refuse line by line; registered in one
        command when sent with `_register`."""
        tournament = self.tournament_to_change(request, object_id)
        form = EntrantPasteForm(request.POST if request.method == "POST" else None)
        preview: list[dict[str, Any]] = []
        refusals: list[str] = []
        if form.is_bound and form.is_valid():
            lines = form.cleaned_data["entrants"]
            confirmed = form.cleaned_data["confirm_duplicate_names"]
            if "_register" in request.POST:
                refusals = self.register_lines(request, tournament, lines, confirmed)
                if not refusals:
                    self.message_user(
                        request,
                        _("%(count)s entrants registered in %(tournament)s.")
                        % {"count": len(lines), "tournament": tournament},
                        messages.SUCCESS,
                    )
                    return HttpResponseRedirect(self.change_url(tournament))
            else:
                try:
                    refused = dict(
                        registration.entrants_check(
                            tournament_id=tournament.id,
                            lines=lines,
                            confirm_duplicate_names=confirmed,
                        )
                    )
                except (RuleViolation, EventStoreError) as exc:
                    refusals = [error_detail(exc)]
                else:
                    preview = [
                        {
                            "line": line.line,
                            "name": line.name,
                            "players": line.players or [line.name],
                            "seed": line.seed,
                            "refusal": error_detail(refused[line.line])
                            if line.line in refused
                            else "",
                        }
                        for line in lines
                    ]
                    refusals = [row["refusal"] for row in preview if row["refusal"]]
        return self.form_page(
            request,
            tournament,
            form,
            title=_("Register entrants in %(tournament)s") % {"tournament": tournament},
            template="admin/tournaments/paste_entrants.html",
            preview=preview,
            refusals=refusals,
        )

    def register_lines(
        self,
        request: HttpRequest,
        tournament: Tournament,
        lines: Sequence[ImportedEntrant],
        confirmed: bool,
    ) -> list[str]:
        """Register a list of entrants in one command; what was refused, line by line (nothing
        registered then)."""
        try:
            registration.entrants_register(
                tournament_id=tournament.id,
                lines=lines,
                actor=admin_actor(request),
                confirm_duplicate_names=confirmed,
            )
        except EntrantsRefused as refused:
            return [
                _("line %(line)s: %(refusal)s") % {"line": line, "refusal": error_detail(exc)}
                for line, exc in refused.refusals
            ]
        except (RuleViolation, EventStoreError) as exc:
            return [error_detail(exc)]
        refresh_view(tournament.id)
        return []

    def seeds_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The Seeds form of a tournament's page, sent as one reseed; shown on a page of its own
        when something is to be fixed (or when asked for)."""
        tournament = self.tournament_to_change(request, object_id)
        form = seeds_form(tournament, request.POST if request.method == "POST" else None)
        if form.is_bound and form.is_valid():
            changed = form.changed_seeds()
            if not changed:
                self.message_user(request, _("No seed changed: nothing recorded."), messages.INFO)
                return HttpResponseRedirect(self.change_url(tournament))
            try:
                corrections.entrants_reseed(
                    tournament_id=tournament.id,
                    seeds=changed,
                    reason=form.cleaned_data["reason"],
                    actor=admin_actor(request),
                )
            except (RuleViolation, EventStoreError) as exc:
                form.add_error(None, error_detail(exc))
            else:
                refresh_view(tournament.id)
                self.message_user(
                    request,
                    _("%(tournament)s: %(count)s seed(s) changed.")
                    % {"tournament": tournament, "count": len(changed)},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(self.change_url(tournament))
        return self.form_page(
            request,
            tournament,
            form,
            title=_("Seeds of %(tournament)s") % {"tournament": tournament},
            template="admin/tournaments/seeds.html",
        )

    def tournament_to_change(self, request: HttpRequest, object_id: str) -> Tournament:
        """The tournament of a page that changes it: 403 without the permission, 404 if none."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        tournament: Tournament | None = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404("no such tournament")
        return tournament

    def form_page(
        self,
        request: HttpRequest,
        tournament: Tournament,
        form: forms.Form,
        *,
        title: str,
        template: str,
        **extra: Any,
    ) -> TemplateResponse:
        """A page of its own for one of the tournament's forms."""
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.opts,
            "original": tournament,
            "form": form,
            **extra,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, template, context)

    # The operations: changelist actions, and buttons on a tournament's page.

    def run_operation(self, request: HttpRequest, tournament: Tournament, name: str) -> None:
        said = run_service(
            self,
            request,
            partial(OPERATIONS[name].run, request, tournament),
            subject=str(tournament),
        )
        if said is not None:
            refresh_view(tournament.id)
            self.message_user(request, f"{tournament}: {said}", messages.SUCCESS)

    def for_each(self, request: HttpRequest, queryset: QuerySet[Tournament], name: str) -> None:
        for tournament in queryset:
            self.run_operation(request, tournament, name)

    @admin.action(
        description=gettext_lazy("Seed by the seeds given at registration"), permissions=["change"]
    )
    def seed_given(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "seed_given")

    @admin.action(
        description=gettext_lazy("Seed at random (the random seed is recorded)"),
        permissions=["change"],
    )
    def seed_random(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "seed_random")

    @admin.action(
        description=gettext_lazy("Start (creates the first matches)"), permissions=["change"]
    )
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "start")

    @admin.action(description=gettext_lazy("Publish the next Swiss round"), permissions=["change"])
    def publish_swiss_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "publish_swiss_round")

    @admin.action(
        description=gettext_lazy("Call waiting matches to free tables"), permissions=["change"]
    )
    def schedule(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "schedule")


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Tournament,
    name=gettext_lazy("tournament"),
    plural=gettext_lazy("tournaments"),
    fields={
        "name": gettext_lazy("name"),
        "club": gettext_lazy("club"),
        "public": gettext_lazy("public"),
        "format": gettext_lazy("format"),
        "table_size": gettext_lazy("table size"),
        "settings": gettext_lazy("settings"),
        "status": gettext_lazy("status"),
        "version": gettext_lazy("version"),
        "created_at": gettext_lazy("created at"),
        "updated_at": gettext_lazy("updated at"),
    },
    help_texts={
        "club": gettext_lazy("The club that runs it: its organizers organize the tournament."),
        "public": gettext_lazy(
            "Anyone may read a public tournament; a private one only its club's and its own "
            "members."
        ),
        "settings": gettext_lazy(
            "Match rules, format options, tables, deadlines and tie-breaks, as created."
        ),
    },
)
