"""What the tournaments app loads when Django starts, now that package `__init__` files import
nothing: the project's Celery app and the console's pages."""

from celery import current_app
from django.contrib import admin

from config.celery import app
from tournaments.models import Entrant, Fixture, Player, Season, Tournament, WebhookEndpoint


def test_the_projects_celery_app_is_the_current_one_and_knows_the_tournament_tasks() -> None:
    assert current_app.tasks is app.tasks
    assert "tournaments.tasks.consume_log" in app.tasks
    assert "tournaments.webhooks.deliver" in app.tasks


def test_every_console_page_is_registered_with_the_admin_site() -> None:
    for model in (Tournament, Entrant, Fixture, Player, Season, WebhookEndpoint):
        assert admin.site.is_registered(model), model
