"""Players' applications to play and their player keys (issue 26 §1, decision record 0053).

An application's row is a name row (decision record 0018): the names and the contact a player
gave, never in an event, erasable. Where an application is (pending, waitlisted, entered,
declined) is the tournament stream's, folded. A player key's row holds only the key's hash.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.models.core import Entrant, Tournament


class Application(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="applications"
    )
    name = models.CharField(max_length=200)
    players = models.JSONField(
        default=list, blank=True, help_text="The players' names of a pair or trio, in seat order."
    )
    contact = models.CharField(
        max_length=200, blank=True, help_text="An email address or a phone number (optional)."
    )
    erased = models.BooleanField(default=False)
    applied_at = models.DateTimeField(default=timezone.now)
    entrant = models.OneToOneField(
        Entrant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="application",
        help_text="The entrant it entered as, once it entered.",
    )

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return "erased player" if self.erased else self.name


PLAYER_KEY_PREFIX = "pk_"
"""A player key: `pk_` and 43 URL-safe characters (32 random bytes), stored by its SHA-256."""


class PlayerKey(models.Model):
    """The key a player reads and acts on their own entry with (issue 26 §2): scoped to one
    application of one tournament, shown once, stored by its SHA-256 (`accounts.keys`),
    revocable by the organizer."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="keys")
    prefix = models.CharField(max_length=16, db_index=True)
    salt = models.CharField(
        max_length=64,
        help_text="Random: with the server's secret it gives the key again (a repeated "
        "request, a printed card); without the secret it gives nothing.",
    )
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}…"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
