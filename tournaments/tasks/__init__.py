"""Celery tasks, thin and acknowledged late: `running` (the log's consumer, scheduling, the
no-show sweep and beat's catch-up) and `publishing` (sending a task after a commit without
waiting on the broker). The worker imports the task modules through `CELERY_IMPORTS`
(config/settings/base.py); nothing is re-exported here.
"""
