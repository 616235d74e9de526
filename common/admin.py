"""What every app's admin shares: an add page that hands a plain form to a service.

Rows added this way are then only viewed (their changes are actions that call services too), so
the change and delete permissions are narrowed here as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
else:  # generic only in django-stubs
    ModelAdmin = admin.ModelAdmin


class ServiceAddAdmin(ModelAdmin):
    """Rows added by a service from a plain form, then only viewed; actions call services."""

    add_form_class: type[forms.Form]
    refusals: ClassVar[tuple[type[Exception], ...]] = ()
    """The service's errors that a person fixes: shown on the form, not raised."""

    def create(self, request: HttpRequest, form: Any) -> Model:
        """Call the service with the form's cleaned data and return what it added."""
        raise NotImplementedError

    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:
        return {}

    def refusal_detail(self, exc: Exception) -> str:
        return str(getattr(exc, "detail", exc))

    def added_message(self, created: Model) -> str | None:
        return None

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # The list-level permission enables the actions; a row's page stays view-only.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def change_url(self, obj: Model) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def add_view(
        self,
        request: HttpRequest,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else None
        form = self.add_form_class(data, initial=self.add_form_initial(request))
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
                    return HttpResponseRedirect(request.path)
                return HttpResponseRedirect(self.change_url(created))
        fieldsets = getattr(form, "fieldsets", ((None, {"fields": list(form.fields)}),))
        # The admin's helpers take any form at run time; the stubs ask for a ModelForm.
        adminform = helpers.AdminForm(
            form,  # type: ignore[arg-type]
            list(fieldsets),
            {},
            model_admin=self,
        )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Add {self.opts.verbose_name}",
            "subtitle": None,
            "adminform": adminform,
            "object_id": None,
            "original": None,
            "is_popup": False,
            "to_field": None,
            "media": self.media + adminform.media,
            "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []),  # type: ignore[arg-type]
            "preserved_filters": self.get_preserved_filters(request),
            "show_save_and_continue": False,
            **(extra_context or {}),
        }
        return self.render_change_form(request, context, add=True, form_url=form_url)
