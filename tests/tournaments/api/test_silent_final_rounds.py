"""Silent final rounds (decision record 0060): a Swiss's last rounds whose results and standings
only its organizers read until they reveal them; through the API, the feeds, the webhooks and
the pages, before and after the reveal."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Role, User
from games.eventstore.api import last_position, read_stream
from tests.event_streams import streamed_events
from tests.factories.accounts import ClubFactory, UserFactory, token_client
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.admin.builders import TOURNAMENT_FORM, add_tournament
from tests.tournaments.api.builders import (
    home_wins,
    matches,
    play_round,
    started_tournament,
    tournament_url,
)
from tests.tournaments.builders import open_fixtures, play
from tournaments.models import PlayerRating, Tournament, WebhookDelivery
from tournaments.projections import consumer
from tournaments.ratings import projection as rating_projection
from tournaments.services import running
from tournaments.state import Registration
from tournaments.webhooks.fanout import fan_out
from tournaments.webhooks.services import webhook_register

pytestmark = pytest.mark.django_db

SILENT = {"format": "swiss", "swiss_rounds": 2, "silent_final_rounds": 1}


def away_wins(match: dict[str, Any]) -> int:
    winner: int = match["entrants"][1]
    return winner


@pytest.fixture
def played(organizer: APIClient) -> str:
    """A Swiss of four over two rounds, the second silent, both played: its id."""
    tournament_id, _ = started_tournament(organizer, 4, **SILENT)
    play_round(organizer, tournament_id, home_wins)
    play_round(organizer, tournament_id, away_wins)
    return tournament_id


def reveal(client: APIClient, tournament_id: str) -> Any:
    return post(client, tournament_url(tournament_id, "reveal"))


def played_counts(client: APIClient, tournament_id: str) -> set[int]:
    response = client.get(tournament_url(tournament_id, "standings"))
    assert response.status_code == 200, response.json()
    return {row["played"] for row in response.json()}


def silent_match(client: APIClient, tournament_id: str) -> dict[str, Any]:
    return matches(client, tournament_id, round=2)[0]


def feed_of(client: APIClient, tournament_id: str, **headers: Any) -> list[Any]:
    return streamed_events(client.get(tournament_url(tournament_id, "events/stream"), **headers))


def test_the_public_reads_the_standings_before_the_silent_round_and_the_organizer_all(
    played: str, organizer: APIClient, anonymous: APIClient
) -> None:
    public = anonymous.get(tournament_url(played, "standings"))
    tournament = anonymous.get(tournament_url(played)).json()

    assert played_counts(anonymous, played) == {1}
    assert public["Results-Hidden"] == "after-round=1"
    assert tournament["results_hidden"] is True
    assert tournament["standings_after_round"] == 1
    assert tournament["silent_final_rounds"] == 1
    assert played_counts(organizer, played) == {2}
    assert "Results-Hidden" not in organizer.get(tournament_url(played, "standings"))


def test_the_silent_round_is_paired_in_public_without_its_results(
    played: str, organizer: APIClient, anonymous: APIClient
) -> None:
    public = {m["key"]: m for m in matches(anonymous, played)}
    full = {m["key"]: m for m in matches(organizer, played)}

    assert {m["entrants"][0] for m in public.values()} == {m["entrants"][0] for m in full.values()}
    for key, match in full.items():
        shown = public[key]
        if match["round"] == 1:
            assert shown["winner"] == match["winner"] is not None
        else:
            assert match["winner"] is not None
            assert shown["winner"] is None
            assert shown["winner_name"] is None


def test_a_silent_match_and_its_events_are_the_organizers_until_the_reveal(
    played: str, organizer: APIClient, anonymous: APIClient
) -> None:
    match = f"/api/v1/matches/{silent_match(organizer, played)['id']}/"
    paths = [match, f"{match}rounds/1/", f"{match}rounds/1/replay/", f"{match}events/stream/"]

    refused = [anonymous.get(path) for path in paths]
    assert {r.status_code for r in refused} == {403}
    assert {r.json()["code"] for r in refused} == {"results_hidden"}
    assert {organizer.get(path).status_code for path in paths} == {200}

    created(reveal(organizer, played))

    assert {anonymous.get(path).status_code for path in paths} == {200}


def test_the_feed_withholds_the_silent_round_from_the_public_and_catches_up_after_the_reveal(
    played: str, organizer: APIClient, anonymous: APIClient
) -> None:
    silent = {m["id"] for m in matches(organizer, played, round=2)}
    everything = feed_of(organizer, played)
    first_silent = next(e.id for e in everything if e.data["stream_id"] in silent)
    resumed = {"HTTP_LAST_EVENT_ID": str(first_silent - 1)}

    public = feed_of(anonymous, played)
    public_resumed = feed_of(anonymous, played, **resumed)

    assert not {e.data["stream_id"] for e in public + public_resumed} & silent
    assert len(public) < len(everything)
    assert all(e.id > first_silent - 1 for e in public_resumed)
    assert feed_of(organizer, played, **resumed)[0].id == first_silent

    created(reveal(organizer, played))
    after = feed_of(anonymous, played, **resumed)

    assert after[0].id == first_silent
    assert after[-1].event == "ResultsRevealed"
    assert played_counts(anonymous, played) == {2}


def test_webhooks_get_no_silent_result_and_one_delivery_of_the_reveal(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 4, **SILENT)
    user = User.objects.get(username="organizer")
    endpoint, _ = webhook_register(
        tournament_id=UUID(tournament_id), url="https://hooks.example.org/briscola", user=user
    )
    play_round(organizer, tournament_id, home_wins)
    play_round(organizer, tournament_id, away_wins)
    silent = {m["id"] for m in matches(organizer, tournament_id, round=2)}
    first = {m["id"] for m in matches(organizer, tournament_id, round=1)}
    fan_out()
    delivered = {str(s) for s in endpoint.deliveries.values_list("stream_id", flat=True)}

    assert first <= delivered
    assert not delivered & silent

    created(reveal(organizer, tournament_id))
    fan_out()
    types = list(endpoint.deliveries.order_by("position").values_list("event_type", flat=True))

    assert types[-1] == "ResultsRevealed"
    assert not WebhookDelivery.objects.filter(endpoint=endpoint, stream_id__in=silent).exists()


def test_only_the_tournament_s_organizers_reveal_and_only_once(
    played: str, organizer: APIClient, anonymous: APIClient
) -> None:
    other = UserFactory.create(username="other-organizer")
    services.role_grant(user=other, role=Role.ORGANIZER, club=ClubFactory.create(name="Altro"))
    player = token_client(UserFactory.create(username="a-player"))

    private, _ = started_tournament(organizer, 4, public=False, **SILENT)
    stranger = token_client(other)

    assert reveal(anonymous, played).status_code == 401
    assert reveal(stranger, played).status_code == 403
    assert reveal(stranger, private).status_code == 404
    assert reveal(player, played).status_code == 403
    assert created(reveal(organizer, played))["results_hidden"] is False
    again = reveal(organizer, played)
    assert again.status_code == 422
    assert again.json()["code"] == "nothing_to_reveal"


def test_the_pages_mark_the_hidden_results_and_the_projector_says_they_are_to_be_revealed(
    played: str, anonymous: APIClient
) -> None:
    page = anonymous.get(f"/tournaments/{played}/").content.decode()
    screen = anonymous.get(f"/tournaments/{played}/screen/").content.decode()
    signed_in = APIClient()
    signed_in.force_login(User.objects.get(username="organizer"))
    organizers = signed_in.get(f"/tournaments/{played}/").content.decode()

    assert 'data-results-hidden="1"' in page
    assert "Results to be revealed" in screen
    assert "data-results-hidden" not in organizers


def test_the_rebuild_keeps_the_public_view_and_the_row(played: str, anonymous: APIClient) -> None:
    before = anonymous.get(tournament_url(played, "standings")).json()

    consumer.rebuild_views()

    assert anonymous.get(tournament_url(played, "standings")).json() == before
    assert Tournament.objects.get(id=played).silent_from_round == 2
    assert consumer.verify_views() == []


def test_a_silent_tournaments_view_reads_its_fixture_rows_once(played: str) -> None:
    with CaptureQueriesContext(connection) as queries:
        consumer.project_tournament(UUID(played), position=last_position())

    fixture_reads = [q for q in queries if 'FROM "tournaments_fixture"' in q["sql"]]
    assert len(fixture_reads) == 1  # for the view and the public view alike
    assert consumer.verify_views() == []


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ({"format": "swiss", "swiss_rounds": 2, "silent_final_rounds": 3}, "0 to 2"),
        ({"format": "round_robin", "silent_final_rounds": 1}, "Swiss"),
    ],
)
def test_silent_rounds_are_a_swiss_s_last_rounds_at_most_all_of_them(
    organizer: APIClient, fields: dict[str, Any], detail: str
) -> None:
    body = {"name": "Serata", "table_size": 2, "best_of": 1, **fields}
    response = post(organizer, "/api/v1/tournaments/", body)

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_format_option"
    assert detail in response.json()["detail"]


def test_the_console_creates_silent_rounds_and_reveals_them(
    admin_client: Client, played: str
) -> None:
    add_tournament(admin_client, silent_final_rounds="2")
    tournament = Tournament.objects.get(name=TOURNAMENT_FORM["name"])
    assert tournament.settings["silent_final_rounds"] == 2
    url = reverse("admin:tournaments_tournament_run", args=[played, "reveal_results"])

    admin_client.post(url)

    assert read_stream(stream_id=UUID(played))[-1].event_type == "ResultsRevealed"


def test_the_ratings_count_the_silent_round_only_after_the_reveal(
    played: str, organizer: APIClient
) -> None:
    rating_projection.consume()
    before = PlayerRating.objects.filter(club__isnull=True).aggregate(Sum("matches"))

    created(reveal(organizer, played))
    rating_projection.consume()
    after = PlayerRating.objects.filter(club__isnull=True).aggregate(Sum("matches"))

    assert (before["matches__sum"], after["matches__sum"]) == (4, 8)
    assert rating_projection.verify_ratings() == []


def test_before_the_silent_round_is_paired_nothing_is_marked_missing(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, _ = started_tournament(organizer, 4, **SILENT)
    consumer.consume()

    standings = anonymous.get(tournament_url(tournament_id, "standings"))
    page = anonymous.get(f"/tournaments/{tournament_id}/screen/").content.decode()

    assert anonymous.get(tournament_url(tournament_id)).json()["results_hidden"] is True
    assert "Results-Hidden" not in standings
    assert "Results to be revealed" not in page


def test_the_results_cannot_be_revealed_before_a_silent_round_is_drawn(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, _ = started_tournament(organizer, 4, **SILENT)
    before = last_position()

    early = reveal(organizer, tournament_id)
    recorded = last_position() != before
    play_round(organizer, tournament_id, home_wins)  # the silent round 2 is drawn
    consumer.consume()

    assert early.status_code == 422
    assert early.json()["code"] == "nothing_to_reveal"
    assert recorded is False
    assert anonymous.get(tournament_url(tournament_id)).json()["results_hidden"] is True
    assert created(reveal(organizer, tournament_id))["results_hidden"] is False


def test_a_scorer_of_the_tournament_still_reads_the_silent_match_but_not_the_standings(
    played: str, organizer: APIClient
) -> None:
    scorer = UserFactory.create(username="silent-scorer")
    services.role_grant(user=scorer, role=Role.SCORER, tournament_id=UUID(played))
    match = silent_match(organizer, played)

    client = token_client(scorer)

    assert client.get(f"/api/v1/matches/{match['id']}/").status_code == 200
    assert played_counts(client, played) == {1}


def test_a_player_reads_their_own_silent_result_on_their_page_and_the_public_place() -> None:
    tournament = TournamentFactory.create(
        format="swiss",
        swiss_rounds=1,
        silent_final_rounds=1,
        entrants=0,
        signed_up=("Rossi", "Bianchi"),
        registration=Registration(open=True),
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    [fixture] = open_fixtures(tournament.id)
    play(fixture.match_id, winner=1)  # the away side, seeded second: first once revealed
    consumer.consume()
    public = APIClient().get(tournament_url(tournament.id, "standings")).json()

    pages = []
    for name in ("Rossi", "Bianchi"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {tournament.player_keys[name]}")  # type: ignore[attr-defined]
        pages.append(client.get("/api/v1/me/").json())

    assert sorted(page["results"][0]["outcome"] for page in pages) == ["lost", "won"]
    ranks = {row["entrant"]: row["rank"] for row in public}
    assert [page["place"] for page in pages] == [ranks[page["entry"]["entrant"]] for page in pages]
    assert {row["played"] for row in public} == {0}
