from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = gettext_lazy("Games")

    def ready(self) -> None:
        # Before anything reads the log: the match stream's upcasters, in this one place.
        # MatchCreated 1 named its sides, 2 refers to them.
        from games.eventstore.api import register_upcasters
        from games.matches.projections import MATCH_STREAM
        from games.matches.stream.events import MatchCreated, match_created_v1_to_v2

        register_upcasters(
            stream_type=MATCH_STREAM, by_type={(MatchCreated.type, 1): match_created_v1_to_v2}
        )
