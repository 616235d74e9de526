from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    name = "games.eventstore"
    label = "eventstore"
    verbose_name = "Event store"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.eventstore import checks  # noqa: F401  (registers the checks)
