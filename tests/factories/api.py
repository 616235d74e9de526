"""Creating through the JSON API, as a client does."""

from typing import Any

from rest_framework.test import APIClient

API = "/api/v1"


def created_by(client: APIClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST `body` to the API's `path` as `client`; the answer, which must be a 201."""
    response = client.post(f"{API}{path}", body, format="json")
    assert response.status_code == 201, response.json()
    answer: dict[str, Any] = response.json()
    return answer
