"""Matches in the organizer's console.

Match and round rows are projections of the match streams: the admin shows them and never
writes them. Its actions (forfeit, void a round) call the match services, so each is an event
with the organizer as its actor. The tournaments admin runs the same actions on its fixtures.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _
from typing_extensions import override

from common.admin import (
    ReadOnlyInline,
    ReadOnlyProjectionAdmin,
    admin_actor,
    organizer_scope,
    run_service,
    search_by_uuid,
    submitted_action_form,
    translated_labels,
)
from games.eventstore.admin import events_link
from games.matches import selectors, services
from games.models import Match, MatchStatus, Round, RoundStatus

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
else:  # generic only in django-stubs
    ModelAdmin = admin.ModelAdmin


# Forms of the match actions.


class ForfeitForm(forms.Form):
    side = forms.TypedChoiceField(
        label=gettext_lazy("Side"), coerce=int, help_text=gettext_lazy("The side that forfeits.")
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Recorded with the event."),
    )

    def __init__(self, *args: Any, sides: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["side"]
        if not isinstance(field, forms.TypedChoiceField):
            raise RuntimeError("the side field is a TypedChoiceField")
        field.choices = list(enumerate(sides))


class RoundVoidForm(forms.Form):
    round_number = forms.IntegerField(
        label=gettext_lazy("Round number"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Blank: the latest round of each match that was not voided."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Recorded with the event."),
    )


class RoundRuleForm(forms.Form):
    round_number = forms.IntegerField(
        label=gettext_lazy("Round number"),
        min_value=1,
        help_text=gettext_lazy("The finished round to rule on."),
    )
    points = forms.CharField(
        label=gettext_lazy("Points"),
        max_length=20,
        help_text=gettext_lazy(
            "Each side's points as you rule them, side 0 first, e.g. 55 65 (they total 120)."
        ),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Recorded with the event and shown."),
    )

    def clean_points(self) -> list[int]:
        parts = self.cleaned_data["points"].replace(",", " ").replace("-", " ").split()
        if not parts or not all(part.isdigit() for part in parts):
            raise forms.ValidationError(_("Give each side's points as numbers, e.g. 55 65."))
        return [int(part) for part in parts]


class CardCorrectForm(forms.Form):
    round_number = forms.IntegerField(
        label=gettext_lazy("Round number"),
        min_value=1,
        help_text=gettext_lazy("The finished round whose card was recorded wrongly."),
    )
    play_number = forms.IntegerField(
        label=gettext_lazy("Card number"),
        min_value=1,
        help_text=gettext_lazy("The card's number in the round's replay, from 1."),
    )
    card = forms.CharField(
        label=gettext_lazy("Card actually played"),
        max_length=4,
        help_text=gettext_lazy("As the scorer types it, e.g. 3C."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Recorded with the event and shown."),
    )


def sides_of(match: Match) -> str:
    """The sides by name, as they read now (names are resolved, never taken from events)."""
    return _(" v ").join(selectors.match_side_names(match=match))


def disputes_listed(match: Match) -> str:
    """Every dispute of the match, open ones first: the side by name, its reason and whether it
    is open (decision record 0045). Who recorded it stays in the event log."""
    if not match.disputes:
        return "-"
    names = selectors.match_side_names(match=match)
    disputes = sorted(match.disputes, key=lambda dispute: not dispute["standing"])
    return format_html(
        '<ul class="disputes">{}</ul>',
        format_html_join(
            "",
            '<li data-dispute="{}" data-standing="{}"><strong>{}</strong> ({}): “{}”'
            ' <span class="quiet">{} {}</span></li>',
            (
                (
                    dispute["side"],
                    "true" if dispute["standing"] else "false",
                    names[dispute["side"]],
                    _("open") if dispute["standing"] else _("closed"),
                    dispute.get("reason", ""),
                    _("event"),
                    dispute["version"],
                )
                for dispute in disputes
            ),
        ),
    )


def side_labels(matches: Sequence[Match]) -> list[str]:
    """The sides by name for one match; by number for several."""
    if len(matches) == 1:
        return [
            f"{n}: {name}" for n, name in enumerate(selectors.match_side_names(match=matches[0]))
        ]
    most = max((len(match.sides) for match in matches), default=2)
    return [_("side %(side)s") % {"side": n} for n in range(most)]


def latest_round(match_id: uuid.UUID) -> int | None:
    return (
        Round.objects.filter(match_id=match_id)
        .exclude(status=RoundStatus.VOIDED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def run_on_match(
    model_admin: ModelAdmin,
    request: HttpRequest,
    match: Match,
    call: Callable[[], object],
    *,
    done: str,
    after: Callable[[Match], None],
) -> None:
    """Call a match service (a refusal becomes a message naming the match); `after` follows."""
    named = sides_of(match)
    result = run_service(model_admin, request, call, success=f"{named}: {done}", subject=named)
    if result is not None:
        after(match)


def forfeit_matches(
    model_admin: ModelAdmin,
    request: HttpRequest,
    matches: Sequence[Match],
    *,
    action: str,
    after: Callable[[Match], None] = lambda *_: None,
) -> TemplateResponse | None:
    """The forfeit action: ask for the side and the reason, then forfeit each match."""
    matches = selectors.with_side_names(matches=matches)
    form = submitted_action_form(
        model_admin,
        request,
        ForfeitForm,
        objects=matches,
        title=_("Forfeit a match"),
        action=action,
        help_text=_("The other side wins the match; the rounds played so far are kept."),
        sides=side_labels(matches),
    )
    if isinstance(form, TemplateResponse):
        return form
    side, reason = form.cleaned_data["side"], form.cleaned_data["reason"]
    for match in matches:
        forfeit = partial(
            services.match_forfeit,
            match_id=match.id,
            side=side,
            reason=reason,
            actor=admin_actor(request),
        )
        run_on_match(
            model_admin,
            request,
            match,
            forfeit,
            done=_("side %(side)s forfeited.") % {"side": side},
            after=after,
        )
    return None


def void_rounds(
    model_admin: ModelAdmin,
    request: HttpRequest,
    matches: Sequence[Match],
    *,
    action: str,
    after: Callable[[Match], None] = lambda *_: None,
) -> TemplateResponse | None:
    """The void action: ask for the round and the reason, then void it in each match."""
    matches = selectors.with_side_names(matches=matches)
    form = submitted_action_form(
        model_admin,
        request,
        RoundVoidForm,
        objects=matches,
        title=_("Void a round"),
        action=action,
        help_text=_("A voided round no longer counts; the next round is dealt again."),
    )
    if isinstance(form, TemplateResponse):
        return form
    reason = form.cleaned_data["reason"]
    for match in matches:
        number = form.cleaned_data["round_number"] or latest_round(match.id)
        if number is None:
            model_admin.message_user(
                request,
                _("%(sides)s: no round to void.") % {"sides": sides_of(match)},
                messages.ERROR,
            )
            continue
        void = partial(
            services.round_void,
            match_id=match.id,
            round_number=number,
            reason=reason,
            actor=admin_actor(request),
        )
        run_on_match(
            model_admin,
            request,
            match,
            void,
            done=_("round %(number)s voided.") % {"number": number},
            after=after,
        )
    return None


def rule_rounds(
    model_admin: ModelAdmin,
    request: HttpRequest,
    matches: Sequence[Match],
    *,
    action: str,
    after: Callable[[Match], None] = lambda *_: None,
) -> TemplateResponse | None:
    """The ruling action: ask for the round, its points and the reason, then rule (decision
    record 0045)."""
    matches = selectors.with_side_names(matches=matches)
    form = submitted_action_form(
        model_admin,
        request,
        RoundRuleForm,
        objects=matches,
        title=_("Rule on a round's result"),
        action=action,
        help_text=_(
            "The round's points become the ones you rule, whatever its cards said; its "
            "cards stay in its replay. The sides confirm the result again."
        ),
    )
    if isinstance(form, TemplateResponse):
        return form
    number, points = form.cleaned_data["round_number"], form.cleaned_data["points"]
    for match in matches:
        ruling = partial(
            services.round_rule,
            match_id=match.id,
            round_number=number,
            points=points,
            reason=form.cleaned_data["reason"],
            actor=admin_actor(request),
        )
        run_on_match(
            model_admin,
            request,
            match,
            ruling,
            done=_("round %(number)s ruled.") % {"number": number},
            after=after,
        )
    return None


def correct_cards(
    model_admin: ModelAdmin,
    request: HttpRequest,
    matches: Sequence[Match],
    *,
    action: str,
) -> TemplateResponse | None:
    """The organizer's correction of a finished round's card: ask for the round, the card's
    number, the card actually played and the reason, then correct it (decision record 0048)."""
    matches = selectors.with_side_names(matches=matches)
    form = submitted_action_form(
        model_admin,
        request,
        CardCorrectForm,
        objects=matches,
        title=gettext("Correct a card of a finished round"),
        action=action,
        help_text=gettext(
            "The play that had recorded this card takes the corrected card's place; the round's "
            "tricks and points follow. The sides confirm the result again."
        ),
    )
    if isinstance(form, TemplateResponse):
        return form
    number = form.cleaned_data["round_number"]
    for match in matches:
        correction = partial(
            services.round_card_correct,
            match_id=match.id,
            round_number=number,
            play_index=form.cleaned_data["play_number"] - 1,
            card=form.cleaned_data["card"],
            reason=form.cleaned_data["reason"],
            actor=admin_actor(request),
        )
        done = gettext("a card of round %(number)s corrected.") % {"number": number}
        run_on_match(model_admin, request, match, correction, done=done, after=lambda *_: None)
    return None


# The match admin.


class RoundInline(ReadOnlyInline):
    model = Round
    fields = (
        "number",
        "status",
        "dealer_seat",
        "briscola",
        "cards_played",
        "points",
        "points_entered",
        "result",
        "replay_of",
        "void_reason",
        "replay",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("cards"))
    def cards_played(self, round_: Round) -> int:
        return len(round_.plays)

    @admin.display(description=gettext_lazy("replay"))
    def replay(self, round_: Round) -> str:
        url = reverse("api-v1:round-replay", args=[round_.match_id, round_.number])
        return format_html('<a href="{}">{}</a>', url, _("tricks"))


class DisputedFilter(admin.SimpleListFilter):
    """Matches whose result a side disputes: the organizer's queue of results to settle."""

    title = gettext_lazy("result disputed")
    parameter_name = "disputed"

    @override
    def lookups(self, request: HttpRequest, model_admin: ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", _("Disputed")), ("no", _("Not disputed"))]

    @override
    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.exclude(disputed_by=[])
        if self.value() == "no":
            return queryset.filter(disputed_by=[])
        return queryset


class MatchChangeList(ChangeList):
    """Resolves the side names of a whole page at once, rather than row by row."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        self.result_list = selectors.with_side_names(matches=self.result_list)


@admin.register(Match)
class MatchAdmin(ReadOnlyProjectionAdmin):
    list_display = (
        "__str__",
        "table_size",
        "scoring",
        "best_of",
        "round_wins",
        "total_points",
        "winner_name",
        "disputed",
        "updated_at",
    )
    list_filter = ("status", DisputedFilter, "table_size", "scoring")
    search_fields = ("id",)
    search_help_text = gettext_lazy("Search by a side's name, or by the match id (the full UUID).")
    show_full_result_count = False
    inlines = (RoundInline,)
    readonly_fields = (
        "id",
        "sides_named",
        "status",
        "table_size",
        "scoring",
        "best_of",
        "variant",
        "first_dealer",
        "round_wins",
        "total_points",
        "winner_name",
        "forfeited_by",
        "confirmed_by",
        "disputed",
        "disputes_shown",
        "version",
        "last_position",
        "created_at",
        "updated_at",
        "events",
    )
    fields = readonly_fields
    actions = ("forfeit", "void_round", "rule_round", "correct_card")

    def organized(self, user: Any) -> Q:
        return organizer_scope().organized_matches(user)

    @override
    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return MatchChangeList

    @override
    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        return search_by_uuid(
            queryset,
            search_term,
            "id",
            otherwise=lambda term: queryset.filter(id__in=selectors.matches_named(term=term)),
        )

    @admin.display(description=gettext_lazy("sides"))
    def sides_named(self, match: Match) -> str:
        return sides_of(match)

    @admin.display(description=gettext_lazy("winner"))
    def winner_name(self, match: Match) -> str:
        if match.winner is None:
            return _("tie") if match.status == MatchStatus.FINISHED else "-"
        return selectors.match_side_names(match=match)[match.winner]

    @admin.display(description=gettext_lazy("disputed by"))
    def disputed(self, match: Match) -> str:
        """The sides whose dispute is open; their reasons are on the match's page."""
        if not match.disputed_by:
            return "-"
        names = selectors.match_side_names(match=match)
        return ", ".join(names[side] for side in match.disputed_by)

    @admin.display(description=gettext_lazy("disputes"))
    def disputes_shown(self, match: Match) -> str:
        return disputes_listed(match)

    @admin.display(description=gettext_lazy("event log"))
    def events(self, match: Match) -> str:
        return events_link(match.id)

    @admin.action(
        description=gettext_lazy("Forfeit the selected matches (choose the side)"),
        permissions=["change"],
    )
    def forfeit(self, request: HttpRequest, queryset: QuerySet[Match]) -> TemplateResponse | None:
        return forfeit_matches(self, request, list(queryset), action="forfeit")

    @admin.action(
        description=gettext_lazy("Void a round of the selected matches"), permissions=["change"]
    )
    def void_round(
        self, request: HttpRequest, queryset: QuerySet[Match]
    ) -> TemplateResponse | None:
        return void_rounds(self, request, list(queryset), action="void_round")

    @admin.action(
        description=gettext_lazy("Rule on a round's result (its points, with a reason)"),
        permissions=["change"],
    )
    def rule_round(
        self, request: HttpRequest, queryset: QuerySet[Match]
    ) -> TemplateResponse | None:
        return rule_rounds(self, request, list(queryset), action="rule_round")

    @admin.action(
        description=gettext_lazy("Correct a card of a finished round"), permissions=["change"]
    )
    def correct_card(
        self, request: HttpRequest, queryset: QuerySet[Match]
    ) -> TemplateResponse | None:
        return correct_cards(self, request, list(queryset), action="correct_card")


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Match,
    name=gettext_lazy("match"),
    plural=gettext_lazy("matches"),
    fields={
        "id": gettext_lazy("id"),
        "table_size": gettext_lazy("table size"),
        "scoring": gettext_lazy("scoring"),
        "best_of": gettext_lazy("best of"),
        "sides": gettext_lazy("sides"),
        "variant": gettext_lazy("variant"),
        "first_dealer": gettext_lazy("first dealer"),
        "status": gettext_lazy("status"),
        "round_wins": gettext_lazy("round wins"),
        "total_points": gettext_lazy("total points"),
        "winner": gettext_lazy("winner"),
        "forfeited_by": gettext_lazy("forfeited by"),
        "confirmed_by": gettext_lazy("confirmed by"),
        "disputed_by": gettext_lazy("disputed by"),
        "version": gettext_lazy("version"),
        "last_position": gettext_lazy("last position"),
        "created_at": gettext_lazy("created at"),
        "updated_at": gettext_lazy("updated at"),
        "decided_by": gettext_lazy("decided by"),
    },
    help_texts={
        "best_of": gettext_lazy(
            "Rounds to win the majority of (scoring 'rounds'), or rounds played ('points')."
        ),
        "sides": gettext_lazy(
            'Who each side is, by ids, as the events say: [{"entrant": id}] for a tournament\'s '
            "match, [{}] for a free-standing one; side 0 first. Names are resolved when read "
            "(games.matches.selectors.side_names_of)."
        ),
        "decider": gettext_lazy(
            "Scoring 'points': 'round', a match level after its rounds plays a deciding round; "
            "'none', it ends level (decision record 0029)."
        ),
        "deciding_round_due": gettext_lazy(
            "Level after its rounds: a deciding round is being played."
        ),
        "deciding_round": gettext_lazy(
            "The number of the deciding round that won a match level after its rounds."
        ),
        "decided_by": gettext_lazy(
            "'deciding_round' when a deciding round won the match (decision record 0045)."
        ),
        "regulation_points": gettext_lazy(
            "Scoring 'points': each side's total of the fixed rounds, without the deciding "
            "rounds; null for a best-of match."
        ),
        "disputed_by": gettext_lazy(
            "The sides whose dispute of the result is open: confirming withdraws one."
        ),
        "confirmations": gettext_lazy(
            "Every confirmation recorded, in order: its side, the stream version of its event, "
            "the result it was of, and whether it stands (decision record 0044)."
        ),
        "disputes": gettext_lazy(
            "Every dispute recorded, in order, as `confirmations`: standing while open."
        ),
        "version": gettext_lazy("The stream version this row reflects."),
        "last_position": gettext_lazy("Global position of the last event applied."),
    },
)

translated_labels(
    Round,
    name=pgettext_lazy("match round", "round"),
    plural=pgettext_lazy("match round", "rounds"),
    fields={
        "number": gettext_lazy("number"),
        "status": gettext_lazy("status"),
        "dealer_seat": gettext_lazy("dealer seat"),
        "briscola": gettext_lazy("briscola"),
        "points": gettext_lazy("points"),
        "points_entered": gettext_lazy("points entered"),
        "result": gettext_lazy("result"),
        "replay_of": gettext_lazy("replay of"),
        "void_reason": gettext_lazy("void reason"),
        "ruling": gettext_lazy("ruling"),
        "corrections": gettext_lazy("corrections"),
    },
)
