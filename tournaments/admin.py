"""The organizer's console: tournaments, entrants and fixtures.

The rows here are names and projections of the tournament streams, so the admin never writes
them. Creating a tournament, registering, importing, seeding, starting, pairing a Swiss round,
checking in, withdrawing, moving tables, forfeiting and voiding all call services, which append
events with the organizer as their actor; a refusal is shown as an error message. The event log
itself is read-only (`games.eventstore.admin`); every page links to its stream's events.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Model, QuerySet
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
from django.utils.translation import gettext_noop

from common.admin import (
    ActionsOnlyAdmin,
    ReadOnlyInline,
    ReadOnlyProjectionAdmin,
    ServiceAddAdmin,
    action_form,
    action_form_page,
    actor_of,
    error_detail,
    run_service,
)
from games.admin import forfeit_matches, sides_of, void_rounds
from games.eventstore.admin import events_link, events_url
from games.eventstore.api import EventStoreError, last_position
from games.models import Match
from games.rules import RuleViolation
from tournaments import corrections, projections, selectors, services, sheets
from tournaments.console import Evening, evening
from tournaments.forms import (
    EntrantCorrectForm,
    EntrantImportForm,
    EntrantRegisterForm,
    LevelMatchDecideForm,
    PlayerEraseForm,
    PlayerLinkForm,
    SeedsForm,
    TableAssignForm,
    TournamentCreateForm,
    WithdrawForm,
    ask_to_confirm_duplicate_name,
    entrants_import,
)
from tournaments.models import (
    Entrant,
    EntrantPlayer,
    Fixture,
    Player,
    Tournament,
    TournamentStatus,
    TournamentView,
)
from tournaments.standings import DEFAULT_TIEBREAKS
from tournaments.standings.errors import StandingsError
from tournaments.standings.placings import PLACING_TIEBREAKS_DEFAULT
from tournaments.stream import TournamentSettings

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:  # generic only in django-stubs
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline

RANDOM_SEED_LIMIT = 1_000_000


# The bracket and standings, from the tournament's view.


def refresh_view(tournament_id: UUID) -> TournamentView:
    """Recompute one tournament's view now, as the consumer would."""
    position = last_position()
    projections.project_tournament(tournament_id, position=position)
    return TournamentView.objects.get(tournament_id=tournament_id)


def view_of(tournament: Tournament) -> TournamentView:
    view = TournamentView.objects.filter(tournament=tournament).first()
    return view if view is not None else refresh_view(tournament.id)


def round_title(section: str, number: int, last: int) -> str:
    if section == "main":
        from_the_end = last - number
        names = ("Final", "Semi-finals", "Quarter-finals")
        return names[from_the_end] if from_the_end < len(names) else f"Round {number}"
    titles = {
        "winners": f"Winners round {number}",
        "losers": f"Losers round {number}",
        "grand_final": "Grand final" if number == 1 else "Grand final reset",
        "third_place": "Third place",
    }
    return titles.get(section, f"Round {number}")


def bracket_columns(bracket: dict[str, Any]) -> list[dict[str, Any]]:
    """The bracket document as the template draws it: stages of round columns, names resolved."""
    names: dict[str, str] = bracket.get("entrants", {})
    fixtures_url = reverse("admin:tournaments_fixture_changelist")

    def name(entrant: int | None) -> str:
        return "to be decided" if entrant is None else names.get(str(entrant), f"#{entrant}")

    stages = []
    for stage in bracket.get("stages", []):
        last_of: dict[str, int] = {}
        for round_ in stage["rounds"]:
            last_of[round_["section"]] = max(last_of.get(round_["section"], 0), round_["number"])
        columns = []
        for round_ in stage["rounds"]:
            matches = [
                {
                    "key": match["key"],
                    "status": match["status"],
                    "table": match["table"],
                    "url": None
                    if match["match_id"] is None
                    else f"{fixtures_url}?match_id={match['match_id']}",
                    "sides": [
                        {
                            "name": name(entrant),
                            "known": entrant is not None,
                            "won": entrant is not None and entrant == match["winner"],
                            "place": place,
                            "place_shown": None if place is None else ordinal(place),
                        }
                        for entrant, place in zip(match["entrants"], places_of(match), strict=True)
                    ],
                }
                for match in round_["matches"]
            ]
            bye = round_.get("bye")
            columns.append(
                {
                    "title": round_title(
                        round_["section"], round_["number"], last_of[round_["section"]]
                    ),
                    "matches": matches,
                    "bye": None if bye is None else name(bye),
                }
            )
        kind = stage["kind"].replace("_", " ")
        title = stage["name"].capitalize()
        stages.append(
            {
                "title": title if kind == stage["name"] else f"{title} ({kind})",
                "complete": stage["complete"],
                "rounds": columns,
            }
        )
    return stages


