from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Wired here because games must not import tournaments (docs/decisions/0009).
        from games.access import register_place_resolver
        from games.matches.rebuilding import register_projector
        from games.side_names import register_side_namer
        from games.signals import match_events_appended
        from tournaments import access, projections, rows, selectors, signals, tasks

        register_place_resolver("tournament", access.fixture_place)

        register_projector("tournament rows", rebuild=rows.rebuild_rows, verify=rows.verify_rows)
        register_projector(
            "tournament", rebuild=projections.rebuild_views, verify=projections.verify_views
        )
        register_side_namer(
            "tournament",
            names=selectors.match_side_names,
            search=selectors.matches_with_entrant_named,
        )
        match_events_appended.connect(
            tasks.consume_log_after_match_events, dispatch_uid="tournaments.consume_log"
        )
        signals.tournament_events_appended.connect(
            tasks.after_tournament_events, dispatch_uid="tournaments.after_tournament_events"
        )
