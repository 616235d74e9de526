"""The tournament's page is the organizer's evening, in order: each step says whether it is
done, to do now or for later, and offers as buttons the operations that can run now."""

import re
from datetime import timedelta
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from common.actors import Actor
from games.eventstore.api import read_stream
from games.matches import services as match_services
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import Entrant, Fixture
from tournaments.services import running, scheduling
from tournaments.services import running as tournament_running
from tournaments.services import scheduling as tournament_scheduling
from tournaments.tasks import running as running_tasks

pytestmark = pytest.mark.django_db

STEPS = ["registration", "check_in", "seeding", "start", "rounds", "finish"]


def page(client: Client, tournament_id: UUID) -> str:
    response = client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    assert response.status_code == 200
    return response.content.decode()


def steps(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-step="(\w+)" data-state="(\w+)"', html))


def buttons(html: str) -> list[str]:
    return re.findall(r'data-operation="(\w+)"', html)


def run(client: Client, tournament_id: UUID, operation: str, **fields: str) -> None:
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, operation])
    assert client.post(url, fields).status_code == 302


def test_before_the_start_the_evening_offers_check_in_seeding_and_the_start(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create().id

    html = page(admin_client, tournament_id)

    assert list(steps(html)) == STEPS
    assert steps(html) == {
        "registration": "now",
        "check_in": "now",
        "seeding": "now",
        "start": "now",
        "rounds": "later",
        "finish": "later",
    }
    assert buttons(html) == [
        "open_check_in",
        "close_check_in",
        "seed_given",
        "seed_random",
        "start",
        "start_checked_in",
    ]


def test_each_entrant_not_yet_here_has_its_own_check_in_button(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=3).id
    first = Entrant.objects.filter(tournament_id=tournament_id).order_by("seed").first()
    assert first is not None

    run(admin_client, tournament_id, "check_in_entrant", entrant=str(first.id))
    html = page(admin_client, tournament_id)

    waiting = {int(e) for e in re.findall(r'data-check-in="(\d+)"', html)}
    assert first.id not in waiting
    assert len(waiting) == 2
    first.refresh_from_db()
    assert first.checked_in is True
    assert "1 of 3 checked in" in html


def test_once_started_the_rounds_list_the_matches_with_their_tables_and_a_call_button(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=4, tables=1, no_show_minutes=10).id
    run(admin_client, tournament_id, "start")
    run(admin_client, tournament_id, "schedule")
    at_table = Fixture.objects.get(tournament_id=tournament_id, table=1)

    html = page(admin_client, tournament_id)
    called_buttons = re.findall(r'data-call="([0-9a-f-]+)"', html)
    run(admin_client, tournament_id, "call_match", match=str(at_table.match_id))
    after = page(admin_client, tournament_id)

    assert steps(html)["start"] == "done"
    assert steps(html)["rounds"] == "now"
    assert "schedule" in buttons(html)  # the second semi-final waits for a table
    assert called_buttons == [str(at_table.match_id)]
    assert re.findall(r'data-call="([0-9a-f-]+)"', after) == []
    assert [e.event_type for e in read_stream(stream_id=tournament_id)][-1] == "MatchCalled"


def test_overdue_and_disputed_matches_are_flagged_on_the_evening(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=4, tables=2, no_show_minutes=10).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    late, played = Fixture.objects.filter(tournament_id=tournament_id).order_by("id")
    scheduling.fixture_call(
        match_id=late.match_id, actor=ORGANIZER, now=timezone.now() - timedelta(hours=1)
    )
    match_services.round_start(match_id=played.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=played.match_id, round_number=1, points=[70, 50], actor=ORGANIZER
    )
    match_services.result_dispute(
        match_id=played.match_id, side=1, reason="we had 62", actor=ORGANIZER
    )
    running_tasks.catch_up_all()

    html = page(admin_client, tournament_id)

    assert 'data-flag="overdue"' in html
    flagged = re.search(r"<p class=\"flagged\" data-flagged>(.*?)</p>", html, re.S)
    assert flagged is not None
    assert f">{late.key}</a>" in flagged.group(1)
    assert f">{played.key}</a>" in flagged.group(1)
    assert "disputed" in flagged.group(1)


def test_to_settle_lists_each_open_dispute_with_its_side_and_reason_here_and_on_the_fixture(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(entrants=2).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (fixture,) = Fixture.objects.filter(tournament_id=tournament_id).select_related("away")
    match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=fixture.match_id, round_number=1, points=[70, 50], actor=ORGANIZER
    )
    player = Actor(user_id=UserFactory.create(username="away_player_account").id, device="phone")
    match_services.result_dispute(
        match_id=fixture.match_id, side=1, reason="we had 62", actor=player
    )
    running_tasks.catch_up_all()
    assert fixture.away is not None

    html = page(admin_client, tournament_id)
    fixture_page = admin_client.get(reverse("admin:tournaments_fixture_change", args=[fixture.pk]))

    (listed,) = re.findall(r"<li data-dispute>(.*?)</li>", html, re.S)
    assert f">{fixture.key}</a>" in listed
    assert f"<strong>{fixture.away.name}</strong> disputes the result: “we had 62”" in listed
    assert "away_player_account" not in html
    assert fixture_page.status_code == 200
    fixture_html = fixture_page.content.decode()
    assert re.search(
        rf'<li data-dispute="1" data-standing="true"><strong>{re.escape(fixture.away.name)}'
        r"</strong> \(open\): “we had 62”",
        fixture_html,
    )
    assert "away_player_account" not in fixture_html


# Groups tied at the cut under the organizer's rule (decision record 0029, amended).


def tied_groups_tournament() -> UUID:
    """Groups A (seeds 1, 4) and B (seeds 2, 3), one qualifier each, match points only, every
    group match 60-60: both groups wait for the organizer's order."""
    tournament_id = TournamentFactory.create(
        format="groups_then_knockout",
        entrants=4,
        group_size=2,
        advance_per_group=1,
        tiebreaks=["match_points"],
        scoring="points",
        rounds=1,
        best_of=3,
        level_knockout="organizer",
    ).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    for fixture in Fixture.objects.filter(tournament_id=tournament_id):
        match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
        match_services.round_points_enter(
            match_id=fixture.match_id, round_number=1, points=(60, 60), actor=ORGANIZER
        )
        running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)
    return tournament_id