def table_card_links(tournament: Tournament) -> list[dict[str, Any]]:
    """Each table's printable card (tournaments/table_cards.py), as SVG and as PDF."""
    tables = TournamentSettings.from_dict(tournament.settings).tables
    return [
        {
            "table": table,
            "svg": reverse("api-v1:table-card", args=[tournament.id, table]),
            "pdf": reverse("api-v1:table-card", args=[tournament.id, table]) + "?format=pdf",
        }
        for table in range(1, tables + 1)
    ]


def sheet_links(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round's printable sheets (tournaments/sheets.py): pairings and score sheets, PDF."""
    links = []
    for stage, number in sheets.rounds_of(tournament):
        query = f"?{urlencode({'stage': stage, 'round': number})}"
        links.append(
            {
                "stage": stage,
                "round": number,
                **{
                    kind: reverse("admin:tournaments_tournament_sheet", args=[tournament.pk, kind])
                    + query
                    for kind in sheets.SHEETS
                },
            }
        )
    return links


def places_of(match: dict[str, Any]) -> list[int | None]:
    """Each seat's place at a finished table of three (None elsewhere)."""
    places = match.get("places")
    if not places or len(places) != len(match["entrants"]):
        return [None] * len(match["entrants"])
    return list(places)


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def shown(value: Any) -> Any:
    """A standings value as the console shows it: a count-back as "1/0", a fractional match
    points total with two decimals at most (4/3 as 1.33), a whole number without ".0"."""
    if isinstance(value, list):
        return "/".join(str(part) for part in value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


def standings_table(
    rows: list[dict[str, Any]], order: Sequence[str] | None = None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The tie-break names (the columns after the fixed ones, in the configured `order`; the
    projection's JSON keeps no key order) and the rows with their values."""
    tiebreaks = list(order or (rows[0]["tiebreaks"] if rows else []))
    return [name.replace("_", " ") for name in tiebreaks], [
        row
        | {
            "tiebreak_values": [shown(row["tiebreaks"].get(name)) for name in tiebreaks],
            "match_points_shown": shown(row["match_points"]),
        }
        for row in rows
    ]


# Adding through a service instead of saving a model form.


class TournamentsAddAdmin(ServiceAddAdmin):
    """Tournaments and entrants are added through their services; what the rules or the event
    store refuse shows on the form."""

    refusals = (RuleViolation, EventStoreError, StandingsError)

    def refusal_detail(self, exc: Exception) -> str:
        if isinstance(exc, StandingsError):  # e.g. match points per place that make no sense
            return exc.detail
        assert isinstance(exc, RuleViolation | EventStoreError)
        return error_detail(exc)

    def added_message(self, created: Model) -> str | None:
        return f"{created} was added."


# Tournaments.


class EntrantInline(ReadOnlyInline):
    model = Entrant
    show_change_link = True
    fields = ("name", "players_named", "seed", "checked_in", "withdrawn", "registered_at")
    readonly_fields = fields

    @admin.display(description="players")
    def players_named(self, entrant: Entrant) -> str:
        return players_of(entrant)


def players_of(entrant: Entrant) -> str:
    return ", ".join(str(player) for player in entrant.players.order_by("entrantplayer__position"))


@admin.register(Tournament)
class TournamentAdmin(TournamentsAddAdmin):
    add_form_class = TournamentCreateForm
    list_display = ("name", "format", "table_size", "status", "entrant_count", "created_at")
    list_filter = ("status", "format", "table_size")
    search_fields = ("name",)
    inlines = (EntrantInline,)
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
    )
    fields = readonly_fields
    actions = ("seed_given", "seed_random", "start", "publish_swiss_round", "schedule")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        tournaments: QuerySet[Tournament] = super().get_queryset(request)
        return tournaments.annotate(entrants_registered=Count("entrants"))

    @admin.display(description="entrants", ordering="entrants_registered")
    def entrant_count(self, tournament: Tournament) -> int:
        return int(getattr(tournament, "entrants_registered", 0))

    @admin.display(description="settings")
    def settings_listed(self, tournament: Tournament) -> str:
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "", "<li>{}: {}</li>", sorted((k, str(v)) for k, v in tournament.settings.items())
            ),
        )

    @admin.display(description="event log")
    def events(self, tournament: Tournament) -> str:
        return events_link(tournament.id)

    def create(self, request: HttpRequest, form: TournamentCreateForm) -> Tournament:
        return services.tournament_create(**form.service_arguments(), actor=actor_of(request))

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
        rows = selectors.tournament_standings(tournament_id=tournament.id)
        at_three = tournament.table_size == 3
        default = PLACING_TIEBREAKS_DEFAULT if at_three else DEFAULT_TIEBREAKS
        tiebreaks, standings = standings_table(
            rows, tournament.settings.get("tiebreaks") or (default if rows else ())
        )
        filtered = f"?tournament__id__exact={tournament.id}"
        return {
            "table_cards": table_card_links(tournament),
            "sheets": sheet_links(tournament),
            "overdue": [
                (fixture.key, reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
                for fixture in selectors.overdue_fixtures(
                    tournament_id=tournament.id, now=timezone.now()
                )
            ],
            "standings": standings,
            "tiebreaks": tiebreaks,
            "at_three": at_three,
            "bracket": bracket_columns(selectors.tournament_bracket(tournament_id=tournament.id)),
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
            "seeds_form": seeds_form(tournament)
            if self.has_change_permission(request)
            and tournament.status == TournamentStatus.REGISTRATION
            else None,
            "links": [
                ("Event log", events_url(tournament.id)),
                ("Entrants", reverse("admin:tournaments_entrant_changelist") + filtered),
                ("Fixtures", reverse("admin:tournaments_fixture_changelist") + filtered),
                (
                    "Add an entrant",
                    f"{reverse('admin:tournaments_entrant_add')}?tournament={tournament.id}",
                ),
                (
                    "Import entrants (CSV)",
                    reverse("admin:tournaments_tournament_import_entrants", args=[tournament.id]),
                ),
                ("Bracket (API)", reverse("api-v1:tournament-bracket", args=[tournament.id])),
                ("Standings (API)", reverse("api-v1:tournament-standings", args=[tournament.id])),
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
        stage = request.GET.get("stage")
        number = request.GET.get("round", "")
        context = sheets.round_sheet(
            tournament_id=tournament.id,
            stage=stage,
            round_number=int(number) if number.isdigit() else None,
        )
        html = sheets.sheet_html(kind, context)
        if request.GET.get("format") == "html":
            return HttpResponse(html)
        response = HttpResponse(
            sheets.sheet_pdf(html, base_url=request.build_absolute_uri("/")),
            content_type="application/pdf",
        )
        name = f"{kind.replace('_', '-')}-{context['stage']}-{context['round']}.pdf"
        response["Content-Disposition"] = f'inline; filename="{name}"'
        return response

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
        if not self.has_change_permission(request):
            raise PermissionDenied
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404("no such tournament")
        form = EntrantImportForm(
            request.POST if request.method == "POST" else None,
            request.FILES if request.method == "POST" else None,
        )
        refusals: list[str] = []
        if form.is_bound and form.is_valid():
            lines = form.cleaned_data["file"]
            refusals = entrants_import(
                tournament_id=tournament.id,
                lines=lines,
                actor=actor_of(request),
                confirm_duplicate_names=form.cleaned_data["confirm_duplicate_names"],
            )
            if not refusals:
                refresh_view(tournament.id)
                self.message_user(
                    request, f"{len(lines)} entrants imported into {tournament}.", messages.SUCCESS
                )
                return HttpResponseRedirect(self.change_url(tournament))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Import entrants into {tournament}",
            "opts": self.opts,
            "original": tournament,
            "form": form,
            "refusals": refusals,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/tournaments/import_entrants.html", context)

    def seeds_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The Seeds form of a tournament's page, sent as one reseed; shown on a page of its own
        when something is to be fixed (or when asked for)."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404("no such tournament")
        form = seeds_form(tournament, request.POST if request.method == "POST" else None)
        if form.is_bound and form.is_valid():
            changed = form.changed_seeds()
            if not changed:
                self.message_user(request, "No seed changed: nothing recorded.", messages.INFO)
                return HttpResponseRedirect(self.change_url(tournament))
            try:
                corrections.entrants_reseed(
                    tournament_id=tournament.id,
                    seeds=changed,
                    reason=form.cleaned_data["reason"],
                    actor=actor_of(request),
                )
            except (RuleViolation, EventStoreError) as exc:
                form.add_error(None, error_detail(exc))
            else:
                refresh_view(tournament.id)
                self.message_user(
                    request, f"{tournament}: {len(changed)} seed(s) changed.", messages.SUCCESS
                )
                return HttpResponseRedirect(self.change_url(tournament))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Seeds of {tournament}",
            "opts": self.opts,
            "original": tournament,
            "form": form,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/tournaments/seeds.html", context)

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

    @admin.action(description="Seed by the seeds given at registration", permissions=["change"])
    def seed_given(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "seed_given")

    @admin.action(
        description="Seed at random (the random seed is recorded)", permissions=["change"]
    )
    def seed_random(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "seed_random")

    @admin.action(description="Start (creates the first matches)", permissions=["change"])
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "start")

    @admin.action(description="Publish the next Swiss round", permissions=["change"])
    def publish_swiss_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "publish_swiss_round")

    @admin.action(description="Call waiting matches to free tables", permissions=["change"])
    def schedule(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.for_each(request, queryset, "schedule")


# Each operation calls one service and says what it did; a refusal raises.


def seed_given(request: HttpRequest, tournament: Tournament) -> str:
    seeded = services.tournament_seed(
        tournament_id=tournament.id, method="given", actor=actor_of(request)
    )
    return f"seeded by the given seeds ({len(seeded.state.seeding or ())} entrants)."


def seed_random(request: HttpRequest, tournament: Tournament) -> str:
    """With the random seed typed on the tournament's page, or one drawn now."""
    given = request.POST.get("random_seed", "").strip()
    if given and not given.isdigit():
        raise services.InvalidTournament(f"a random seed is a whole number, not {given!r}")
    random_seed = int(given) if given else secrets.randbelow(RANDOM_SEED_LIMIT) + 1
    seeded = services.tournament_seed(
        tournament_id=tournament.id,
        method="random",
        random_seed=random_seed,
        actor=actor_of(request),
    )
    return (
        f"seeded at random with the random seed {random_seed}, recorded with the seeding "
        f"({len(seeded.state.seeding or ())} entrants)."
    )


def start(request: HttpRequest, tournament: Tournament) -> str:
    state = services.tournament_start(tournament_id=tournament.id, actor=actor_of(request)).state
    return f"started: {len(state.fixtures)} matches created."


def start_checked_in(request: HttpRequest, tournament: Tournament) -> str:
    result = services.tournament_start(
        tournament_id=tournament.id, only_checked_in=True, actor=actor_of(request)
    )
    absent = sum(1 for e in result.events if e.event_type == "EntrantWithdrew")
    return (
        f"started with the {len(result.state.order or ())} entrants checked in "
        f"({absent} withdrawn for not checking in): {len(result.state.fixtures)} matches created."
    )


def check_in_entrant(request: HttpRequest, tournament: Tournament) -> str:
    """The entrant named by the button (`entrant`), checked in."""
    entrant = Entrant.objects.filter(
        tournament=tournament, id=int_field(request, "entrant")
    ).first()
    if entrant is None:
        raise services.EntrantNotFound.because(
            gettext_noop("entrant %(entrant)s is not registered in this tournament"),
            entrant=request.POST.get("entrant"),
        )
    services.entrant_check_in(
        tournament_id=tournament.id, entrant_id=entrant.id, actor=actor_of(request)
    )
    return f"{entrant.name} checked in."


def call_match(request: HttpRequest, tournament: Tournament) -> str:
    """The match named by the button (`match`), called to its table."""
    fixture = Fixture.objects.filter(
        tournament=tournament, match_id=request.POST.get("match", "")
    ).first()
    if fixture is None:
        raise services.InvalidTournament.because(
            gettext_noop("match %(match)s is not a match of a tournament"),
            match=request.POST.get("match"),
        )
    services.fixture_call(match_id=fixture.match_id, actor=actor_of(request))
    return f"{fixture.key} called to table {fixture.table}."


def decide_group_places(request: HttpRequest, tournament: Tournament) -> str:
    """The group named by the form (`group`), its tied entrants ordered by the places typed
    (`place_<entrant id>`: 1 is the best), with the `reason`."""
    group = request.POST.get("group", "")
    places = {
        int(key.removeprefix("place_")): int_field(request, key)
        for key in request.POST
        if key.startswith("place_") and key.removeprefix("place_").isdigit()
    }
    if sorted(places.values()) != list(range(1, len(places) + 1)):
        raise services.InvalidGroupOrder.because(
            gettext_noop(
                "give each tied entrant of group %(group)s a different place, 1 to %(count)s"
            ),
            group=group,
            count=len(places),
        )
    order = sorted(places, key=lambda entrant: places[entrant])
    services.group_places_decide(
        tournament_id=tournament.id,
        group=group,
        order=order,
        reason=request.POST.get("reason", ""),
        actor=actor_of(request),
    )
    named = dict(Entrant.objects.filter(id__in=order).values_list("id", "name"))
    return f"group {group}: places decided ({', '.join(named.get(e, f'#{e}') for e in order)})."


def int_field(request: HttpRequest, name: str) -> int:
    value = request.POST.get(name, "")
    return int(value) if value.isdigit() else 0


def open_check_in(request: HttpRequest, tournament: Tournament) -> str:
    services.check_in_open(tournament_id=tournament.id, actor=actor_of(request))
    return "check-in is open."


def close_check_in(request: HttpRequest, tournament: Tournament) -> str:
    services.check_in_close(tournament_id=tournament.id, actor=actor_of(request))
    return "check-in is closed: later check-ins are refused until it opens again."


def publish_swiss_round(request: HttpRequest, tournament: Tournament) -> str:
    state = services.swiss_round_publish(tournament_id=tournament.id, actor=actor_of(request)).state
    return f"Swiss round {len(state.swiss_rounds)} published."


def schedule(request: HttpRequest, tournament: Tournament) -> str:
    called = services.fixture_schedule(tournament_id=tournament.id, actor=actor_of(request))
    tables = ", ".join(f"{f.key} at table {f.table}" for f in called)
    return f"tables given: {tables}." if tables else "no match waits for a free table."


def seeds_form(tournament: Tournament, data: Any = None) -> SeedsForm:
    """Every entrant still in the tournament, seeded first."""
    entrants = sorted(
        Entrant.objects.filter(tournament=tournament, withdrawn=False),
        key=lambda entrant: (entrant.seed is None, entrant.seed or 0, entrant.id),
    )
    return SeedsForm(data, entrants=entrants)


def refresh(request: HttpRequest, tournament: Tournament) -> str:
    """What the consumer does when the worker runs: record results, advance, project."""
    processed = projections.consume()
    return f"bracket and standings brought up to date ({processed} new events read)."


@dataclass(frozen=True)
class Operation:
    label: str
    run: Callable[[HttpRequest, Tournament], str]


OPERATIONS = {
    "seed_given": Operation("Seed by the given seeds", seed_given),
    "seed_random": Operation("Seed at random", seed_random),
    "start": Operation("Start the tournament", start),
    "start_checked_in": Operation(
        "Start with the checked-in entrants only (the others withdraw)", start_checked_in
    ),
    "open_check_in": Operation("Open check-in", open_check_in),
    "check_in_entrant": Operation("Check in", check_in_entrant),
    "call_match": Operation("Call to its table", call_match),
    "decide_group_places": Operation("Decide the places", decide_group_places),
    "close_check_in": Operation("Close check-in", close_check_in),
    "publish_swiss_round": Operation("Publish the next Swiss round", publish_swiss_round),
    "schedule": Operation("Give waiting matches the free tables", schedule),
    "refresh": Operation("Bring bracket and standings up to date", refresh),
}


# Entrants.


@admin.register(Entrant)
class EntrantAdmin(TournamentsAddAdmin):
    """Entrants are registered and corrected through services: the change page is a form of
    the corrections (name, players, seed, and why), never a model save. Delete stays refused:
    withdraw an entrant instead."""

    add_form_class = EntrantRegisterForm
    list_display = ("name", "tournament", "players_named", "seed", "checked_in", "withdrawn")
    list_filter = ("tournament", "checked_in", "withdrawn")
    list_select_related = ("tournament",)
    search_fields = ("name", "players__name")
    readonly_fields = (
        "tournament",
        "name",
        "players_named",
        "seed",
        "checked_in",
        "withdrawn",
        "registered_at",
    )
    fields = readonly_fields
    actions = ("check_in", "withdraw")

    @admin.display(description="players")
    def players_named(self, entrant: Entrant) -> str:
        return players_of(entrant)

    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:
        return {"tournament": request.GET.get("tournament")}

    def create(self, request: HttpRequest, form: EntrantRegisterForm) -> Entrant:
        data = form.cleaned_data
        try:
            registered = services.entrant_register(
                tournament_id=data["tournament"].id,
                name=data["name"],
                players=data["players"],
                seed=data["seed"],
                confirm_duplicate_name=data["confirm_duplicate_name"],
                actor=actor_of(request),
            )
        except corrections.DuplicateEntrantName:
            ask_to_confirm_duplicate_name(form)  # the warning itself shows on the form
            raise
        refresh_view(registered.tournament_id)
        return Entrant.objects.get(id=services.registered_entrant_id(registered))

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
        adminform = helpers.AdminForm(
            form,  # type: ignore[arg-type]  # the helpers take any form at run time
            list(form.fieldsets),
            {},
            model_admin=self,
        )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Correct {entrant}",
            "subtitle": entrant_standing(entrant),
            "adminform": adminform,
            "object_id": object_id,
            "original": entrant,
            "is_popup": False,
            "to_field": None,
            "media": self.media + adminform.media,
            "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []),  # type: ignore[arg-type]
            "preserved_filters": self.get_preserved_filters(request),
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
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
        changed = [
            label for label, value in (("name", name), ("players", seated)) if value is not None
        ] + ([] if seed is corrections.KEEP_SEED else ["seed"])
        if not changed:
            self.message_user(request, "Nothing changed: nothing recorded.", messages.INFO)
            return []
        try:
            corrections.entrant_amend(
                tournament_id=entrant.tournament_id,
                entrant_id=entrant.id,
                name=name,
                players=seated,
                seed=seed,
                reason=form.cleaned_data["reason"],
                confirm_duplicate_name=form.cleaned_data["confirm_duplicate_name"],
                actor=actor_of(request),
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
            request, f"{name or entrant.name}: {', '.join(changed)} corrected.", messages.SUCCESS
        )
        return changed

    @admin.action(description="Check in", permissions=["change"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        for entrant in queryset:
            run_service(
                self,
                request,
                partial(
                    services.entrant_check_in,
                    tournament_id=entrant.tournament_id,
                    entrant_id=entrant.id,
                    actor=actor_of(request),
                ),
                success=f"{entrant} checked in.",
                subject=str(entrant),
            )
        refresh_views(entrant.tournament_id for entrant in queryset)

    @admin.action(
        description="Withdraw (forfeits their matches still to play)", permissions=["change"]
    )
    def withdraw(
        self, request: HttpRequest, queryset: QuerySet[Entrant]
    ) -> TemplateResponse | None:
        entrants = list(queryset)
        form = action_form(request, WithdrawForm)
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self, request, form=form, objects=entrants, title="Withdraw", action="withdraw"
            )
        for entrant in entrants:
            run_service(
                self,
                request,
                partial(
                    services.entrant_withdraw,
                    tournament_id=entrant.tournament_id,
                    entrant_id=entrant.id,
                    reason=form.cleaned_data["reason"],
                    actor=actor_of(request),
                ),
                success=f"{entrant} withdrew.",
                subject=str(entrant),
            )
        refresh_views(entrant.tournament_id for entrant in entrants)
        return None


def seated_players(entrant: Entrant) -> list[Player]:
    return [
        membership.player
        for membership in EntrantPlayer.objects.filter(entrant=entrant)
        .select_related("player")
        .order_by("position")
    ]


def entrant_standing(entrant: Entrant) -> str:
    """The entrant's tournament and where it stands, above its corrections form."""
    facts = [str(entrant.tournament), "checked in" if entrant.checked_in else "not checked in"]
    if entrant.withdrawn:
        facts.append("withdrawn")
    return " · ".join(facts)


def refresh_views(tournament_ids: Iterable[UUID]) -> None:
    for tournament_id in set(tournament_ids):
        refresh_view(tournament_id)


# Fixtures.


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
        "events",
    )
    fields = readonly_fields
    actions = ("call_to_table", "assign_table", "decide_level", "forfeit", "void_round")

    @admin.display(description="places")
    def places_shown(self, fixture: Fixture) -> str:
        """At a finished table of three: each entrant's place, in seat order."""
        if not fixture.places:
            return "-"
        seated = fixture.seated
        return ", ".join(
            f"{entrant.name}: {ordinal(place)}"
            for entrant, place in zip(seated, fixture.places, strict=False)
        )

    @admin.display(description="match")
    def match(self, fixture: Fixture) -> str:
        url = reverse("admin:games_match_change", args=[fixture.match_id])
        return format_html('<a href="{}">{}</a>', url, fixture.match_id)

    @admin.display(description="event log")
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
            partial(services.fixture_result_sync, match_id=match.id, actor=actor_of(request)),
            subject=sides_of(match),
        )
        fixture = Fixture.objects.filter(match_id=match.id).first()
        if synced is not None and fixture is not None:
            refresh_view(fixture.tournament_id)

    @admin.action(
        description="Call to its table (starts the no-show clock)", permissions=["change"]
    )
    def call_to_table(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> None:
        for fixture in queryset:
            called = run_service(
                self,
                request,
                partial(services.fixture_call, match_id=fixture.match_id, actor=actor_of(request)),
                subject=str(fixture),
            )
            if called is not None:
                refresh_view(fixture.tournament_id)
                self.message_user(
                    request, f"{fixture.key} called to table {fixture.table}.", messages.SUCCESS
                )

    @admin.action(
        description="Assign a table (swaps with the match holding it)", permissions=["change"]
    )
    def assign_table(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        fixtures = list(queryset)
        if len(fixtures) != 1:
            self.message_user(request, "Select one fixture to give a table.", messages.WARNING)
            return None
        (fixture,) = fixtures
        form = action_form(request, TableAssignForm, initial={"table": fixture.table})
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=fixtures,
                title="Assign a table",
                action="assign_table",
            )
        table = form.cleaned_data["table"]
        moved = run_service(
            self,
            request,
            partial(
                services.fixture_table_assign,
                match_id=fixture.match_id,
                table=table,
                actor=actor_of(request),
            ),
            subject=str(fixture),
        )
        if moved is not None:
            refresh_view(fixture.tournament_id)
            where = "; ".join(f"{f.key} at table {f.table}" for f in moved) or "nothing moved"
            self.message_user(request, f"Tables: {where}.", messages.SUCCESS)
        return None

    @admin.action(
        description="Decide a knockout match that ended level (with a reason)",
        permissions=["change"],
    )
    def decide_level(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        fixtures = list(queryset)
        if len(fixtures) != 1:
            self.message_user(request, "Select one fixture to decide.", messages.WARNING)
            return None
        (fixture,) = fixtures
        form = action_form(request, LevelMatchDecideForm)
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=fixtures,
                title="Decide a level match",
                action="decide_level",
            )
        side = form.cleaned_data["winner"]
        winner = {"home": fixture.home_id, "away": fixture.away_id, "third": fixture.third_id}[side]
        if winner is None:
            self.message_user(request, f"{fixture.key} has no third side.", messages.ERROR)
            return None
        decided = run_service(
            self,
            request,
            partial(
                services.fixture_level_decide,
                match_id=fixture.match_id,
                winner=winner,
                reason=form.cleaned_data["reason"],
                actor=actor_of(request),
            ),
            subject=str(fixture),
        )
        if decided is not None:
            refresh_view(fixture.tournament_id)
            self.message_user(request, f"{fixture.key}: the {side} side goes through.")
        return None

    @admin.action(description="Forfeit the match (choose the side)", permissions=["change"])
    def forfeit(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> TemplateResponse | None:
        matches = self.matches_of(list(queryset))
        return forfeit_matches(
            self, request, matches, action="forfeit", after=partial(self.result_sync, request)
        )

    @admin.action(description="Void a round of the match", permissions=["change"])
    def void_round(
        self, request: HttpRequest, queryset: QuerySet[Fixture]
    ) -> TemplateResponse | None:
        matches = self.matches_of(list(queryset))
        return void_rounds(
            self, request, matches, action="void_round", after=partial(self.result_sync, request)
        )


# Players: their personal data, and its erasure (decision record 0018).


@admin.register(Player)
class PlayerAdmin(ActionsOnlyAdmin):
    """Players are created by registering entrants; here they are read, and erased. Erasing
    changes only these ordinary tables: no event is appended or changed."""

    list_display = ("__str__", "user", "erased", "entrants_named")
    list_filter = ("erased",)
    search_fields = ("name", "user__username")
    readonly_fields = ("__str__", "user", "erased", "entrants_named")
    fields = readonly_fields
    actions = ("link", "erase")

    @admin.display(description="entrants")
    def entrants_named(self, player: Player) -> str:
        return ", ".join(f"{entrant} ({entrant.tournament})" for entrant in entrants_of(player))

    @admin.action(description="Link to a user account", permissions=["change"])
    def link(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        players = list(queryset)
        form = action_form(request, PlayerLinkForm)
        if len(players) != 1:
            self.message_user(request, "Link one player at a time.", messages.ERROR)
            return None
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self, request, form=form, objects=players, title="Link to an account", action="link"
            )
        username = form.cleaned_data["username"]
        run_service(
            self,
            request,
            partial(services.player_link, player=players[0], username=username),
            success=f"{players[0]} signs in as {username}.",
        )
        return None

    @admin.action(description="Erase personal data", permissions=["change"])
    def erase(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        players = list(queryset)
        form = action_form(request, PlayerEraseForm)
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=players,
                title="Erase personal data",
                action="erase",
                help_text="Each player's name is blanked and reads `erased player` everywhere: "
                "entrants, standings, brackets, matches and replays. The event log is not "
                "touched. This cannot be undone.",
            )
        # The views hold entrant ids only (names are added when read): nothing to refresh.
        erased = already = 0
        for player in players:
            if services.player_erase(player=player, actor=actor_of(request)):
                erased += 1
            else:
                already += 1
        said = f"{erased} player(s) erased."
        if already:
            said += f" {already} had been erased already: nothing more to erase."
        self.message_user(request, said, messages.SUCCESS)
        return None


def entrants_of(player: Player) -> list[Entrant]:
    return list(Entrant.objects.filter(players=player).select_related("tournament").distinct())
