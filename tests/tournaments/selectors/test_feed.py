"""A tournament's feed: its own events and its matches', in log order, resumable by position."""

from __future__ import annotations

import pytest

from games.feeds import feed_document, streams_feed
from games.matches import services as match_services
from games.visibility import EVERYTHING
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tournaments.models import Fixture
from tournaments.selectors.feed import tournament_feed

pytestmark = pytest.mark.django_db


def test_a_tournament_feed_holds_its_own_events_and_its_matches_in_log_order() -> None:
    tournament = TournamentFactory.create(started=True)
    TournamentFactory.create(started=True, name="Another club night")
    matches = set(Fixture.objects.filter(tournament=tournament).values_list("match_id", flat=True))

    events = tournament_feed(tournament_id=tournament.id, after=0)

    positions = [event.global_position for event in events]
    assert positions == sorted(set(positions))
    assert {event.stream_id for event in events} == {tournament.id, *matches}
    assert events[0].event_type == "TournamentCreated"
    assert sum(event.event_type == "MatchCreated" for event in events) == len(matches) == 2


def test_a_reader_resuming_from_its_last_position_gets_the_rest_without_gaps_or_repeats() -> None:
    tournament = TournamentFactory.create(started=True)
    everything = tournament_feed(tournament_id=tournament.id, after=0)

    first = tournament_feed(tournament_id=tournament.id, after=0, limit=3)
    rest = tournament_feed(tournament_id=tournament.id, after=first[-1].global_position)

    assert [e.global_position for e in first + rest] == [e.global_position for e in everything]


def test_a_server_dealt_deck_is_hidden_from_the_public_and_shown_to_who_may_see_it() -> None:
    tournament = TournamentFactory.create(started=True)
    match_id = Fixture.objects.filter(tournament=tournament).values_list("match_id", flat=True)[0]
    match_services.round_start(match_id=match_id, briscola=None, deal="server", actor=ORGANIZER)

    public = tournament_feed(tournament_id=tournament.id, after=0)[-1]
    everything = streams_feed(stream_ids=[match_id], after=0, viewer_of_match=lambda _: EVERYTHING)[
        -1
    ]

    assert public.event_type == everything.event_type == "RoundStarted"
    assert public.payload["deck"] is None
    assert len(everything.payload["deck"]) == 40


def test_the_feed_document_carries_the_position_and_the_reason_but_not_who_entered_it() -> None:
    tournament = TournamentFactory.create()
    document = feed_document(tournament_feed(tournament_id=tournament.id, after=0)[0])

    assert document["position"] > 0
    assert document["stream_id"] == str(tournament.id)
    assert document["event_type"] == "TournamentCreated"
    assert "metadata" not in document
    assert set(document) == {
        "position",
        "stream_id",
        "stream_type",
        "stream_version",
        "event_type",
        "payload",
        "reason",
        "recorded_at",
    }
