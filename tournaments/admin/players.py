"""Players: their personal data, and its erasure (decision record 0018)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import (
    HttpRequest,
)
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.admin import (
    ActionsOnlyAdmin,
    action_form,
    action_form_page,
    admin_actor,
    run_service,
    translated_labels,
)
from tournaments.admin.forms import (
    PlayerEraseForm,
    PlayerLinkForm,
)
from tournaments.models import (
    Entrant,
    EntrantPlayer,
    Player,
)
from tournaments.selectors.organizing import tournament_ids
from tournaments.services import erasure


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

    def organized(self, user: Any) -> Q:
        """The players of the tournaments the user organizes."""
        entries = EntrantPlayer.objects.filter(entrant__tournament_id__in=tournament_ids(user))
        return Q(id__in=entries.values("player_id"))

    @admin.display(description=gettext_lazy("entrants"))
    def entrants_named(self, player: Player) -> str:
        return ", ".join(f"{entrant} ({entrant.tournament})" for entrant in entrants_of(player))

    @admin.action(description=gettext_lazy("Link to a user account"), permissions=["change"])
    def link(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        players = list(queryset)
        form = action_form(request, PlayerLinkForm)
        if len(players) != 1:
            self.message_user(request, _("Link one player at a time."), messages.ERROR)
            return None
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=players,
                title=_("Link to an account"),
                action="link",
            )
        username = form.cleaned_data["username"]
        run_service(
            self,
            request,
            partial(erasure.player_link, player=players[0], username=username),
            success=_("%(player)s signs in as %(username)s.")
            % {"player": players[0], "username": username},
        )
        return None

    @admin.action(description=gettext_lazy("Erase personal data"), permissions=["change"])
    def erase(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        players = list(queryset)
        form = action_form(request, PlayerEraseForm)
        if not (form.is_bound and form.is_valid()):
            return action_form_page(
                self,
                request,
                form=form,
                objects=players,
                title=_("Erase personal data"),
                action="erase",
                help_text=_(
                    "Each player's name is blanked and reads `erased player` everywhere: "
                    "entrants, standings, brackets, matches and replays. The event log is not "
                    "touched. This cannot be undone."
                ),
            )
        # The views hold entrant ids only (names are added when read): nothing to refresh.
        erased = already = 0
        for player in players:
            if erasure.player_erase(player=player, actor=admin_actor(request)):
                erased += 1
            else:
                already += 1
        said = _("%(count)s player(s) erased.") % {"count": erased}
        if already:
            said += " " + _("%(count)s had been erased already: nothing more to erase.") % {
                "count": already
            }
        self.message_user(request, said, messages.SUCCESS)
        return None


def entrants_of(player: Player) -> list[Entrant]:
    return list(Entrant.objects.filter(players=player).select_related("tournament").distinct())


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Player,
    name=gettext_lazy("player"),
    plural=gettext_lazy("players"),
    fields={
        "name": gettext_lazy("name"),
        "erased": gettext_lazy("erased"),
        "user": gettext_lazy("user"),
    },
    help_texts={
        "user": gettext_lazy(
            "The account this player signs in with, to read and confirm their matches."
        ),
    },
)
