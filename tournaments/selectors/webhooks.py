"""Reads for the webhooks: the tournaments a user organizes, a tournament's endpoints."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet

from accounts.models import Role, RoleGrant
from tournaments.models import Tournament, WebhookEndpoint


def organized_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` organizes (its own or its club's organizer role); every one for a
    superuser, none for anyone signed out or inactive."""
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return Tournament.objects.none()
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    grants = RoleGrant.objects.filter(user_id=user.pk, role=Role.ORGANIZER)
    return Tournament.objects.filter(
        Q(id__in=grants.filter(tournament_id__isnull=False).values("tournament_id"))
        | Q(club_id__in=grants.filter(club__isnull=False).values("club_id"))
    )


def tournament_webhooks(*, tournament_id: UUID) -> list[WebhookEndpoint]:
    """The tournament's webhook endpoints, newest first."""
    endpoints = WebhookEndpoint.objects.filter(tournament_id=tournament_id)
    return list(endpoints.order_by("-created_at", "-id"))
