"""Reads for the webhooks: a tournament's endpoints."""

from __future__ import annotations

from uuid import UUID

from tournaments.models import WebhookEndpoint


def tournament_webhooks(*, tournament_id: UUID) -> list[WebhookEndpoint]:
    """The tournament's webhook endpoints, newest first."""
    endpoints = WebhookEndpoint.objects.filter(tournament_id=tournament_id)
    return list(endpoints.order_by("-created_at", "-id"))
