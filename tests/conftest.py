import pytest
from django.core.cache import cache
from rest_framework.test import APIClient


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Every test starts with an empty cache (this process's memory, config/settings/test.py):
    throttles and lockouts count failed sign-ins there, and no test may inherit another's."""
    cache.clear()
