"""Fixtures: the projection of a tournament's matches; table moves, calls, forfeits, voided
rounds and the organizer's decisions on level matches go through services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import (
    HttpRequest,
)
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.admin import (
    ReadOnlyProjectionAdmin,
    action_form,
    action_form_page,
    admin_actor,
    run_service,
    translated_labels,
)
from games.admin import disputes_listed, forfeit_matches, rule_rounds, sides_of, void_rounds
from games.eventstore.admin import events_link
from games.models import Match
from tournaments.admin.bracket import (
    ordinal,
    refresh_view,
)
from tournaments.admin.forms import (
    LevelMatchDecideForm,
    TableAssignForm,
)
from tournaments.models import (
    Fixture,
)
from tournaments.selectors.organizing import tournament_ids
from tournaments.services import running, scheduling

SIDES = {
    "home": gettext_lazy("home"),
    "away": gettext_lazy("away"),
    "third": gettext_lazy("third"),
}
"""A fixture's sides, as a message names them."""


@admin.register(Fixture)
class FixtureAdmin(ReadOnlyProjectionAdmin):
    list_display = (
        "key",
        "tournament",
        "round",
        "home",
        "away",
        "third",
        "status",
        "winner",
        "decided_by",
        "table",
        "scheduled_at",
        "called_at",
    )
    list_filter = ("tournament", "status", "stage")
    list_select_related = ("tournament", "home", "away", "third", "winner")
    search_fields = ("key", "home__name", "away__name", "third__name")
    readonly_fields = (
        "tournament",
        "key",
        "stage",
        "round",
        "home",
        "away",
        "third",
        "status",
        "winner",
        "places_shown",
        "table",
        "scheduled_at",
        "called_at",
        "deadline",
        "match",
        "disputes",
        "events",
    )
    fields = readonly_fields
    actions = (
        "call_to_table",
        "assign_table",
        "decide_level",
        "forfeit",
        "void_round",
        "rule_round",
    )

    def organized(self, user: Any) -> Q:
        return Q(tournament_id__in=tournament_ids(user))

    @admin.display(description=gettext_lazy("places"))
    def places_shown(self, fixture: Fixture) -> str:
        """At a finished table of three: each entrant's place, in seat order."""
        if not fixture.places:
            return "-"
        seated = fixture.seated
        return ", ".join(
            f"{entrant.name}: {ordinal(place)}"
            for entrant, place in zip(seated, fixture.places, strict=False)
        )

    @admin.display(description=gettext_lazy("match"))
    def match(self, fixture: Fixture) -> str:
        url = reverse("admin:games_match_change", args=[fixture.match_id])
        return format_html('<a href="{}">{}</a>', url, fixture.match_id)

    @admin.display(description=gettext_lazy("disputes"))
    def disputes(self, fixture: Fixture) -> str:
        """The match's disputes with their reasons: what the organizer settles here."""
        match = Match.objects.filter(id=fixture.match_id).first()
        return "-" if match is None else disputes_listed(match)

    @admin.display(description=gettext_lazy("event log"))
    def events(self, fixture: Fixture) -> str:
        return events_link(fixture.match_id)

    def matches_of(self, fixtures: Sequence[Fixture]) -> list[Match]:
        by_id = Match.objects.in_bulk([fixture.match_id for fixture in fixtures])
        return [by_id[fixture.match_id] for fixture in fixtures if fixture.match_id in by_id]

    def result_sync(self, request: HttpRequest, match: Match) -> None:
        """The tournament takes the new result now (the consumer would, a moment later)."""
        synced = run_service(
            self,
            request,
            partial(running.fixture_result_sync, match_id=match.id, actor=admin_actor(request)),
            subject=sides_of(match),
        )
        fixture = Fixture.objects.filter(match_id=match.id).first()
        if synced is not None and fixture is not None:
            refresh_view(fixture.tournament_id)

    @admin.action(
        description=gettext_lazy("Call to its table (starts the no-show clock)"),
        permissions=["change"],
    )
    def call_to_table(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> None:
        for fixture in queryset:
            called = run_service(
                self,
                request,
                partial(
                    scheduling.fixture_call, match_id=fixture.match_id, actor=admin_actor(request)
                ),
                subject=str(fixture),
            )
            if called is not None:
                refresh_view(fixture.tournament_id)
                self.message_user(
                    request,
                    _("%(match)s called to table %(table)s.")
                    % {"match": fixture.key, "table": fixture.table},
                    messages.SUCCESS,
                )

    @admin.action(
        description=gettext_lazy("Assign a table (swaps with the match holding it)"),
        permissions=["change"],
    )
    def assign_table(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        chosen = self.one_fixture_form(
            request,
            queryset,
            TableAssignForm,
            to=_("give a table"),
            title=_("Assign a table"),
            action="assign_table",
            initial=lambda fixture: {"table": fixture.table},
        )
        if not isinstance(chosen, tuple):
            return chosen
        fixture, form = chosen
        table = form.cleaned_data["table"]
        moved = run_service(
            self,
            request,
            partial(
                scheduling.fixture_table_assign,
                match_id=fixture.match_id,
                table=table,
                actor=admin_actor(request),
            ),
            subject=str(fixture),
        )
        if moved is not None:
            refresh_view(fixture.tournament_id)
            where = "; ".join(
                _("%(match)s at table %(table)s") % {"match": f.key, "table": f.table}
                for f in moved
            ) or _("nothing moved")
            self.message_user(request, _("Tables: %(where)s.") % {"where": where}, messages.SUCCESS)
        return None

    @admin.action(
        description=gettext_lazy("Decide a knockout match that ended level (with a reason)"),
        permissions=["change"],
    )
    def decide_level(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        chosen = self.one_fixture_form(
            request,
            queryset,
            LevelMatchDecideForm,
            to=_("decide"),
            title=_("Decide a level match"),
            action="decide_level",
        )
        if not isinstance(chosen, tuple):
            return chosen
        fixture, form = chosen
        side = form.cleaned_data["winner"]
        winner = {"home": fixture.home_id, "away": fixture.away_id, "third": fixture.third_id}[side]
        if winner is None:
            self.message_user(
                request, _("%(match)s has no third side.") % {"match": fixture.key}, messages.ERROR
            )
            return None
        decided = run_service(
            self,
            request,
            partial(
                running.fixture_level_decide,
                match_id=fixture.match_id,
                winner=winner,
                reason=form.cleaned_data["reason"],
                actor=admin_actor(request),
            ),
            subject=str(fixture),
        )
        if decided is not None:
            refresh_view(fixture.tournament_id)
            self.message_user(
                request,
                _("%(match)s: the %(side)s side goes through.")
                % {"match": fixture.key, "side": SIDES.get(side, side)},
            )
        return None

    def one_fixture_form(
        self,
        request: HttpRequest,
        queryset: QuerySet[Fixture],
        form_class: type[forms.Form],
        *,
        to: str,
        title: str,
        action: str,
        initial: Callable[[Fixture], dict[str, Any]] | None = None,
    ) -> tuple[Fixture, forms.Form] | TemplateResponse | None:
        """The one selected fixture and the action's valid form; else what the action answers:
        a warning when not exactly one fixture is selected, the form's page until it is valid."""
        fixtures = list(queryset)
        if len(fixtures) != 1:
            self.message_user(
                request, _("Select one fixture to %(to)s.") % {"to": to}, messages.WARNING
            )
            return None
        (fixture,) = fixtures
        form = action_form(
            request, form_class, **({} if initial is None else {"initial": initial(fixture)})
        )
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self, request, form=form, objects=fixtures, title=title, action=action
            )
        return fixture, form

    @admin.action(
        description=gettext_lazy("Forfeit the match (choose the side)"), permissions=["change"]
    )
    def forfeit(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> TemplateResponse | None:
        matches = self.matches_of(list(queryset))
        return forfeit_matches(
            self, request, matches, action="forfeit", after=partial(self.result_sync, request)
        )

    @admin.action(description=gettext_lazy("Void a round of the match"), permissions=["change"])
    def void_round(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        matches = self.matches_of(list(queryset))
        return void_rounds(
            self, request, matches, action="void_round", after=partial(self.result_sync, request)
        )

    @admin.action(
        description=gettext_lazy("Rule on a round's result (its points, with a reason)"),
        permissions=["change"],
    )
    def rule_round(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        matches = self.matches_of(list(queryset))
        return rule_rounds(
            self, request, matches, action="rule_round", after=partial(self.result_sync, request)
        )


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Fixture,
    name=gettext_lazy("fixture"),
    plural=gettext_lazy("fixtures"),
    fields={
        "tournament": gettext_lazy("tournament"),
        "key": gettext_lazy("key"),
        "stage": gettext_lazy("stage"),
        "round": gettext_lazy("round"),
        "home": gettext_lazy("home"),
        "away": gettext_lazy("away"),
        "third": gettext_lazy("third"),
        "status": gettext_lazy("status"),
        "winner": gettext_lazy("winner"),
        "table": gettext_lazy("table"),
        "scheduled_at": gettext_lazy("scheduled at"),
        "called_at": gettext_lazy("called at"),
        "deadline": gettext_lazy("deadline"),
        "decided_by": gettext_lazy("decided by"),
    },
    help_texts={
        "key": gettext_lazy("The pairing or bracket slot id, e.g. W1-3."),
        "third": gettext_lazy("At tables of three: the third entrant at the table."),
        "called_at": gettext_lazy("When the match was called to its table."),
        "deadline": gettext_lazy("With the no-show rule: the call plus its minutes."),
        "decided_by": gettext_lazy(
            "A level knockout match's winner decided by the higher seed or the organizer."
        ),
        "places": gettext_lazy(
            "At tables of three: each entrant's place (1st, 2nd, 3rd), in seat order."
        ),
    },
)
