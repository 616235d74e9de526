"""Real Celery workers for the page tests that follow results (tests/workers.py)."""

from tests.workers import start_worker, worker

__all__ = ["start_worker", "worker"]
