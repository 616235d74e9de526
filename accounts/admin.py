"""Users, clubs, roles and device tokens in the organizer's console.

Clubs, role grants and device tokens are added through their services (a plain form handed to
the service, whose refusals show on the form) and never edited in place: a role is revoked and
granted again, a token revoked and issued again. A device token's key is shown once, in the
message after it is created; the admin stores and shows only its hash's prefix afterwards.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.postgres.forms import SimpleArrayField
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from typing_extensions import override

from accounts import services
from accounts.models import Club, DeviceToken, DeviceTokenState, Role, RoleGrant, User
from accounts.selectors import organized_clubs
from common.admin import (
    ReadOnlyInline,
    ServiceAddAdmin,
    SuperuserOnlyAdmin,
    is_active_superuser,
    keep_for_superusers,
    organizer_scope,
    translated_labels,
)

# Groups, API tokens and periodic tasks are the site's (registered by their apps, which come
# before this one in INSTALLED_APPS).
keep_for_superusers("auth", "authtoken", "django_celery_beat")


@admin.register(User)
class AccountAdmin(SuperuserOnlyAdmin, UserAdmin):  # type: ignore[type-arg]
    """Accounts are the site's: superusers keep them (an organizer's console shows none)."""


class AccountsAddAdmin(ServiceAddAdmin):
    refusals = (services.AccountsError,)


def check_organizes_tournament(request: HttpRequest, form: forms.Form) -> None:
    """A tournament id given on a form is one of the user's tournaments; any other reads as
    unknown (the form says so, naming no tournament)."""
    tournament_id = form.cleaned_data.get("tournament_id")
    if tournament_id is None or is_active_superuser(request.user):
        return
    if not organizer_scope().tournament_ids(request.user).filter(id=tournament_id).exists():
        form.add_error("tournament_id", _("There is no tournament with this id that you organize."))


def organizer_of(request: HttpRequest) -> User:
    """The staff member using the admin (the admin lets no anonymous user in)."""
    if not isinstance(request.user, User):
        raise RuntimeError("the admin lets no anonymous user in")
    return request.user


def active_users() -> QuerySet[Any]:
    return get_user_model().objects.filter(is_active=True).order_by("username")


# Clubs.


class ClubCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=services.CLUB_NAME_MAX_LENGTH)
    slug = forms.SlugField(
        label=gettext_lazy("Slug"),
        max_length=services.CLUB_SLUG_MAX_LENGTH,
        required=False,
        help_text=gettext_lazy(
            "Its name in URLs and on the command line; from the name when empty."
        ),
    )


class RoleGrantInline(ReadOnlyInline):
    model = RoleGrant
    fields = ("user", "role", "granted_by", "granted_at")
    readonly_fields = fields


@admin.register(Club)
class ClubAdmin(AccountsAddAdmin):
    add_form_class = ClubCreateForm
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    fields = ("name", "slug", "created_at")
    readonly_fields = fields
    inlines = (RoleGrantInline,)

    def organized(self, user: Any) -> Q:
        return Q(id__in=organized_clubs(user).values("id"))

    def create(self, request: HttpRequest, form: Any) -> Club:
        data = form.cleaned_data
        club = services.club_create(name=data["name"], slug=data["slug"] or None)
        self.message_user(
            request,
            _("Club %(club)s (%(slug)s) was added.") % {"club": club, "slug": club.slug},
            messages.SUCCESS,
        )
        return club


# Roles.


class RoleGrantForm(forms.Form):
    user = forms.ModelChoiceField(label=gettext_lazy("User"), queryset=active_users())
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)
    club = forms.ModelChoiceField(
        queryset=Club.objects.all(),
        required=False,
        label=gettext_lazy("Club"),
        help_text=gettext_lazy("A club, or else a tournament."),
    )
    tournament_id = forms.UUIDField(
        required=False,
        label=gettext_lazy("Tournament id"),
        help_text=gettext_lazy("A tournament's id, or else a club."),
    )
    tables = SimpleArrayField(
        forms.IntegerField(min_value=1),
        required=False,
        label=gettext_lazy("Tables"),
        help_text=gettext_lazy(
            "A scorer in a tournament: only the matches at these tables, comma-separated; "
            "empty for every table."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "club" in self.errors or "tournament_id" in self.errors:
            return data
        if (data.get("club") is None) == (data.get("tournament_id") is None):
            raise forms.ValidationError(_("Give a club or a tournament id (one of the two)."))
        return data


@admin.register(RoleGrant)
class RoleGrantAdmin(AccountsAddAdmin):
    add_form_class = RoleGrantForm
    list_display = ("user", "role", "club", "tournament_id", "tables", "granted_by", "granted_at")
    list_filter = ("role", "club")
    list_select_related = ("user", "club", "granted_by")
    search_fields = ("user__username", "club__name", "club__slug")
    fields = ("user", "role", "club", "tournament_id", "tables", "granted_by", "granted_at")
    readonly_fields = fields
    actions = ("revoke_roles",)

    def organized(self, user: Any) -> Q:
        """The roles in the clubs and tournaments the user organizes."""
        scope = organizer_scope()
        return Q(club_id__in=scope.organized_club_ids(user)) | Q(
            tournament_id__in=scope.tournament_ids(user)
        )

    @override
    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        form = super().add_form(request, data)
        club = form.fields["club"]
        if isinstance(club, forms.ModelChoiceField):
            club.queryset = organized_clubs(request.user)
        if form.is_bound and form.is_valid():
            check_organizes_tournament(request, form)
        return form

    def create(self, request: HttpRequest, form: Any) -> RoleGrant:
        data = form.cleaned_data
        grant = services.role_grant(
            user=data["user"],
            role=data["role"],
            club=data["club"],
            tournament_id=data["tournament_id"],
            granted_by=organizer_of(request),
            tables=data["tables"] or (),
        )
        self.message_user(request, _("Granted: %(grant)s.") % {"grant": grant}, messages.SUCCESS)
        return grant

    @admin.action(description=gettext_lazy("Revoke the selected roles"), permissions=["change"])
    def revoke_roles(self, request: HttpRequest, queryset: QuerySet[RoleGrant]) -> None:
        revoked = 0
        for grant in queryset.select_related("user", "club"):
            revoked += services.role_revoke(
                user=grant.user, role=grant.role, club=grant.club, tournament_id=grant.tournament_id
            )
        self.message_user(
            request, _("Revoked %(count)s role(s).") % {"count": revoked}, messages.SUCCESS
        )


# Device tokens.


def hours(lifetime: timedelta) -> int:
    return max(1, int(lifetime.total_seconds() // 3600))


class DeviceTokenCreateForm(forms.Form):
    user = forms.ModelChoiceField(
        queryset=active_users(),
        label=gettext_lazy("Scorer"),
        help_text=gettext_lazy("Who signs in on the device."),
    )
    device = forms.CharField(
        max_length=services.DEVICE_NAME_MAX_LENGTH,
        label=gettext_lazy("Device"),
        help_text=gettext_lazy("For example 'tablet at table 3'."),
    )
    expires_in_hours = forms.IntegerField(min_value=1, label=gettext_lazy("Expires in (hours)"))
    tournament_id = forms.UUIDField(
        required=False,
        label=gettext_lazy("Tournament id"),
        help_text=gettext_lazy("Only this tournament, when given."),
    )
    tables = SimpleArrayField(
        forms.IntegerField(min_value=1, max_value=services.TABLE_NUMBER_MAX),
        required=False,
        label=gettext_lazy("Tables"),
        help_text=gettext_lazy("Only these tables of the tournament, comma-separated, when given."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "expires_in_hours" in data:
            data["expires_in"] = timedelta(hours=data["expires_in_hours"])
        if not self.errors:
            try:
                services.device_token_check(
                    device=data["device"],
                    expires_in=data["expires_in"],
                    tournament_id=data["tournament_id"],
                    tables=data["tables"] or (),
                )
            except services.AccountsError as error:
                raise forms.ValidationError(error.detail) from None
        return data


class DeviceTokenStateFilter(admin.SimpleListFilter):
    title = gettext_lazy("state")
    parameter_name = "state"

    @override
    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(state.value, str(state.label)) for state in DeviceTokenState]

    @override
    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = timezone.now()
        unrevoked = Q(revoked_at__isnull=True)
        match self.value():
            case DeviceTokenState.ACTIVE:
                return queryset.filter(unrevoked, expires_at__gt=now)
            case DeviceTokenState.EXPIRED:
                return queryset.filter(unrevoked, expires_at__lte=now)
            case DeviceTokenState.REVOKED:
                return queryset.filter(revoked_at__isnull=False)
        return queryset


@admin.register(DeviceToken)
class DeviceTokenAdmin(AccountsAddAdmin):
    add_form_class = DeviceTokenCreateForm
    list_display = (
        "name",
        "user",
        "key_prefix",
        "state",
        "expires_at",
        "last_used_at",
        "tournament_id",
        "tables",
        "created_by",
        "created_at",
    )
    list_filter = (DeviceTokenStateFilter,)
    list_select_related = ("user", "created_by")
    search_fields = ("name", "prefix", "user__username")
    # Never the key's hash: nothing here helps to use or guess a key.
    fields = (
        "name",
        "user",
        "key_prefix",
        "state",
        "created_by",
        "created_at",
        "expires_at",
        "last_used_at",
        "revoked_at",
        "tournament_id",
        "tables",
    )
    readonly_fields = fields
    actions = ("revoke_tokens",)

    def organized(self, user: Any) -> Q:
        """The tokens of the tournaments the user organizes, and the unscoped ones they made."""
        return Q(tournament_id__in=organizer_scope().tournament_ids(user)) | Q(
            tournament_id__isnull=True, created_by_id=user.pk
        )

    @override
    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        """An organizer's token is for one of their tournaments: a token without one would act
        with all the roles of the user it is made for, anywhere."""
        form = super().add_form(request, data)
        if not is_active_superuser(request.user):
            form.fields["tournament_id"].required = True
        if form.is_bound and form.is_valid():
            check_organizes_tournament(request, form)
        return form

    @override
    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:
        return {"expires_in_hours": hours(services.device_token_lifetime())}

    def create(self, request: HttpRequest, form: Any) -> DeviceToken:
        data = form.cleaned_data
        token, key = services.device_token_create(
            user=data["user"],
            device=data["device"],
            created_by=organizer_of(request),
            expires_in=data["expires_in"],
            tournament_id=data["tournament_id"],
            tables=data["tables"] or (),
        )
        # The only time the key is shown: the row keeps its hash.
        self.message_user(
            request,
            _(
                "Device token %(token)s created for %(user)s. Its key, shown only this once: "
                "%(key)s — enter it on the device now."
            )
            % {"token": token, "user": token.user, "key": key},
            messages.WARNING,
        )
        return token

    @admin.display(description=gettext_lazy("key"))
    def key_prefix(self, token: DeviceToken) -> str:
        return f"{token.prefix}…"

    @admin.display(description=gettext_lazy("state"))
    def state(self, token: DeviceToken) -> str:
        return str(token.state_at(timezone.now()).label)

    @admin.action(
        description=gettext_lazy("Revoke the selected device tokens"), permissions=["change"]
    )
    def revoke_tokens(self, request: HttpRequest, queryset: QuerySet[DeviceToken]) -> None:
        revoked = 0
        for token in queryset.filter(revoked_at__isnull=True):
            services.device_token_revoke(token=token)
            revoked += 1
        self.message_user(
            request, _("Revoked %(count)s device token(s).") % {"count": revoked}, messages.SUCCESS
        )


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Club,
    name=gettext_lazy("club"),
    plural=gettext_lazy("clubs"),
    fields={
        "name": gettext_lazy("name"),
        "slug": gettext_lazy("slug"),
        "created_at": gettext_lazy("created at"),
    },
)

translated_labels(
    RoleGrant,
    name=gettext_lazy("role grant"),
    plural=gettext_lazy("role grants"),
    fields={
        "user": gettext_lazy("user"),
        "role": gettext_lazy("role"),
        "club": gettext_lazy("club"),
        "tournament_id": gettext_lazy("tournament id"),
        "tables": gettext_lazy("tables"),
        "granted_by": gettext_lazy("granted by"),
        "granted_at": gettext_lazy("granted at"),
    },
    help_texts={
        "tournament_id": gettext_lazy(
            "The tournament's id (its stream id); not a foreign key, see decision 0013."
        ),
        "tables": gettext_lazy(
            "For a scorer: only the matches at these tables of the tournament; empty means every "
            "table."
        ),
    },
)

translated_labels(
    DeviceToken,
    name=gettext_lazy("device token"),
    plural=gettext_lazy("device tokens"),
    fields={
        "user": gettext_lazy("user"),
        "name": gettext_lazy("name"),
        "prefix": gettext_lazy("prefix"),
        "created_by": gettext_lazy("created by"),
        "created_at": gettext_lazy("created at"),
        "expires_at": gettext_lazy("expires at"),
        "revoked_at": gettext_lazy("revoked at"),
        "last_used_at": gettext_lazy("last used at"),
        "tournament_id": gettext_lazy("tournament id"),
        "tables": gettext_lazy("tables"),
    },
    help_texts={
        "user": gettext_lazy("The scorer who signs in with this device."),
        "name": gettext_lazy("The device, e.g. 'tablet at table 3'."),
        "prefix": gettext_lazy("The key's first characters, to recognise it."),
        "created_by": gettext_lazy("The organizer who issued it."),
        "last_used_at": gettext_lazy("Updated at most once a minute."),
        "tournament_id": gettext_lazy("Only this tournament (its id), when set."),
        "tables": gettext_lazy("Only these tables of the tournament, when set."),
    },
)
