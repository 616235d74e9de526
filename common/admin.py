"""What every app's admin shares: rows changed only through actions that call services.

An add page hands a plain form to a service (`ServiceAddAdmin`); rows added this way, and rows
derived from events, are then only viewed. An action that needs more than a click asks on an
intermediate page (`action_page`), and a service's refusal becomes a message on the page
(`run_service`; the settings name the refusals, `ADMIN_REFUSALS`, so this module imports none of
the apps).

Every admin of the console shows, opens and runs only the rows of what the user organizes
(`OrganizerScopedAdmin`, decision record 0040): another club's row is "not found", never
"forbidden". What a user organizes is said by one module that the settings name
(`ADMIN_ORGANIZER_SCOPE`). The admins of the site itself are for superusers only
(`SuperuserOnlyAdmin`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import ForeignObjectRel, Model, Q, QuerySet
from django.db.models.fields.related import RelatedField
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from typing_extensions import override

from common.actors import Actor
from common.observability import current_request_id

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:  # generic only in django-stubs
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline

T = TypeVar("T")

SERVICE_FORM_TEMPLATE = "admin/common/service_form.html"


def is_active_superuser(user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and getattr(user, "is_superuser", False)
    )


class OrganizerScope(Protocol):
    """What a user organizes, as conditions on rows (`settings.ADMIN_ORGANIZER_SCOPE`)."""

    def tournament_ids(self, user: Any) -> QuerySet[Any]: ...
    def organized_club_ids(self, user: Any) -> QuerySet[Any]: ...
    def organized_matches(self, user: Any, field: str = "id") -> Q: ...
    def organized_streams(self, user: Any, field: str = "stream_id") -> Q: ...


@cache
def organizer_scope() -> OrganizerScope:
    """The module of `settings.ADMIN_ORGANIZER_SCOPE` (the tournaments app's: this module and
    the apps below it know no tournament)."""
    return cast(OrganizerScope, import_module(settings.ADMIN_ORGANIZER_SCOPE))


class OrganizerScopedAdmin(ModelAdmin):
    """Only the rows of what the user organizes (`organized`), to list, open, act on, export,
    filter by or pick (decision record 0040): another club's row answers 404 as an unknown id
    does, so nothing confirms that it exists. Superusers see every row."""

    def organized(self, user: Any) -> Q:
        """The rows of what `user` organizes."""
        raise NotImplementedError(f"{type(self).__name__} must say which rows are the user's")

    @override
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows: QuerySet[Any] = super().get_queryset(request)
        if is_active_superuser(request.user):
            return rows
        return rows.filter(self.organized(request.user))

    @override
    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        """The row, of those the user sees; 404 for any other (unknown or another club's),
        where the admin would have redirected to its index saying that it does not exist."""
        found = super().get_object(request, object_id, from_field)
        if found is None:
            raise Http404(f"no {self.opts.verbose_name} {object_id}")
        return found

    @override
    def response_action(
        self, request: HttpRequest, queryset: QuerySet[Any], *args: Any, **kwargs: Any
    ) -> HttpResponse | None:
        """An action on rows picked by id runs only when every one is a row the user sees:
        else 404, and nothing runs (not even on the rows that are the user's)."""
        picked = set(request.POST.getlist(ACTION_CHECKBOX_NAME))
        if picked and request.POST.get("select_across") != "1":
            try:
                found = self.get_queryset(request).filter(pk__in=picked).count()
            except (ValidationError, ValueError):
                found = -1
            if found != len(picked):
                raise Http404(f"no such {self.opts.verbose_name_plural}")
        return super().response_action(request, queryset, *args, **kwargs)

    @override
    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        """A filter by a related row offers only the rows related to the ones listed (another
        club's tournament is not a choice)."""
        return [self.related_only(entry) for entry in super().get_list_filter(request)]

    def related_only(self, entry: Any) -> Any:
        if not isinstance(entry, str) or "__" in entry:
            return entry
        field = self.opts.get_field(entry)
        if isinstance(field, RelatedField | ForeignObjectRel):
            return (entry, admin.RelatedOnlyFieldListFilter)
        return entry


class SuperuserOnlyAdmin(ModelAdmin):
    """The site's own rows (accounts, groups, API tokens, periodic tasks, idempotency keys): for
    superusers only, whatever model permissions a staff member was given; a row's page answers
    anybody else 403 before looking the row up."""

    @override
    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        if not is_active_superuser(request.user):
            raise PermissionDenied
        return super().get_object(request, object_id, from_field)

    @override
    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_active_superuser(request.user)

    @override
    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_active_superuser(request.user) and super().has_view_permission(request, obj)

    @override
    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_active_superuser(request.user) and super().has_add_permission(request, *args)

    @override
    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_active_superuser(request.user) and super().has_change_permission(request, obj)

    @override
    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_active_superuser(request.user) and super().has_delete_permission(request, obj)


class ViewedOnlyAdmin(OrganizerScopedAdmin):
    """Rows listed and viewed, never edited or deleted here: changes go through the actions,
    which call services (they need the change permission, so the list has it)."""

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # The list-level permission enables the actions; a row's page stays view-only.
        return obj is None and super().has_change_permission(request)

    @override
    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ServiceAddAdmin(ViewedOnlyAdmin):
    """Rows added by a service from a plain form, then only viewed; actions call services."""

    add_form_class: type[forms.Form]
    refusals: ClassVar[tuple[type[Exception], ...]] = ()
    """The service's errors that a person fixes: shown on the form, not raised."""

    def create(self, request: HttpRequest, form: Any) -> Model:
        """Call the service with the form's cleaned data and return what it added."""
        raise NotImplementedError

    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        """The add form, bound to `data` when posted (a hook: a subclass narrows its choices to
        what the user may pick)."""
        return self.add_form_class(data, initial=self.add_form_initial(request))

    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:  # noqa: ARG002 - a hook: subclasses use it
        return {}

    def refusal_detail(self, exc: Exception) -> str:
        return error_detail(exc)

    def added_message(self, created: Model) -> str | None:  # noqa: ARG002 - a hook: subclasses use it
        return None

    def change_url(self, obj: Model) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def added_url(self, request: HttpRequest, created: Model) -> str:  # noqa: ARG002 - a hook: subclasses use it
        """Where saving the add form leads: the page of what it added (a hook)."""
        return self.change_url(created)

    def add_another_url(self, request: HttpRequest, created: Model) -> str:  # noqa: ARG002 - a hook: subclasses use it
        """Where "Save and add another" leads: an empty add form (a hook: a subclass keeps
        what the next row shares with this one)."""
        return request.path

    def plain_form_context(
        self,
        request: HttpRequest,
        form: forms.Form,
        *,
        title: str,
        subtitle: str | None = None,
        object_id: str | None = None,
        original: Model | None = None,
        extra_context: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The admin's change-form context around a plain form (the page of any admin form);
        `form.fieldsets` if it has them."""
        fieldsets = getattr(form, "fieldsets", ((None, {"fields": list(form.fields)}),))
        # The admin's helpers take any form at run time; the stubs ask for a ModelForm.
        adminform = helpers.AdminForm(
            form,  # type: ignore[arg-type]
            list(fieldsets),
            {},
            model_admin=self,
        )
        return {
            **self.admin_site.each_context(request),
            "title": title,
            "subtitle": subtitle,
            "adminform": adminform,
            "object_id": object_id,
            "original": original,
            "is_popup": False,
            "to_field": None,
            "media": self.media + adminform.media,
            "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []),  # type: ignore[arg-type]
            "preserved_filters": self.get_preserved_filters(request),
            "show_save_and_continue": False,
            **(extra_context or {}),
        }

    def add_view(
        self,
        request: HttpRequest,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else None
        form = self.add_form(request, data)
        if form.is_bound and form.is_valid():
            try:
                created = self.create(request, form)
            except self.refusals as exc:
                form.add_error(None, self.refusal_detail(exc))
            else:
                self.log_addition(request, created, [{"added": {}}])
                message = self.added_message(created)
                if message:
                    self.message_user(request, message, messages.SUCCESS)
                if "_addanother" in request.POST:
                    return HttpResponseRedirect(self.add_another_url(request, created))
                return HttpResponseRedirect(self.added_url(request, created))
        context = self.plain_form_context(
            request,
            form,
            title=_("Add %(name)s") % {"name": self.opts.verbose_name},
            extra_context=extra_context,
        )
        return self.render_change_form(request, context, add=True, form_url=form_url)


def keep_for_superusers(*app_labels: str) -> None:
    """The admins of other apps' models (registered before this is called) for superusers
    only: the organizer's console is not where the site is run."""
    for model, model_admin in list(admin.site._registry.items()):
        if model._meta.app_label in app_labels and not isinstance(model_admin, SuperuserOnlyAdmin):
            admin.site.unregister(model)
            kept = type(
                f"SuperuserOnly{type(model_admin).__name__}",
                (SuperuserOnlyAdmin, type(model_admin)),
                {},
            )
            admin.site.register(model, kept)


def admin_actor(request: HttpRequest) -> Actor:
    """The organizer behind an admin request, as recorded on the events it appends."""
    return Actor(user_id=request.user.id, device="admin", correlation_id=current_request_id())


@cache
def admin_refusals() -> tuple[type[Exception], ...]:
    """The errors of `settings.ADMIN_REFUSALS`: a service's refusals a person can fix."""
    return tuple(import_string(path) for path in settings.ADMIN_REFUSALS)


def error_detail(exc: Exception) -> str:
    """A refusal's detail for people, in their language: the rules' `detail` (its template
    translated), the event store's `message`."""
    if isinstance(getattr(exc, "template", None), str):
        # Imported here: the exception handler's module loads DRF, whose settings load ours.
        from common.exceptions import translated_detail

        return translated_detail(exc)
    detail = getattr(exc, "detail", None)
    return detail if isinstance(detail, str) else str(getattr(exc, "message", exc))


def run_service(
    model_admin: ModelAdmin,
    request: HttpRequest,
    call: Callable[[], T],
    *,
    success: str | None = None,
    subject: str = "",
) -> T | None:
    """Call a service; a refusal becomes an error message on the page, not a 500."""
    try:
        result = call()
    except admin_refusals() as exc:
        prefix = f"{subject}: " if subject else ""
        model_admin.message_user(request, prefix + error_detail(exc), messages.ERROR)
        return None
    if success:
        model_admin.message_user(request, success, messages.SUCCESS)
    return result


def action_form(request: HttpRequest, form_class: type[forms.Form], **kwargs: Any) -> forms.Form:
    """An action's own form: bound once its intermediate page was submitted."""
    if "apply" in request.POST:
        return form_class(request.POST, **kwargs)
    return form_class(**kwargs)


def action_form_page(
    model_admin: ModelAdmin,
    request: HttpRequest,
    *,
    form: forms.Form,
    objects: Sequence[Model],
    title: str,
    action: str,
    help_text: str = "",
) -> TemplateResponse:
    """The intermediate page of an action that needs more than a click (a side, a reason)."""
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "help_text": help_text,
        "opts": model_admin.model._meta,
        "objects": objects,
        "form": form,
        "action": action,
        "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
        "select_across": request.POST.get("select_across", "0"),
        "media": model_admin.media + form.media,
    }
    return TemplateResponse(request, SERVICE_FORM_TEMPLATE, context)


def submitted_action_form(
    model_admin: ModelAdmin,
    request: HttpRequest,
    form_class: type[forms.Form],
    *,
    objects: Sequence[Model],
    title: str,
    action: str,
    help_text: str = "",
    **kwargs: Any,
) -> forms.Form | TemplateResponse:
    """An action's form once submitted and valid; until then, its page (for the action to
    return)."""
    form = action_form(request, form_class, **kwargs)
    if form.is_bound and form.is_valid():
        return form
    return action_form_page(
        model_admin,
        request,
        form=form,
        objects=objects,
        title=title,
        action=action,
        help_text=help_text,
    )


class ActionsOnlyAdmin(ViewedOnlyAdmin):
    """Rows listed and viewed, never added, edited or deleted here: changes go through the
    actions, which call services (they need the change permission, so the list has it)."""

    @override
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyProjectionAdmin(ActionsOnlyAdmin):
    """Rows derived from events: listed and viewed, never added, edited or deleted here.

    Organizers still get the actions (they need the change permission): those call services.
    """


class ReadOnlyInline(TabularInline):
    """Rows shown for reading only, never edited here (derived from events, or changed by
    services)."""

    extra = 0
    can_delete = False

    @override
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @override
    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @override
    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


def search_by_uuid(
    queryset: QuerySet[Any],
    search_term: str,
    field: str,
    *,
    otherwise: Callable[[str], QuerySet[Any]],
) -> tuple[QuerySet[Any], bool]:
    """An admin search: a full UUID finds the rows whose `field` is it (an index lookup); any
    other text goes to `otherwise`; no text, every row. The answer `get_search_results` gives."""
    search_term = search_term.strip()
    if not search_term:
        return queryset, False
    try:
        wanted = uuid.UUID(search_term)
    except ValueError:
        return otherwise(search_term), False
    return queryset.filter(**{field: wanted}), False


def translated_labels(
    model: type[Model],
    *,
    name: Any,
    plural: Any,
    fields: dict[str, Any],
    help_texts: dict[str, Any] | None = None,
) -> None:
    """The console's words for a model and its fields, in the reader's language (lazy
    translations). Set on the model's options when its admin module loads rather than on the
    model, so that the models and their migrations keep their English (decision record 0050)."""
    options = cast(Any, model._meta)
    options.verbose_name = name
    options.verbose_name_plural = plural
    for field_name, label in fields.items():
        cast(Any, model._meta.get_field(field_name)).verbose_name = label
    for field_name, help_text in (help_texts or {}).items():
        cast(Any, model._meta.get_field(field_name)).help_text = help_text
