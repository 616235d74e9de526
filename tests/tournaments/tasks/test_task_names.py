"""The tasks a worker knows by name: the modules moved (issue 28), the Celery names did not, since
beat's schedule in the database and messages already queued refer to them."""

import importlib

from django.conf import settings

from config.celery import app
from tournaments.tasks import running
from tournaments.webhooks import tasks as webhook_tasks

NAMES_IN_USE = {
    "tournaments.tasks.consume_log",
    "tournaments.tasks.schedule_ready_matches",
    "tournaments.tasks.forfeit_no_show",
    "tournaments.tasks.catch_up",
    "tournaments.webhooks.fan_out",
    "tournaments.webhooks.deliver",
    "tournaments.webhooks.catch_up",
}
"""Every name beat schedules or the code sends, as queued messages and beat's table carry it."""


def project_tasks() -> dict[str, str]:
    """The project's tasks the worker's app registers (Celery's own aside), by name, with the
    module that defines each, once the app has imported what a worker imports."""
    app.loader.import_default_modules()
    return {
        name: task.run.__module__
        for name, task in app.tasks.items()
        if not name.startswith("celery.")
    }


def test_every_task_beat_schedules_is_registered_in_the_celery_app() -> None:
    registered = project_tasks()

    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    assert scheduled
    assert scheduled <= set(registered)


def test_every_task_the_code_sends_keeps_its_name_and_is_registered() -> None:
    sent = {
        running.consume_log.name,
        running.schedule_ready_matches.name,
        running.forfeit_queued_no_show.name,
        running.catch_up.name,
        webhook_tasks.fan_out_webhooks.name,
        webhook_tasks.deliver_webhook.name,
        webhook_tasks.catch_up_webhooks.name,
        webhook_tasks.CONSUMER_TASK,
    }

    assert sent == NAMES_IN_USE
    assert set(project_tasks()) == NAMES_IN_USE


def test_the_worker_imports_every_module_that_defines_a_task() -> None:
    defining = set(project_tasks().values())

    assert defining == set(settings.CELERY_IMPORTS)
    for module in settings.CELERY_IMPORTS:
        importlib.import_module(module)
