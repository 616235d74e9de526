from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = gettext_lazy("Accounts")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from accounts import organizers, signals

        signals.connect()
        # After every app's permissions exist (they are made on post_migrate too, earlier).
        post_migrate.connect(organizers.sync_organizers_group, dispatch_uid="organizers-group")
