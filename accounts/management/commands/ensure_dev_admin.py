from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the local superuser admin/admin (development only; refuses when DEBUG is off)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("ensure_dev_admin only runs with DEBUG on (development).")
        user_model = get_user_model()
        if user_model.objects.filter(username="admin").exists():
            return
        user_model.objects.create_superuser(username="admin", email="", password="admin")  # noqa: S106 - DEBUG-only development login
        self.stdout.write("Created the development superuser admin / admin.")
