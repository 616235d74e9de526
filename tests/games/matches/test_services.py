import uuid

import pytest

from common.actors import Actor
from games.eventstore.api import IdempotencyKeyReused, WrongExpectedVersion, read_stream
from games.matches import services
from games.matches.execution import MatchNotFound
from games.matches.selectors import match_side_names
from games.matches.stream.errors import MatchAlreadyCreated, RoundNotFound
from games.models import Match, Round
from games.rules.errors import CardAlreadyPlayed, InvalidCard, InvalidMatchFormat, NotYourTurn
from tests.games.matches.builders import random_plays

pytestmark = pytest.mark.django_db

SCORER = Actor(user_id=None, device="table-3")


def new_match(**options: object) -> uuid.UUID:
    defaults: dict[str, object] = {"table_size": 2, "sides": ["Anna", "Bruno"], "actor": SCORER}
    return services.match_create(**(defaults | options)).match_id  # type: ignore[arg-type]


def test_creating_a_match_records_the_event_and_projects_the_match() -> None:
    match_id = new_match(best_of=5)

    match = Match.objects.get(id=match_id)
    assert match.status == "not_started"
    assert match.best_of == 5
    assert match.sides == [{}, {}]
    assert match_side_names(match=match) == ["Anna", "Bruno"]
    assert [e.event_type for e in read_stream(stream_id=match_id)] == ["MatchCreated"]


def test_points_scoring_needs_the_number_of_rounds() -> None:
    with pytest.raises(InvalidMatchFormat):
        services.match_create(table_size=2, sides=["A", "B"], scoring="points", actor=SCORER)


def test_every_event_records_the_actor_and_the_device() -> None:
    match_id = services.match_create(
        table_size=2, sides=["A", "B"], actor=Actor(user_id=7, device="tablet-1")
    ).match_id

    metadata = read_stream(stream_id=match_id)[0].metadata
    assert metadata.actor_id == 7
    assert metadata.device == "tablet-1"


def test_a_whole_round_entered_card_by_card_finishes_a_best_of_one() -> None:
    match_id = new_match(best_of=1)
    briscola, plays = random_plays(2, 0, seed=21)
    services.round_start(match_id=match_id, briscola=briscola, actor=SCORER)

    for play in plays:
        result = services.card_play(
            match_id=match_id, round_number=1, seat=play.seat, card=play.card.code, actor=SCORER
        )

    match = Match.objects.get(id=match_id)
    round_ = Round.objects.get(match_id=match_id, number=1)
    assert result.version == 2 + len(plays)
    assert round_.status == "finished"
    assert sum(round_.points) == 120
    assert match.status == "finished"
    assert match.winner == (0 if round_.points[0] > 60 else 1 if round_.points[1] > 60 else None)


def test_an_illegal_card_appends_nothing() -> None:
    match_id = new_match()
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    services.card_play(match_id=match_id, round_number=1, seat=1, card="5C", actor=SCORER)

    with pytest.raises(CardAlreadyPlayed):
        services.card_play(match_id=match_id, round_number=1, seat=0, card="5C", actor=SCORER)
    with pytest.raises(NotYourTurn):
        services.card_play(match_id=match_id, round_number=1, seat=1, card="6C", actor=SCORER)
    with pytest.raises(InvalidCard):
        services.card_play(match_id=match_id, round_number=1, seat=0, card="13C", actor=SCORER)

    assert len(read_stream(stream_id=match_id)) == 3


def test_a_stale_expected_version_is_a_conflict_with_the_current_version() -> None:
    match_id = new_match()
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)

    with pytest.raises(WrongExpectedVersion) as conflict:
        services.card_play(
            match_id=match_id,
            round_number=1,
            seat=1,
            card="5C",
            actor=SCORER,
            expected_version=1,
        )

    assert conflict.value.current_version == 2


def test_a_repeated_idempotency_key_returns_the_first_result_and_appends_nothing() -> None:
    match_id = new_match()
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    first = services.card_play(
        match_id=match_id, round_number=1, seat=1, card="5C", actor=SCORER, idempotency_key="k"
    )
    services.card_play(match_id=match_id, round_number=1, seat=0, card="1C", actor=SCORER)

    again = services.card_play(
        match_id=match_id, round_number=1, seat=1, card="5C", actor=SCORER, idempotency_key="k"
    )

    assert again.duplicate
    assert again.version == first.version == 3
    assert again.state.round(1).plays == first.state.round(1).plays
    assert len(read_stream(stream_id=match_id)) == 4


def test_the_same_idempotency_key_for_another_command_is_refused() -> None:
    match_id = new_match()
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    services.card_play(
        match_id=match_id, round_number=1, seat=1, card="5C", actor=SCORER, idempotency_key="k"
    )

    with pytest.raises(IdempotencyKeyReused):
        services.card_play(
            match_id=match_id, round_number=1, seat=0, card="6C", actor=SCORER, idempotency_key="k"
        )


def test_commands_to_a_missing_match_or_round_are_reported() -> None:
    with pytest.raises(MatchNotFound):
        services.round_start(match_id=uuid.uuid4(), briscola="7D", actor=SCORER)
    with pytest.raises(RoundNotFound):
        services.card_play(match_id=new_match(), round_number=1, seat=1, card="1D", actor=SCORER)


def test_a_void_records_its_reason_and_the_round_is_dealt_again_by_the_same_seat() -> None:
    match_id = new_match()
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)

    services.round_void(match_id=match_id, round_number=1, reason="misdeal", actor=SCORER)
    services.round_start(match_id=match_id, briscola="1S", actor=SCORER)

    rounds = list(Round.objects.filter(match_id=match_id).order_by("number"))
    assert [(r.status, r.dealer_seat, r.void_reason) for r in rounds] == [
        ("voided", 0, "misdeal"),
        ("in_progress", 0, ""),
    ]
    assert read_stream(stream_id=match_id)[2].payload["reason"] == "misdeal"


def test_a_dispute_records_its_reason_and_projects_the_disputing_side() -> None:
    match_id = new_match(best_of=1)
    services.round_start(match_id=match_id, briscola=None, actor=SCORER)
    services.round_points_enter(match_id=match_id, round_number=1, points=[70, 50], actor=SCORER)
    player = Actor(user_id=None, device="phone", reason="we had 62")

    services.result_dispute(match_id=match_id, side=1, reason="we had 62", actor=player)

    match = Match.objects.get(id=match_id)
    assert (match.disputed_by, match.confirmed_by, match.winner) == ([1], [], 0)
    disputed = read_stream(stream_id=match_id)[-1]
    assert (disputed.event_type, disputed.payload) == (
        "ResultDisputed",
        {"side": 1, "reason": "we had 62"},
    )
    assert disputed.metadata.reason == "we had 62"

    services.result_confirm(match_id=match_id, side=1, actor=SCORER)

    match.refresh_from_db()
    assert (match.disputed_by, match.confirmed_by) == ([], [1])


def test_creating_a_match_with_an_id_in_use_is_refused_as_existing() -> None:
    match_id = new_match()

    with pytest.raises(MatchAlreadyCreated):
        new_match(match_id=match_id)
