from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = gettext_lazy("Tournaments")

    def ready(self) -> None:
        self.load_celery_app()
        # Before anything reads the log: the tournament stream's upcasters, in this one place.
        from games.eventstore.api import register_upcasters
        from tournaments.services.pipeline import TOURNAMENT_STREAM
        from tournaments.stream.upcasters import UPCASTERS

        register_upcasters(stream_type=TOURNAMENT_STREAM, by_type=UPCASTERS)

        # Wired here because games must not import tournaments (docs/decisions/0009).
        from games.access import register_place_resolver
        from games.match_sections import register_match_section
        from games.matches.rebuilding import SharedFold, SharingProjector, register_shared_fold
        from games.side_names import register_side_namer
        from games.signals import match_events_appended
        from tournaments import signals
        from tournaments.pages import decisions as decision_pages
        from tournaments.pages import ratings as rating_pages
        from tournaments.projections import consumer, folded_log, rebuild
        from tournaments.ratings import projection as ratings
        from tournaments.selectors import access
        from tournaments.selectors.side_names import match_side_names, matches_with_entrant_named
        from tournaments.tasks import running

        register_place_resolver("tournament", access.fixture_place)
        register_match_section("decision", decision_pages.match_decision_section)
        register_match_section("ratings", rating_pages.match_ratings_section)

        # One read and fold of the tournament streams for all three (decision record 0066).
        register_shared_fold(
            SharedFold(
                name="tournament streams",
                fold=folded_log.fold_tournament_log,
                projectors=(
                    SharingProjector(
                        "tournament rows", rebuild=rebuild.rebuild_rows, verify=rebuild.verify_rows
                    ),
                    SharingProjector(
                        "tournament", rebuild=consumer.rebuild_views, verify=consumer.verify_views
                    ),
                    SharingProjector(
                        "ratings", rebuild=ratings.rebuild_ratings, verify=ratings.verify_ratings
                    ),
                ),
            )
        )
        register_side_namer(
            "tournament",
            names=match_side_names,
            search=matches_with_entrant_named,
        )
        match_events_appended.connect(
            running.consume_log_after_match_events, dispatch_uid="tournaments.consume_log"
        )
        signals.tournament_events_appended.connect(
            running.after_tournament_events, dispatch_uid="tournaments.after_tournament_events"
        )
        self.connect_webhooks()
        self.register_admins()

    def register_admins(self) -> None:
        """The admin's modules register their model admins when imported; its package re-exports
        nothing and imports none of them (decision records 0062 and 0065)."""
        import tournaments.admin.entrants
        import tournaments.admin.fixtures
        import tournaments.admin.players
        import tournaments.admin.ratings
        import tournaments.admin.seasons
        import tournaments.admin.tournaments
        import tournaments.admin.webhooks  # noqa: F401 - imported for its registrations

    def load_celery_app(self) -> None:
        """The project's one Celery app becomes the current app before any task is declared
        (`config/__init__.py` imports nothing: decision 0065)."""
        import config.celery  # noqa: F401 - imported for what importing does

    def connect_webhooks(self) -> None:
        """The webhooks' fan-out runs after the tournament consumer (docs/decisions/0039)."""
        from celery.signals import task_postrun

        from tournaments.webhooks import tasks as webhook_tasks
        from tournaments.webhooks.services import deliveries_due

        task_postrun.connect(
            webhook_tasks.after_consumer_run, dispatch_uid="tournaments.webhooks.after_consumer"
        )
        deliveries_due.connect(
            webhook_tasks.deliver_when_due, dispatch_uid="tournaments.webhooks.deliveries_due"
        )
