"""Events and idempotency keys in the admin: to look at, never to add, change or delete."""

import uuid
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import IntegerField, Model, OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from typing_extensions import override

from common.admin import (
    OrganizerScopedAdmin,
    SuperuserOnlyAdmin,
    organizer_scope,
    search_by_uuid,
    translated_labels,
)
from games.eventstore.models import Event, IdempotencyKey


def events_url(stream_id: uuid.UUID) -> str:
    """The event log admin, filtered to one stream."""
    return f"{reverse('admin:eventstore_event_changelist')}?q={stream_id}"


def events_link(stream_id: uuid.UUID) -> str:
    return format_html('<a href="{}">{}</a>', events_url(stream_id), _("Events of this stream"))


class ReadOnlyAdmin(OrganizerScopedAdmin):
    # Counting a large log on every page is slow, and an exact total is not needed here.
    show_full_result_count = False
    search_help_text = gettext_lazy("Search by stream id (the full UUID).")
    search_fields = ("stream_id",)

    @override
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @override
    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @override
    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @override
    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        # An exact match uses the (stream_id, ...) index; a substring search would scan the log.
        return search_by_uuid(
            queryset, search_term, "stream_id", otherwise=lambda _: queryset.none()
        )


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Who did what: every event with its actor (their username, looked up in the same query)
    and the device they used."""

    list_display = (
        "global_position",
        "stream_type",
        "stream_id",
        "stream_version",
        "event_type",
        "actor",
        "device",
        "schema_version",
        "recorded_at",
    )
    list_filter = ("stream_type", "event_type")
    ordering = ("-global_position",)

    def organized(self, user: Any) -> Q:
        """The events of the tournaments and matches the user organizes."""
        return organizer_scope().organized_streams(user)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        actor_id = Cast(KeyTextTransform("actor_id", "metadata"), IntegerField())
        username = get_user_model().objects.filter(pk=OuterRef("actor_pk")).values("username")
        events: QuerySet[Event] = (
            super()
            .get_queryset(request)
            .annotate(actor_pk=actor_id)
            .annotate(actor_name=Subquery(username[:1]))
        )
        return events

    @admin.display(description=gettext_lazy("actor"))
    def actor(self, event: Event) -> str:
        name = getattr(event, "actor_name", None)
        actor_pk = event.metadata.get("actor_id")
        if name is not None:
            return str(name)
        if actor_pk is None and event.metadata.get("entrant") is not None:
            # A player with their player key, who has no account (decision record 0055).
            return _("entrant %(id)s (player key)") % {"id": event.metadata["entrant"]}
        return "—" if actor_pk is None else _("user %(id)s (deleted)") % {"id": actor_pk}

    @admin.display(description=gettext_lazy("device"))
    def device(self, event: Event) -> str:
        return str(event.metadata.get("device") or "—")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(SuperuserOnlyAdmin, ReadOnlyAdmin):
    list_display = (
        "key",
        "stream_id",
        "first_version",
        "last_version",
        "first_position",
        "recorded_at",
    )
    ordering = ("-first_position",)

    def organized(self, user: Any) -> Q:  # noqa: ARG002 - superusers only: never reached
        return Q(pk__in=[])


# The console's words for these rows, in the reader's language (decision record 0050).

translated_labels(
    Event,
    name=gettext_lazy("event"),
    plural=gettext_lazy("events"),
    fields={
        "global_position": gettext_lazy("global position"),
        "stream_id": gettext_lazy("stream id"),
        "stream_type": gettext_lazy("stream type"),
        "stream_version": gettext_lazy("stream version"),
        "event_type": gettext_lazy("event type"),
        "schema_version": gettext_lazy("schema version"),
        "payload": gettext_lazy("payload"),
        "metadata": gettext_lazy("metadata"),
        "recorded_at": gettext_lazy("recorded at"),
        "chain_hash": gettext_lazy("chain hash"),
    },
)
