"""Who is who: users, clubs, the roles users hold, and the tokens scorers' devices sign in with.

A role is granted on a club or on one tournament. A tournament is named by its id (the id of its
stream, a UUID), not by a foreign key: `accounts` is used by `games` and `tournaments` and must
not depend on them (docs/decisions/0013-accounts-and-roles.md). Services write these rows
(`accounts.services`), selectors read them (`accounts.selectors`).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy


class User(AbstractUser):
    """The project's user from the first migration, so roles and clubs can grow on it."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"


class Role(models.TextChoices):
    ORGANIZER = "organizer", pgettext_lazy("role", "Organizer")
    SCORER = "scorer", pgettext_lazy("role", "Scorer")
    PLAYER = "player", pgettext_lazy("role", "Player")


class Club(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class RoleGrant(models.Model):
    """A user holds a role in a club or in one tournament (exactly one of the two). A user may
    hold several roles in the same place (an organizer who also plays), each once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="role_grants"
    )
    role = models.CharField(max_length=12, choices=Role.choices)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="role_grants"
    )
    tournament_id = models.UUIDField(
        null=True,
        blank=True,
        db_index=True,
        help_text="The tournament's id (its stream id); not a foreign key, see decision 0013.",
    )
    tables = ArrayField(
        models.PositiveSmallIntegerField(),
        default=list,
        blank=True,
        help_text="For a scorer: only the matches at these tables of the tournament; empty means "
        "every table.",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user", "role", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(club__isnull=False, tournament_id__isnull=True)
                | models.Q(club__isnull=True, tournament_id__isnull=False),
                name="accounts_rolegrant_one_scope",
                violation_error_message="A role is granted on a club or on a tournament: "
                "give exactly one of the two.",
            ),
            models.UniqueConstraint(
                fields=["user", "role", "club"],
                condition=models.Q(club__isnull=False),
                name="accounts_rolegrant_once_per_club",
                violation_error_message="This user already holds this role in this club.",
            ),
            models.UniqueConstraint(
                fields=["user", "role", "tournament_id"],
                condition=models.Q(tournament_id__isnull=False),
                name="accounts_rolegrant_once_per_tournament",
                violation_error_message="This user already holds this role in this tournament.",
            ),
        ]

    def __str__(self) -> str:
        if self.club_id:
            return _("%(user)s is %(role)s in club %(club)s") % {
                "user": self.user,
                "role": self.get_role_display().lower(),
                "club": self.club,
            }
        return _("%(user)s is %(role)s in tournament %(tournament)s") % {
            "user": self.user,
            "role": self.get_role_display().lower(),
            "tournament": self.tournament_id,
        }


class DeviceTokenState(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("token state", "Active")
    EXPIRED = "expired", pgettext_lazy("token state", "Expired")
    REVOKED = "revoked", pgettext_lazy("token state", "Revoked")


class DeviceToken(models.Model):
    """The key one device (a scorer's tablet at a table) signs in with, for a limited time.

    Only the key's SHA-256 is stored (`accounts.keys`); the key itself is shown once, when the
    token is created. `tournament_id` and `tables` narrow what the device may score (enforced by
    the API's permissions, decision 0013); empty means no narrowing beyond the user's roles.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="device_tokens",
        help_text="The scorer who signs in with this device.",
    )
    name = models.CharField(max_length=64, help_text="The device, e.g. 'tablet at table 3'.")
    prefix = models.CharField(
        max_length=16, db_index=True, help_text="The key's first characters, to recognise it."
    )
    key_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The organizer who issued it.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(
        null=True, blank=True, help_text="Updated at most once a minute."
    )
    tournament_id = models.UUIDField(
        null=True, blank=True, help_text="Only this tournament (its id), when set."
    )
    tables = ArrayField(
        models.PositiveSmallIntegerField(),
        default=list,
        blank=True,
        help_text="Only these tables of the tournament, when set.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def state_at(self, moment: datetime) -> DeviceTokenState:
        if self.revoked_at is not None:
            return DeviceTokenState.REVOKED
        if self.expires_at <= moment:
            return DeviceTokenState.EXPIRED
        return DeviceTokenState.ACTIVE