def seeded(tournament_id: UUID, seed: int) -> Entrant:
    return Entrant.objects.get(tournament_id=tournament_id, seed=seed)


def test_a_group_tied_at_the_cut_is_decided_on_the_console_and_the_knockout_is_drawn(
    admin_client: Client,
) -> None:
    tournament_id = tied_groups_tournament()

    html = page(admin_client, tournament_id)
    assert re.findall(r'data-decide-group="(\w+)"', html) == ["A", "B"]
    first, fourth = seeded(tournament_id, 1), seeded(tournament_id, 4)
    run(
        admin_client,
        tournament_id,
        "decide_group_places",
        group="A",
        reason="sorteggio",
        **{f"place_{fourth.id}": "1", f"place_{first.id}": "2"},
    )
    second, third = seeded(tournament_id, 2), seeded(tournament_id, 3)
    run(
        admin_client,
        tournament_id,
        "decide_group_places",
        group="B",
        reason="sorteggio",
        **{f"place_{second.id}": "1", f"place_{third.id}": "2"},
    )

    assert re.findall(r'data-decide-group="(\w+)"', page(admin_client, tournament_id)) == []
    [final] = Fixture.objects.filter(tournament_id=tournament_id, stage="main")
    assert {final.home_id, final.away_id} == {fourth.id, second.id}


def test_two_tied_entrants_given_one_place_on_the_console_decide_nothing(
    admin_client: Client,
) -> None:
    tournament_id = tied_groups_tournament()
    first, fourth = seeded(tournament_id, 1), seeded(tournament_id, 4)

    run(
        admin_client,
        tournament_id,
        "decide_group_places",
        group="A",
        reason="sorteggio",
        **{f"place_{fourth.id}": "1", f"place_{first.id}": "1"},
    )

    assert re.findall(r'data-decide-group="(\w+)"', page(admin_client, tournament_id)) == [
        "A",
        "B",
    ]
