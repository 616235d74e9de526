from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class EventStoreConfig(AppConfig):
    name = "games.eventstore"
    label = "eventstore"
    verbose_name = gettext_lazy("Event store")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.eventstore import checks  # noqa: F401  (registers the checks)
