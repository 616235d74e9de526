"""Every organizer's action calls a service: it appends the expected events, recorded with the
organizer and the admin as device, and a refusal is an error message, never a 500."""

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from games.models import Match, Round
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.admin.builders import act
from tests.tournaments.builders import event_types, events_after, ready_fixtures, win_by_points
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.services import scheduling as tournament_scheduling

pytestmark = pytest.mark.django_db

TOURNAMENTS = "tournaments_tournament"
ENTRANTS = "tournaments_entrant"
FIXTURES = "tournaments_fixture"
MATCHES = "games_match"


def new_events(stream_id: uuid.UUID, before: int) -> list[str]:
    return [event.event_type for event in events_after(stream_id, before)]


def assert_recorded_by(stream_id: uuid.UUID, before: int, user: AbstractBaseUser) -> None:
    recorded = events_after(stream_id, before)
    assert recorded
    assert {(e.metadata.actor_id, e.metadata.device) for e in recorded} == {(user.pk, "admin")}


def test_seeding_by_the_given_seeds_appends_entrants_seeded(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create().id
    before = len(event_types(tournament_id))

    response, said = act(admin_client, TOURNAMENTS, "seed_given", [tournament_id])

    assert response.status_code == 302
    assert new_events(tournament_id, before) == ["EntrantsSeeded"]
    assert_recorded_by(tournament_id, before, admin_user)
    assert said == ["Circolo: seeded by the given seeds (4 entrants)."]


def test_a_random_seeding_records_its_random_seed(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create().id
    before = len(event_types(tournament_id))

    _, said = act(admin_client, TOURNAMENTS, "seed_random", [tournament_id])

    (seeded,) = events_after(tournament_id, before)
    assert seeded.payload["method"] == "random"
    assert isinstance(seeded.payload["random_seed"], int)
    assert str(seeded.payload["random_seed"]) in said[0]


def test_a_random_seed_given_on_the_tournaments_page_is_the_one_recorded(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create().id
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, "seed_random"])

    response = admin_client.post(url, {"random_seed": "4242"})

    assert response.status_code == 302
    assert response["Location"] == reverse(
        "admin:tournaments_tournament_change", args=[tournament_id]
    )
    assert read_stream(stream_id=tournament_id)[-1].payload["random_seed"] == 4242


def test_starting_appends_the_start_and_the_first_fixtures(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create().id
    before = len(event_types(tournament_id))

    _, said = act(admin_client, TOURNAMENTS, "start", [tournament_id])

    assert new_events(tournament_id, before) == [
        "TournamentStarted",
        "FixtureCreated",
        "FixtureCreated",
    ]
    assert said == ["Circolo: started: 2 matches created."]


def test_publishing_the_next_swiss_round_appends_its_pairings(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4, swiss_rounds=2, automatic_rounds=False, started=True
    ).id
    for fixture in ready_fixtures(tournament_id):
        win_by_points(fixture.match_id)
    before = len(event_types(tournament_id))

    _, said = act(admin_client, TOURNAMENTS, "publish_swiss_round", [tournament_id])

    assert new_events(tournament_id, before) == [
        "SwissRoundPaired",
        "FixtureCreated",
        "FixtureCreated",
    ]
    assert said == ["Circolo: Swiss round 2 published."]


def test_calling_waiting_matches_gives_them_tables(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(tables=1, started=True).id
    before = len(event_types(tournament_id))

    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, "schedule"])
    admin_client.post(url)

    assert new_events(tournament_id, before) == ["MatchScheduled"]
    assert Fixture.objects.filter(tournament_id=tournament_id, table=1).count() == 1


def test_a_refusal_is_an_error_message_not_a_500(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    before = len(event_types(tournament_id))

    response = admin_client.post(
        reverse(f"admin:{TOURNAMENTS}_changelist"),
        {"action": "start", "_selected_action": [str(tournament_id)]},
        follow=True,
    )

    assert response.status_code == 200
    (message,) = response.context["messages"]
    assert (message.level_tag, str(message)) == (
        "error",
        "Circolo: the tournament has already started",
    )
    assert "the tournament has already started" in response.content.decode()
    assert new_events(tournament_id, before) == []


def test_a_refused_button_on_the_tournaments_page_is_an_error_message(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", started=True).id
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, "publish_swiss_round"])

    response = admin_client.post(url, follow=True)

    assert response.status_code == 200
    assert "no Swiss round can be paired now" in response.content.decode()


def test_checking_in_appends_one_event_per_entrant_not_yet_in(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create().id
    entrants = list(Entrant.objects.filter(tournament_id=tournament_id)[:2])
    before = len(event_types(tournament_id))

    act(admin_client, ENTRANTS, "check_in", [e.pk for e in entrants])
    act(admin_client, ENTRANTS, "check_in", [entrants[0].pk])

    assert new_events(tournament_id, before) == ["EntrantCheckedIn", "EntrantCheckedIn"]
    assert_recorded_by(tournament_id, before, admin_user)
    assert Entrant.objects.filter(tournament_id=tournament_id, checked_in=True).count() == 2


def test_withdrawing_asks_for_a_reason_then_forfeits_the_open_match(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    before = len(event_types(tournament_id))

    asked, _ = act(admin_client, ENTRANTS, "withdraw", [fixture.home_id])
    act(admin_client, ENTRANTS, "withdraw", [fixture.home_id], apply="1", reason="ill")

    assert asked.status_code == 200
    assert "reason" in asked.context["form"].fields
    (withdrew,) = events_after(tournament_id, before)
    assert (withdrew.event_type, withdrew.payload["reason"]) == ("EntrantWithdrew", "ill")
    assert event_types(fixture.match_id)[-1] == "MatchForfeited"
    assert Match.objects.get(id=fixture.match_id).forfeited_by == 0


def test_assigning_a_table_appends_match_scheduled_with_a_start_time_and_no_deadline(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(tables=3, no_show_minutes=10, started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    before = len(event_types(tournament_id))

    asked, _ = act(admin_client, FIXTURES, "assign_table", [fixture.pk])
    _, said = act(admin_client, FIXTURES, "assign_table", [fixture.pk], apply="1", table="3")

    assert asked.status_code == 200
    (scheduled,) = events_after(tournament_id, before)
    assert scheduled.event_type == "MatchScheduled"
    assert (scheduled.payload["fixture"], scheduled.payload["table"]) == (fixture.key, 3)
    assert scheduled.payload["deadline"] is None
    fixture.refresh_from_db()
    assert fixture.table == 3
    assert fixture.scheduled_at is not None
    assert (fixture.called_at, fixture.deadline) == (None, None)
    assert said == [f"Tables: {fixture.key} at table 3."]


def test_calling_a_match_to_its_table_appends_match_called_and_starts_its_deadline(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create(tables=3, no_show_minutes=10, started=True).id
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    fixture = ready_fixtures(tournament_id)[0]
    before = len(event_types(tournament_id))

    _, said = act(admin_client, FIXTURES, "call_to_table", [fixture.pk])

    (called,) = events_after(tournament_id, before)
    assert called.event_type == "MatchCalled"
    assert (called.payload["fixture"], called.payload["table"]) == (fixture.key, fixture.table)
    assert called.payload["by"] == "organizer"
    assert_recorded_by(tournament_id, before, admin_user)
    fixture.refresh_from_db()
    assert fixture.called_at is not None
    assert fixture.deadline == fixture.called_at + timedelta(minutes=10)
    assert said == [f"{fixture.key} called to table {fixture.table}."]


def test_calling_a_match_without_a_table_is_refused_with_a_message(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(tables=3, no_show_minutes=10, started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    before = len(event_types(tournament_id))

    _, said = act(admin_client, FIXTURES, "call_to_table", [fixture.pk])

    assert said == [f"{fixture}: give {fixture.key} a table before calling it"]
    assert new_events(tournament_id, before) == []


def test_assigning_a_table_in_use_swaps_the_two_matches(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(tables=2, started=True).id
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    first, second = ready_fixtures(tournament_id)
    tables = (first.table, second.table)
    before = len(event_types(tournament_id))

    act(admin_client, FIXTURES, "assign_table", [first.pk], apply="1", table=str(second.table))

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, second.table) == (tables[1], tables[0])
    assert new_events(tournament_id, before) == ["MatchScheduled", "MatchScheduled"]


def test_a_table_that_does_not_exist_is_refused_with_a_message(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(tables=2, started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    before = len(event_types(tournament_id))

    _, said = act(admin_client, FIXTURES, "assign_table", [fixture.pk], apply="1", table="7")

    assert said == [f"{fixture}: the tables are numbered 1 to 2"]
    assert new_events(tournament_id, before) == []


def test_forfeiting_a_fixture_records_the_result_and_advances_the_bracket(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    match_events = len(event_types(fixture.match_id))

    asked, _ = act(admin_client, FIXTURES, "forfeit", [fixture.pk])
    act(admin_client, FIXTURES, "forfeit", [fixture.pk], apply="1", side="1", reason="late")

    side_labels = [label for _, label in asked.context["form"].fields["side"].choices]
    assert side_labels == [f"0: {fixture.home.name}", f"1: {fixture.away.name}"]
    assert new_events(fixture.match_id, match_events) == ["MatchForfeited"]
    assert_recorded_by(fixture.match_id, match_events, admin_user)
    fixture.refresh_from_db()
    assert fixture.status == "finished"
    assert fixture.winner_id == fixture.home_id
    assert "ResultRecorded" in event_types(tournament_id)


def test_voiding_a_round_appends_round_voided_with_its_reason(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id)
    match_events = len(event_types(fixture.match_id))

    act(admin_client, FIXTURES, "void_round", [fixture.pk], apply="1", reason="misdeal")

    (voided,) = events_after(fixture.match_id, match_events)
    assert voided.event_type == "RoundVoided"
    assert voided.payload["round"] == 1
    assert Round.objects.get(match_id=fixture.match_id, number=1).void_reason == "misdeal"


def test_voiding_a_round_that_does_not_exist_is_an_error_message(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id)

    response, said = act(
        admin_client, FIXTURES, "void_round", [fixture.pk], apply="1", round_number="5", reason="x"
    )

    assert response.status_code == 302
    assert said[0].endswith("the match has no round 5")


def test_the_organizer_rules_on_a_round_from_the_fixture_and_the_tournament_follows(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id)
    before = len(event_types(fixture.match_id))
    winner = Match.objects.get(id=fixture.match_id).winner
    assert winner is not None
    points = "120 0" if winner == 1 else "0 120"

    asked, _ = act(admin_client, FIXTURES, "rule_round", [fixture.pk])
    act(
        admin_client,
        FIXTURES,
        "rule_round",
        [fixture.pk],
        apply="1",
        round_number="1",
        points=points,
        reason="the sheet was read the wrong way round",
    )

    assert "Rule on a round" in asked.content.decode()
    (ruled,) = events_after(fixture.match_id, before)
    assert ruled.event_type == "RoundResultRuled"
    assert ruled.payload["reason"] == "the sheet was read the wrong way round"
    assert Match.objects.get(id=fixture.match_id).winner == 1 - winner
    fixture.refresh_from_db()
    assert fixture.winner_id == (fixture.home_id if winner == 1 else fixture.away_id)


def test_a_ruling_whose_points_are_not_numbers_is_asked_again(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id)
    before = len(event_types(fixture.match_id))

    response, _ = act(
        admin_client,
        MATCHES,
        "rule_round",
        [fixture.match_id],
        apply="1",
        round_number="1",
        points="seventy",
        reason="x",
    )

    assert "Give each side" in response.content.decode()
    assert events_after(fixture.match_id, before) == []


def test_the_match_admin_forfeits_and_voids_through_the_match_services(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(started=True).id
    played, other = ready_fixtures(tournament_id)
    win_by_points(played.match_id)
    events: dict[Any, int] = {m: len(event_types(m)) for m in (played.match_id, other.match_id)}

    act(admin_client, MATCHES, "void_round", [played.match_id], apply="1", reason="misdeal")
    act(admin_client, MATCHES, "forfeit", [other.match_id], apply="1", side="0", reason="gone")
    _, said = act(
        admin_client, MATCHES, "forfeit", [other.match_id], apply="1", side="1", reason="x"
    )

    assert new_events(played.match_id, events[played.match_id]) == ["RoundVoided"]
    assert new_events(other.match_id, events[other.match_id]) == ["MatchForfeited"]
    assert said[0].endswith("the match is over")
    assert Tournament.objects.get(id=tournament_id).status == "in_progress"


def test_deciding_a_level_knockout_match_asks_for_the_side_and_reason_and_records_them(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament_id = TournamentFactory.create(
        entrants=2, scoring="points", rounds=1, level_knockout="organizer", started=True
    ).id
    fixture = ready_fixtures(tournament_id)[0]
    win_by_points(fixture.match_id, (60, 60))
    before = len(event_types(tournament_id))

    asked, _ = act(admin_client, FIXTURES, "decide_level", [fixture.pk])
    _, said = act(
        admin_client,
        FIXTURES,
        "decide_level",
        [fixture.pk],
        apply="1",
        winner="away",
        reason="sorteggio",
    )

    assert asked.status_code == 200
    decided = events_after(tournament_id, before)
    assert decided[0].event_type == "LevelMatchDecided"
    assert decided[0].payload == {
        "fixture": fixture.key,
        "winner": fixture.away_id,
        "reason": "sorteggio",
    }
    assert decided[-1].event_type == "TournamentFinished"
    assert_recorded_by(tournament_id, before, admin_user)
    assert said == [f"{fixture.key}: the away side goes through."]
