"""The Celery application; tasks are discovered in the installed apps."""

import os

from celery import Celery
from celery.signals import before_task_publish, task_prerun

from config.observability import add_request_id_to_task, adopt_task_request_id

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("briscola")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

before_task_publish.connect(add_request_id_to_task, weak=False)
task_prerun.connect(adopt_task_request_id, weak=False)
