from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = gettext_lazy("Games")

    def ready(self) -> None:
        # Before anything reads the log: MatchCreated 1 named its sides, 2 refers to them.
        from games.eventstore.api import register_upcaster
        from games.eventstore.upcasters import upcasters
        from games.matches.stream import MatchCreated, match_created_v1_to_v2

        if not upcasters.applies_to(event_type=MatchCreated.type, schema_version=1):
            register_upcaster(
                event_type=MatchCreated.type, from_version=1, upcaster=match_created_v1_to_v2
            )
