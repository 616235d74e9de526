"""Webhooks in the organizer's console: the endpoints of the tournaments one organizes (added
through the service, the secret shown once, deactivated by an action) and the delivery log
(read-only, with a redeliver action for failed deliveries). See decision record 0039."""

from __future__ import annotations

from functools import partial
from typing import Any
from uuid import UUID

from django import forms
from django.contrib import admin
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from typing_extensions import override

from common.admin import (
    ActionsOnlyAdmin,
    ReadOnlyInline,
    ServiceAddAdmin,
    error_detail,
    run_service,
    translated_labels,
)
from games.rules.errors import RuleViolation
from tournaments.models import Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.selectors.organizing import organized_tournaments, tournament_ids
from tournaments.webhooks import services as webhook_services

ERROR_SHOWN = 120


def organized_by(request: HttpRequest) -> QuerySet[Tournament]:
    return organized_tournaments(request.user)


class WebhookEndpointForm(forms.Form):
    tournament = forms.ModelChoiceField(
        label=gettext_lazy("Tournament"),
        queryset=Tournament.objects.all(),
        help_text=gettext_lazy("One of the tournaments you organize."),
    )
    url = forms.CharField(
        label=gettext_lazy("URL"),
        max_length=webhook_services.MAX_URL_LENGTH,
        help_text=gettext_lazy(
            "An http or https address without credentials. The events recorded from now on "
            "are POSTed there, signed with the secret."
        ),
    )
    secret = forms.CharField(
        label=gettext_lazy("Secret"),
        required=False,
        max_length=webhook_services.MAX_SECRET_LENGTH,
        widget=forms.PasswordInput,
        help_text=gettext_lazy(
            "Leave empty to have one generated; it is shown once, after adding."
        ),
    )


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ServiceAddAdmin):
    add_form_class = WebhookEndpointForm
    refusals = (RuleViolation,)
    list_display = ("url", "tournament", "active", "after_position", "created_by", "created_at")
    list_filter = ("active",)
    readonly_fields = (
        "tournament",
        "url",
        "active",
        "after_position",
        "created_by",
        "created_at",
        "deliveries_link",
    )
    fields = readonly_fields
    actions = ("deactivate",)

    def organized(self, user: Any) -> Q:
        return Q(tournament_id__in=tournament_ids(user))

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookEndpoint]:
        endpoints: QuerySet[WebhookEndpoint] = super().get_queryset(request)
        return endpoints.select_related("tournament", "created_by")

    def add_form_initial(self, request: HttpRequest) -> dict[str, Any]:
        return {"tournament": request.GET.get("tournament")}

    @override
    def add_form(self, request: HttpRequest, data: Any) -> forms.Form:
        form = super().add_form(request, data)
        choice = form.fields["tournament"]
        if not isinstance(choice, forms.ModelChoiceField):
            raise RuntimeError("the tournament is a choice of tournaments")
        choice.queryset = organized_by(request)  # only the tournaments the user organizes
        return form

    def create(self, request: HttpRequest, form: Any) -> Model:
        endpoint, _ = webhook_services.webhook_register(
            tournament_id=form.cleaned_data["tournament"].id,
            url=form.cleaned_data["url"],
            secret=form.cleaned_data["secret"] or None,
            user=request.user,
        )
        return endpoint

    def refusal_detail(self, exc: Exception) -> str:
        return f"{error_detail(exc)} ({getattr(exc, 'code', 'refused')})"

    def added_message(self, created: Model) -> str | None:
        secret = created.secret if isinstance(created, WebhookEndpoint) else ""
        return _(
            "The endpoint %(endpoint)s was added. Its secret, shown this once (keep it to "
            "verify the X-Briscola-Signature header): %(secret)s"
        ) % {"endpoint": created, "secret": secret}

    @admin.display(description=gettext_lazy("deliveries"))
    def deliveries_link(self, endpoint: WebhookEndpoint) -> str:
        url = reverse("admin:tournaments_webhookdelivery_changelist")
        return format_html('<a href="{}?endpoint__id__exact={}">delivery log</a>', url, endpoint.id)

    @admin.action(
        description=gettext_lazy("Deactivate (send nothing more)"), permissions=["change"]
    )
    def deactivate(self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]) -> None:
        for endpoint in queryset:
            run_service(
                self,
                request,
                partial(
                    webhook_services.webhook_deactivate, endpoint_id=endpoint.id, user=request.user
                ),
                success=_("%(endpoint)s is sent nothing more.") % {"endpoint": endpoint},
                subject=str(endpoint),
            )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ActionsOnlyAdmin):
    """The delivery log: written by the delivery tasks, read here; failed ones sent again."""

    list_display = (
        "id",
        "endpoint",
        "position",
        "event_type",
        "status",
        "attempts",
        "last_status",
        "last_error_shown",
        "next_attempt_at",
        "delivered_at",
    )
    list_filter = ("status",)
    readonly_fields = (
        "endpoint",
        "position",
        "event_type",
        "stream_id",
        "status",
        "attempts",
        "last_status",
        "last_error",
        "next_attempt_at",
        "delivered_at",
        "created_at",
    )
    fields = readonly_fields
    actions = ("redeliver",)

    def organized(self, user: Any) -> Q:
        return Q(endpoint__tournament_id__in=tournament_ids(user))

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookDelivery]:
        deliveries: QuerySet[WebhookDelivery] = super().get_queryset(request)
        return deliveries.select_related("endpoint")

    @admin.display(description=gettext_lazy("last error"))
    def last_error_shown(self, delivery: WebhookDelivery) -> str:
        error = delivery.last_error
        return error if len(error) <= ERROR_SHOWN else error[: ERROR_SHOWN - 1] + "…"

    @admin.action(
        description=gettext_lazy("Redeliver the failed deliveries"), permissions=["change"]
    )
    def redeliver(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        ids = list(queryset.values_list("id", flat=True))
        run_service(
            self,
            request,
            partial(webhook_services.webhook_redeliver, delivery_ids=ids, user=request.user),
            success=_("%(count)s deliveries will be sent again.") % {"count": len(ids)},
        )


class WebhookEndpointInline(ReadOnlyInline):
    """On a tournament's page: its webhook endpoints, and a link to add one."""

    model = WebhookEndpoint
    fields = ("url", "active", "after_position", "created_at", "log")
    readonly_fields = fields
    verbose_name_plural = "webhook endpoints"

    @admin.display(description=gettext_lazy("deliveries"))
    def log(self, endpoint: WebhookEndpoint) -> str:
        url = reverse("admin:tournaments_webhookdelivery_changelist")
        return format_html('<a href="{}?endpoint__id__exact={}">delivery log</a>', url, endpoint.id)


def add_endpoint_link(tournament_id: UUID) -> str:
    url = reverse("admin:tournaments_webhookendpoint_add")
    return format_html(
        '<a href="{}?tournament={}">{}</a>', url, tournament_id, _("Add a webhook endpoint")
    )


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    WebhookEndpoint,
    name=gettext_lazy("webhook endpoint"),
    plural=gettext_lazy("webhook endpoints"),
    fields={
        "tournament": gettext_lazy("tournament"),
        "url": gettext_lazy("url"),
        "active": gettext_lazy("active"),
        "created_by": gettext_lazy("created by"),
        "created_at": gettext_lazy("created at"),
        "after_position": gettext_lazy("after position"),
    },
    help_texts={
        "secret": gettext_lazy("The key the deliveries are signed with."),
        "after_position": gettext_lazy(
            "The log's head at registration: the events after it are delivered."
        ),
    },
)

translated_labels(
    WebhookDelivery,
    name=gettext_lazy("webhook delivery"),
    plural=gettext_lazy("webhook deliveries"),
    fields={
        "endpoint": gettext_lazy("endpoint"),
        "position": gettext_lazy("position"),
        "event_type": gettext_lazy("event type"),
        "stream_id": gettext_lazy("stream id"),
        "status": gettext_lazy("status"),
        "attempts": gettext_lazy("attempts"),
        "last_status": gettext_lazy("last status"),
        "last_error": gettext_lazy("last error"),
        "next_attempt_at": gettext_lazy("next attempt at"),
        "delivered_at": gettext_lazy("delivered at"),
        "created_at": gettext_lazy("created at"),
    },
    help_texts={
        "position": gettext_lazy("The event's global position in the log."),
        "last_status": gettext_lazy("The HTTP status of the last answer."),
    },
)
