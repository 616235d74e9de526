"""Tournaments: ordinary tables for names and resources, projections for everything derived.

Tournament facts are events on the tournament's stream (`games.eventstore`, stream type
"tournament"); events carry ids only. Names (entrants, players) live here so they can be erased
without touching an event. Brackets and standings are projections rebuilt from the log.

The app's models, one module per concern: `core` (tournaments, players, entrants, tables,
fixtures, views, checkpoints), `seasons`, `webhooks` and `ratings`. Django finds them here.
"""

from tournaments.models.core import (
    Checkpoint,
    DecidedBy,
    Entrant,
    EntrantPlayer,
    Fixture,
    FixtureStatus,
    Format,
    Player,
    Table,
    Tournament,
    TournamentStatus,
    TournamentView,
)
from tournaments.models.ratings import ClubRatingSettings, PlayerRating, RatingChange
from tournaments.models.seasons import Season, SeasonTournament
from tournaments.models.signup import Application, PlayerKey
from tournaments.models.webhooks import DeliveryStatus, WebhookDelivery, WebhookEndpoint

__all__ = [
    "Application",
    "Checkpoint",
    "ClubRatingSettings",
    "DecidedBy",
    "DeliveryStatus",
    "Entrant",
    "EntrantPlayer",
    "Fixture",
    "FixtureStatus",
    "Format",
    "Player",
    "PlayerKey",
    "PlayerRating",
    "RatingChange",
    "Season",
    "SeasonTournament",
    "Table",
    "Tournament",
    "TournamentStatus",
    "TournamentView",
    "WebhookDelivery",
    "WebhookEndpoint",
]
