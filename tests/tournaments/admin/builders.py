"""Posting to the admin as the organizer does: actions on selected rows, the add form."""

from typing import Any

from django.test import Client
from django.urls import reverse


def act(
    client: Client, model: str, action: str, selected: list[object], **fields: Any
) -> tuple[Any, list[str]]:
    """Post an admin action on the selected rows: its response, and the messages the organizer
    reads on the page it leads to (reading them there uses them up)."""
    url = reverse(f"admin:{model}_changelist")
    data = {"action": action, "_selected_action": [str(pk) for pk in selected], **fields}
    response = client.post(url, data)
    page = client.get(response["Location"]) if response.status_code == 302 else response
    return response, [str(message) for message in page.context["messages"]]


TOURNAMENT_FORM = {
    "name": "Coppa di primavera",
    "public": "on",
    "format": "swiss",
    "table_size": "4",
    "scoring": "rounds",
    "best_of": "3",
    "swiss_rounds": "5",
    "advance_per_group": "2",
    "tables": "6",
    "no_show_minutes": "15",
    "automatic_rounds": "on",
    "grand_final_reset": "on",
    "level_knockout": "higher_seed",
}


def add_tournament(client: Client, **changes: Any) -> Any:
    return client.post(reverse("admin:tournaments_tournament_add"), TOURNAMENT_FORM | changes)
