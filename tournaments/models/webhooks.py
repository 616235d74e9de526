"""Outgoing webhooks: the endpoints organizers register and the delivery log (decision record
0039)."""

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from tournaments.models.core import Tournament


class WebhookEndpoint(models.Model):
    """Configuration: an address an organizer registered to receive the tournament's events.

    It is sent the events recorded after `after_position` (the log's head when it was
    registered), signed with `secret` (docs/decisions/0039-outgoing-webhooks.md)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=2000)
    secret = models.CharField(max_length=200, help_text="The key the deliveries are signed with.")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    after_position = models.BigIntegerField(
        help_text="The log's head at registration: the events after it are delivered."
    )

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = "webhook endpoint"
        indexes = [models.Index(fields=["active", "tournament"])]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("delivery status", "Pending")
    DELIVERED = "delivered", pgettext_lazy("delivery status", "Delivered")
    FAILED = "failed", pgettext_lazy("delivery status", "Failed")


class WebhookDelivery(models.Model):
    """An operational log of sending one event to one endpoint: not derived from events (the
    attempts and the receiver's answers are facts of the network), so `rebuild_projections`
    leaves it alone."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    position = models.BigIntegerField(help_text="The event's global position in the log.")
    event_type = models.CharField(max_length=80)
    stream_id = models.UUIDField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The HTTP status of the last answer."
    )
    last_error = models.TextField(blank=True, default="")
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "position"], name="tournaments_webhookdelivery_once"
            )
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event_type} @ {self.position} to {self.endpoint_id}"
