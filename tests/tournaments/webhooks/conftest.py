"""Real Celery workers for the webhooks' task tests: the shared fixtures of tests/workers.py."""

from tests.workers import fresh_publishing, private_redis, start_worker, worker

__all__ = ["fresh_publishing", "private_redis", "start_worker", "worker"]
