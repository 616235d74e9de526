"""Real Celery workers for the task tests: the shared fixtures of tests/workers.py."""

from tests.workers import start_worker, worker

__all__ = ["start_worker", "worker"]
