"""The staff permissions of an organizer, given by one group (decision record 0040).

Whoever holds an organizer role somewhere is staff and a member of the group `organizers`, and
nobody hands out model permissions by hand: `role_grant` and `role_revoke` keep the membership
in line with the roles, and every `migrate` keeps the group's permissions in line with
`ORGANIZER_PERMISSIONS`. The permissions say which pages of the console an organizer opens; the
console itself shows only the rows of the clubs and tournaments they organize
(`common.admin.OrganizerScopedAdmin`). Accounts, groups, idempotency keys and periodic tasks are
not an organizer's: superusers keep them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db.models import Q

from accounts.models import Role, RoleGrant, User

ORGANIZERS_GROUP = "organizers"

ORGANIZER_PERMISSIONS: tuple[str, ...] = (
    "accounts.view_club",
    "accounts.view_rolegrant",
    "accounts.add_rolegrant",
    "accounts.change_rolegrant",
    "accounts.view_devicetoken",
    "accounts.add_devicetoken",
    "accounts.change_devicetoken",
    "eventstore.view_event",
    "games.view_match",
    "games.change_match",
    "games.view_round",
    "tournaments.view_tournament",
    "tournaments.add_tournament",
    "tournaments.change_tournament",
    "tournaments.view_entrant",
    "tournaments.add_entrant",
    "tournaments.change_entrant",
    "tournaments.view_fixture",
    "tournaments.change_fixture",
    "tournaments.view_player",
    "tournaments.change_player",
    "tournaments.view_season",
    "tournaments.add_season",
    "tournaments.change_season",
    "tournaments.view_webhookendpoint",
    "tournaments.add_webhookendpoint",
    "tournaments.change_webhookendpoint",
    "tournaments.view_webhookdelivery",
    "tournaments.change_webhookdelivery",
    "tournaments.view_clubratingsettings",
    "tournaments.add_clubratingsettings",
    "tournaments.change_clubratingsettings",
)
"""`app_label.codename`: what an organizer's console opens (the change permissions run the
actions, which call services; nothing is deleted from the console)."""


def organizers_group() -> Group:
    """The group, its permissions those of `ORGANIZER_PERMISSIONS` (created when missing)."""
    group, _ = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
    wanted = Q()
    for name in ORGANIZER_PERMISSIONS:
        app_label, codename = name.split(".")
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.set(Permission.objects.filter(wanted))
    return group


def sync_organizers_group(**_kwargs: Any) -> None:
    """After `migrate` (post_migrate): the group as `ORGANIZER_PERMISSIONS` says."""
    organizers_group()


def sync_organizer_staff(user: User) -> None:
    """A user holding an organizer role anywhere is staff and in the group; one holding none is
    neither (a superuser stays staff)."""
    organizes = RoleGrant.objects.filter(user=user, role=Role.ORGANIZER).exists()
    group = organizers_group() if organizes else Group.objects.filter(name=ORGANIZERS_GROUP).first()
    if organizes:
        user.groups.add(group)  # type: ignore[arg-type]
    elif group is not None:
        user.groups.remove(group)
    staff = organizes or user.is_superuser
    if user.is_staff != staff:
        user.is_staff = staff
        user.save(update_fields=["is_staff"])
