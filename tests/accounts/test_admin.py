"""Clubs, roles and device tokens in the admin: added through the services, revoked by actions,
a device token's key shown once."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import Club, DeviceToken, Role, RoleGrant, User
from accounts.selectors import device_token_by_key
from tests.factories.accounts import TOURNAMENT, ClubFactory, UserFactory, device_token_issued

pytestmark = pytest.mark.django_db


def messages_of(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def act(client: Client, model: str, action: str, selected: list[object]) -> Any:
    return client.post(
        reverse(f"admin:accounts_{model}_changelist"),
        {"action": action, "_selected_action": [str(pk) for pk in selected]},
        follow=True,
    )


# Clubs.


def test_the_club_add_form_creates_the_club_through_the_service(admin_client: Client) -> None:
    response = admin_client.post(
        reverse("admin:accounts_club_add"), {"name": "Circolo Trastevere", "slug": ""}, follow=True
    )

    club = Club.objects.get()
    assert club.slug == "circolo-trastevere"
    assert response.redirect_chain[-1][0] == reverse("admin:accounts_club_change", args=[club.pk])
    assert messages_of(response) == ["Club Circolo Trastevere (circolo-trastevere) was added."]


def test_the_club_add_form_shows_what_the_service_refuses(admin_client: Client) -> None:
    ClubFactory.create(name="Trastevere", slug="roma")

    response = admin_client.post(
        reverse("admin:accounts_club_add"), {"name": "Testaccio", "slug": "roma"}
    )

    assert response.status_code == 200
    assert "there is already a club &#x27;roma&#x27;" in response.content.decode()
    assert Club.objects.count() == 1


def test_a_clubs_page_lists_its_roles_read_only(admin_client: Client) -> None:
    club = ClubFactory.create()
    services.role_grant(user=UserFactory.create(username="maria"), role=Role.ORGANIZER, club=club)

    page = admin_client.get(reverse("admin:accounts_club_change", args=[club.pk]))

    assert page.status_code == 200
    assert "maria" in page.content.decode()
    assert not page.context["has_change_permission"]


# Roles.


def test_the_role_add_form_grants_through_the_service(
    admin_client: Client, admin_user: User
) -> None:
    scorer = UserFactory.create(username="scorer")

    response = admin_client.post(
        reverse("admin:accounts_rolegrant_add"),
        {"user": scorer.pk, "role": "scorer", "club": "", "tournament_id": str(TOURNAMENT)},
        follow=True,
    )

    grant = RoleGrant.objects.get()
    assert (grant.user, grant.role, grant.tournament_id) == (scorer, "scorer", TOURNAMENT)
    assert grant.granted_by == admin_user
    assert messages_of(response) == [f"Granted: scorer is scorer in tournament {TOURNAMENT}."]


def test_the_role_add_form_assigns_a_scorer_to_tables(admin_client: Client) -> None:
    scorer = UserFactory.create(username="scorer")
    form = {"user": scorer.pk, "role": "scorer", "club": "", "tournament_id": str(TOURNAMENT)}

    admin_client.post(reverse("admin:accounts_rolegrant_add"), {**form, "tables": "4,3"})

    assert RoleGrant.objects.get().tables == [3, 4]


def test_the_role_add_form_refuses_tables_for_an_organizer(admin_client: Client) -> None:
    form = {
        "user": UserFactory.create(username="boss").pk,
        "role": "organizer",
        "club": "",
        "tournament_id": str(TOURNAMENT),
        "tables": "3",
    }

    response = admin_client.post(reverse("admin:accounts_rolegrant_add"), form)

    assert response.status_code == 200
    assert "tables are assigned to a scorer in one tournament" in response.content.decode()
    assert not RoleGrant.objects.exists()


@pytest.mark.parametrize("scopes", ["neither", "both"])
def test_the_role_add_form_needs_exactly_one_place(admin_client: Client, scopes: str) -> None:
    club = ClubFactory.create()
    form = {
        "user": UserFactory.create(username="scorer").pk,
        "role": "scorer",
        "club": club.pk if scopes == "both" else "",
        "tournament_id": str(TOURNAMENT) if scopes == "both" else "",
    }

    response = admin_client.post(reverse("admin:accounts_rolegrant_add"), form)

    assert response.status_code == 200
    assert "Give a club or a tournament id (one of the two)." in response.content.decode()
    assert not RoleGrant.objects.exists()


def test_the_revoke_action_revokes_the_selected_roles(admin_client: Client) -> None:
    user, club = UserFactory.create(username="scorer"), ClubFactory.create()
    kept = services.role_grant(user=user, role=Role.PLAYER, club=club)
    gone = services.role_grant(user=user, role=Role.SCORER, club=club)

    response = act(admin_client, "rolegrant", "revoke_roles", [gone.pk])

    assert messages_of(response) == ["Revoked 1 role(s)."]
    assert list(RoleGrant.objects.all()) == [kept]


def test_role_grants_are_not_edited_or_deleted_in_place(admin_client: Client) -> None:
    grant = services.role_grant(
        user=UserFactory.create(username="scorer"), role=Role.PLAYER, tournament_id=TOURNAMENT
    )

    page = admin_client.get(reverse("admin:accounts_rolegrant_change", args=[grant.pk]))
    delete = admin_client.get(reverse("admin:accounts_rolegrant_delete", args=[grant.pk]))

    assert not page.context["has_change_permission"]
    assert delete.status_code == 403


# Device tokens.

TOKEN_FORM = {
    "device": "tablet at table 3",
    "expires_in_hours": "12",
    "tournament_id": str(TOURNAMENT),
    "tables": "3, 4",
}


def add_device_token(client: Client, **changes: Any) -> Any:
    form = {"user": UserFactory.create(username="scorer").pk, **TOKEN_FORM, **changes}
    return client.post(reverse("admin:accounts_devicetoken_add"), form, follow=True)


def test_the_device_token_add_form_proposes_the_default_lifetime(admin_client: Client) -> None:
    page = admin_client.get(reverse("admin:accounts_devicetoken_add"))

    assert page.status_code == 200
    assert page.context["adminform"].form.initial == {"expires_in_hours": 24}


def test_the_device_token_add_form_shows_the_key_once(
    admin_client: Client, admin_user: User
) -> None:
    response = add_device_token(admin_client)

    token = DeviceToken.objects.get()
    (message,) = messages_of(response)
    key = message.split("shown only this once: ")[1].split(" ")[0]
    assert device_token_by_key(key=key) == token
    assert message == (
        f"Device token tablet at table 3 ({token.prefix}…) created for scorer. Its key, shown "
        f"only this once: {key} — enter it on the device now."
    )
    assert (token.user.username, token.created_by) == ("scorer", admin_user)
    assert token.expires_at - token.created_at == timedelta(hours=12)
    assert (token.tournament_id, token.tables) == (TOURNAMENT, [3, 4])
    assert response.redirect_chain[-1][0] == reverse(
        "admin:accounts_devicetoken_change", args=[token.pk]
    )

    list_page = admin_client.get(reverse("admin:accounts_devicetoken_changelist"))
    assert token.prefix in list_page.content.decode()
    for page in (
        list_page,
        admin_client.get(reverse("admin:accounts_devicetoken_change", args=[token.pk])),
        admin_client.get(reverse("admin:index")),  # recent actions name the new token
    ):
        assert page.status_code == 200
        assert key not in page.content.decode()
        assert token.key_hash not in page.content.decode()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tournament_id": "", "tables": "3"}, "give the tournament too"),
        ({"expires_in_hours": "0"}, "greater than or equal to 1"),
        ({"expires_in_hours": "1000"}, "a token lasts at most 31 days"),
        ({"tables": "3, x"}, "Item 2 in the array did not validate"),
        ({"device": "   "}, "This field is required."),
    ],
)
def test_the_device_token_add_form_refuses_what_the_service_would(
    admin_client: Client, changes: dict[str, str], message: str
) -> None:
    response = add_device_token(admin_client, **changes)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not DeviceToken.objects.exists()


def test_the_revoke_action_revokes_the_selected_device_tokens(admin_client: Client) -> None:
    scorer = UserFactory.create(username="scorer")
    gone, _key = device_token_issued(scorer)
    kept, _key = device_token_issued(scorer, device="tablet at table 4")

    response = act(admin_client, "devicetoken", "revoke_tokens", [gone.pk])

    gone.refresh_from_db()
    kept.refresh_from_db()
    assert messages_of(response) == ["Revoked 1 device token(s)."]
    assert gone.revoked_at is not None
    assert kept.revoked_at is None


def test_the_device_token_list_shows_state_expiry_and_last_use(admin_client: Client) -> None:
    scorer = UserFactory.create(username="scorer")
    active, _key = device_token_issued(scorer, device="active tablet")
    services.device_token_mark_used(token=active)
    revoked, _key = device_token_issued(scorer, device="revoked tablet")
    services.device_token_revoke(token=revoked)
    expired, _key = device_token_issued(scorer, device="expired tablet")
    DeviceToken.objects.filter(pk=expired.pk).update(expires_at=timezone.now())

    page = admin_client.get(reverse("admin:accounts_devicetoken_changelist"))
    rows = {row.name: row for row in page.context["cl"].result_list}
    admin_page = page.context["cl"].model_admin

    assert {name: admin_page.state(row) for name, row in rows.items()} == {
        "active tablet": "Active",
        "expired tablet": "Expired",
        "revoked tablet": "Revoked",
    }
    assert rows["active tablet"].last_used_at is not None
    assert "Last used at" in page.content.decode()
    assert "Expires at" in page.content.decode()


@pytest.mark.parametrize(
    ("state", "names"),
    [("active", ["active"]), ("expired", ["expired"]), ("revoked", ["revoked"])],
)
def test_the_device_token_list_filters_by_state(
    admin_client: Client, state: str, names: list[str]
) -> None:
    scorer = UserFactory.create(username="scorer")
    device_token_issued(scorer, device="active")
    revoked, _key = device_token_issued(scorer, device="revoked")
    services.device_token_revoke(token=revoked)
    expired, _key = device_token_issued(scorer, device="expired")
    DeviceToken.objects.filter(pk=expired.pk).update(expires_at=timezone.now())

    page = admin_client.get(reverse("admin:accounts_devicetoken_changelist"), {"state": state})

    assert [token.name for token in page.context["cl"].result_list] == names


def test_device_tokens_are_not_edited_or_deleted_in_place(admin_client: Client) -> None:
    token, _key = device_token_issued()

    page = admin_client.get(reverse("admin:accounts_devicetoken_change", args=[token.pk]))
    delete = admin_client.get(reverse("admin:accounts_devicetoken_delete", args=[token.pk]))

    assert not page.context["has_change_permission"]
    assert delete.status_code == 403
