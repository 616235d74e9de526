"""The public tournament pages through Django's test client: who may read them, names not ids,
the hooks the browser tests and scripts rely on, and ETags that make an unchanged poll a 304."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Club, Role
from accounts.services import club_create, role_grant
from games.matches import services as match_services
from tests.factories.accounts import UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.games.api.builders import legal_round
from tests.tournaments.builders import play
from tests.tournaments.pages.builders import play_ready, ready_fixtures
from tournaments.models import Entrant, Fixture, Player
from tournaments.projections import consumer
from tournaments.services import erasure
from tournaments.services import running as tournament_running
from tournaments.services import scheduling as tournament_scheduling

pytestmark = pytest.mark.django_db


def private_tournament() -> tuple[uuid.UUID, Club]:
    """A started private tournament of a club, and that club."""
    club = club_create(name="Circolo Privato")
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=3, club=club, public=False
    ).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    consumer.consume()
    return tournament_id, club


def member_client(club: Club) -> Client:
    user = UserFactory.create(username="member")
    role_grant(user=user, role=Role.ORGANIZER, club=club)
    client = Client()
    client.force_login(user)
    return client


def entrant_id(tournament_id: uuid.UUID, name: str) -> int:
    return Entrant.objects.get(tournament_id=tournament_id, name=name).id


def test_the_list_shows_public_tournaments_with_club_format_and_status(client: Client) -> None:
    club = club_create(name="Circolo del Borgo")
    public = TournamentFactory.create(format="swiss", entrants=4, club=club).id
    private, _ = private_tournament()

    html = client.get("/tournaments/").content.decode()

    assert f'data-tournament="{public}"' in html
    assert f"/tournaments/{public}/" in html
    assert "Circolo del Borgo" in html
    assert "Swiss" in html
    assert "Registration open" in html
    assert str(private) not in html


def test_a_private_tournament_is_listed_and_shown_to_its_club_only(client: Client) -> None:
    tournament_id, club = private_tournament()
    member = member_client(club)

    assert client.get(f"/tournaments/{tournament_id}/").status_code == 404
    assert client.get(f"/tournaments/{tournament_id}/screen/").status_code == 404
    assert str(tournament_id) in member.get("/tournaments/").content.decode()
    assert member.get(f"/tournaments/{tournament_id}/").status_code == 200
    assert member.get(f"/tournaments/{tournament_id}/screen/").status_code == 200


def test_an_unknown_tournament_is_not_found(client: Client) -> None:
    assert client.get(f"/tournaments/{uuid.uuid4()}/").status_code == 404


def test_the_standings_rows_carry_the_hooks_and_names_and_explain_every_column(
    client: Client,
) -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, started=True, projected=True
    ).id
    play_ready(tournament_id)

    html = client.get(f"/tournaments/{tournament_id}/").content.decode()

    ranks = re.findall(r'data-entrant="(\d+)" data-rank="(\d+)"', html)
    assert [int(rank) for _, rank in ranks] == sorted(int(rank) for _, rank in ranks)
    assert {int(entrant) for entrant, _ in ranks} == set(
        Entrant.objects.filter(tournament_id=tournament_id).values_list("id", flat=True)
    )
    for number in (1, 2, 3, 4):
        assert f"><bdi>Player {number}</bdi></a>" in html
    assert '<abbr title="Match points: 2 for a win or a bye, 1 for a tie, 0 for a loss">MP' in html
    assert "<dt>Bu</dt><dd>Buchholz: the sum of the match points of every opponent met</dd>" in html


def test_the_bracket_is_an_svg_with_the_entrants_names(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id

    html = client.get(f"/tournaments/{tournament_id}/").content.decode()

    bracket = html[html.index("data-bracket") :]
    svg = bracket[bracket.index("<svg") : bracket.index("</svg>")]
    assert ">Player 1</text>" in svg
    assert ">Player 4</text>" in svg
    assert "to be decided" in svg
    for fixture in ready_fixtures(tournament_id):
        assert f'href="/matches/{fixture.match_id}/"' in svg


def test_each_fixture_carries_its_match_and_status_and_links_to_the_match_and_players(
    client: Client,
) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    first, second = ready_fixtures(tournament_id)
    play(first.match_id, winner=0)
    consumer.consume()

    html = client.get(f"/tournaments/{tournament_id}/").content.decode()

    assert f'data-match="{first.match_id}" data-status="finished"' in html
    assert f'data-match="{second.match_id}" data-status="ready"' in html
    assert f'href="/matches/{second.match_id}/"' in html
    player = Player.objects.get(name="Player 2")
    assert f'<a href="/players/{player.id}/"><bdi>Player 2</bdi></a>' in html


def test_an_unchanged_tournament_answers_a_conditional_request_with_304(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/"
    page = client.get(url)
    etag = page.headers["ETag"]

    again = client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304
    assert again.content == b""
    assert "no-cache" in page.headers["Cache-Control"]


def test_the_poll_gets_the_live_fragment_and_a_304_until_a_result_is_projected(
    client: Client,
) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/"
    page = client.get(url).content.decode()
    fragment_etag = re.search(r'data-etag="([^"]+)"', page)
    assert fragment_etag is not None
    etag = fragment_etag.group(1).replace("&quot;", '"')
    poll = {"HX-Request": "true", "If-None-Match": etag}

    assert client.get(url, headers=poll).status_code == 304

    fixture = ready_fixtures(tournament_id)[0]
    play(fixture.match_id, winner=1)
    waiting = client.get(url, headers=poll)
    consumer.consume()
    projected = client.get(url, headers={**poll, "If-None-Match": waiting.headers["ETag"]})

    assert waiting.status_code == 200
    assert projected.status_code == 200
    body = projected.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="live"')
    assert f'data-match="{fixture.match_id}" data-status="finished"' in body
    assert projected.headers["ETag"] not in (etag, waiting.headers["ETag"])


def test_a_card_played_within_a_round_leaves_the_live_part_unchanged_until_the_round_ends(
    client: Client,
) -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/screen/"
    match_id = ready_fixtures(tournament_id)[0].match_id
    briscola, plays = legal_round(dealer=0, seed=5)
    match_services.round_start(match_id=match_id, briscola=briscola, dealer_seat=0, actor=ORGANIZER)
    consumer.consume()
    started = client.get(url, headers={"HX-Request": "true"})
    poll = {"HX-Request": "true", "If-None-Match": started["ETag"]}

    for play_ in plays[:-1]:  # every card but the round's last
        match_services.card_play(
            match_id=match_id,
            round_number=1,
            seat=play_.seat,
            card=play_.card.code,
            actor=ORGANIZER,
        )
    consumer.consume()
    mid_round = client.get(url, headers=poll)
    last = plays[-1]
    match_services.card_play(
        match_id=match_id, round_number=1, seat=last.seat, card=last.card.code, actor=ORGANIZER
    )
    round_over = client.get(url, headers=poll)

    assert started.status_code == 200
    assert mid_round.status_code == 304  # a projector's refresh costs no render
    assert round_over.status_code == 200  # the round's winner shows in the rounds won
    assert round_over["ETag"] != started["ETag"]


def test_the_live_part_of_one_state_is_rendered_once_for_all_its_readers(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/screen/"
    poll = {"HX-Request": "true"}
    first = client.get(url, headers=poll)

    with CaptureQueriesContext(connection) as kept:
        another_reader = Client().get(url, headers=poll)
    fixture = ready_fixtures(tournament_id)[0]
    play(fixture.match_id, winner=1)
    consumer.consume()
    with CaptureQueriesContext(connection) as moved:
        after_the_result = Client().get(url, headers=poll)

    assert another_reader.content == first.content
    assert another_reader["ETag"] == first["ETag"]
    read_by_the_render = ('FROM "tournaments_entrant"', 'FROM "tournaments_tournamentview"')
    assert not [q for q in kept.captured_queries if any(t in q["sql"] for t in read_by_the_render)]
    assert [q for q in moved.captured_queries if any(t in q["sql"] for t in read_by_the_render)]
    assert after_the_result["ETag"] != first["ETag"]
    assert f'data-match="{fixture.match_id}"' not in after_the_result.content.decode()


def test_the_views_rebuild_gives_the_live_part_a_new_etag(client: Client) -> None:
    # The ETag reads the digest each write of the view leaves, not the view's JSON: a rebuild
    # (which may have been run by new code, with other JSON) must not be answered 304.
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/screen/"
    before = client.get(url, headers={"HX-Request": "true"})
    poll = {"HX-Request": "true", "If-None-Match": before["ETag"]}
    unchanged = client.get(url, headers=poll)

    consumer.rebuild_views()
    rebuilt = client.get(url, headers=poll)

    assert unchanged.status_code == 304
    assert rebuilt.status_code == 200
    assert rebuilt["ETag"] != before["ETag"]


def test_the_etag_differs_between_languages(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/"

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it", HTTP_IF_NONE_MATCH=english["ETag"])

    assert italian.status_code == 200
    assert italian["ETag"] != english["ETag"]


def test_the_screen_shows_the_current_pairings_with_their_tables(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True, projected=True
    ).id
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    consumer.consume()

    html = client.get(f"/tournaments/{tournament_id}/screen/").content.decode()

    assert 'class="screen"' in html
    assert 'hx-trigger="every 5s, feed"' in html
    assert f'data-feed="/api/v1/tournaments/{tournament_id}/events/stream/?after=' in html
    for fixture in Fixture.objects.filter(tournament_id=tournament_id):
        assert f'data-match="{fixture.match_id}" data-status="ready"' in html
    assert re.findall(r'class="num table-number">(\d)<', html) == ["1", "2"]


def test_a_player_page_lists_their_matches_with_opponents_and_results(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    play_ready(tournament_id)
    player = Player.objects.get(name="Player 1")

    html = client.get(f"/players/{player.id}/").content.decode()

    assert "<h1" in html
    assert "Player 1</bdi></h1>" in html
    assert "<td><bdi>Player 4</bdi></td>" in html
    assert "Won" in html
    assert f"/tournaments/{tournament_id}/" in html


def test_an_erased_player_reads_as_erased(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    player = Player.objects.get(name="Player 4")
    erasure.player_erase(player=player, actor=ORGANIZER)

    player_page = client.get(f"/players/{player.id}/").content.decode()
    tournament_page = client.get(f"/tournaments/{tournament_id}/").content.decode()

    assert "erased player</bdi></h1>" in player_page
    assert "Player 4" not in player_page
    assert "Player 4" not in tournament_page
    assert "erased player" in tournament_page


def test_a_player_known_only_from_a_private_tournament_is_not_found(client: Client) -> None:
    tournament_id, club = private_tournament()
    player = Player.objects.filter(entries__tournament_id=tournament_id).first()
    assert player is not None

    assert client.get(f"/players/{player.id}/").status_code == 404
    assert member_client(club).get(f"/players/{player.id}/").status_code == 200


def test_a_tournament_in_registration_has_no_standings_or_bracket_yet(client: Client) -> None:
    tournament_id = TournamentFactory.create(format="single_elimination", entrants=3).id

    html = client.get(f"/tournaments/{tournament_id}/").content.decode()

    assert "The standings appear once the tournament has started." in html
    assert "The bracket is drawn when the tournament starts." in html
    assert "data-rank" not in html
    assert "<svg" not in html


def test_fixtures_are_listed_by_stage_in_the_order_the_stages_began(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="double_elimination", entrants=4, started=True, projected=True
    ).id
    play_ready(tournament_id)
    play_ready(tournament_id)

    html = client.get(f"/tournaments/{tournament_id}/").content.decode()

    captions = re.findall(r"<caption>([^<]*) · Round (\d+)</caption>", html)
    stages = list(dict.fromkeys(stage for stage, _ in captions))
    assert stages[:2] == ["Winners&#x27; bracket", "Losers&#x27; bracket"]
    assert captions[0] == ("Winners&#x27; bracket", "1")


def test_a_whole_page_is_not_answered_304_once_its_csrf_token_changed(client: Client) -> None:
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    url = f"/tournaments/{tournament_id}/"
    etag = client.get(url)["ETag"]
    client.cookies["csrftoken"] = "x" * 32

    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
