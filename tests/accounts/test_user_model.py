import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_project_uses_its_own_user_model() -> None:
    assert get_user_model() is User


@override_settings(DEBUG=True)
def test_ensure_dev_admin_creates_the_superuser_once() -> None:
    call_command("ensure_dev_admin")
    call_command("ensure_dev_admin")

    admin = User.objects.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password("admin")
    assert User.objects.count() == 1


@override_settings(DEBUG=False)
def test_ensure_dev_admin_refuses_outside_development() -> None:
    with pytest.raises(CommandError):
        call_command("ensure_dev_admin")

    assert not User.objects.exists()
