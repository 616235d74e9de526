"""Rebuilding the match projections from the log gives exactly the inline state."""

import io
import random
import uuid
from collections.abc import Iterator

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.actors import Actor
from games.matches import execution, rebuilding, services
from games.models import Match, Round
from games.rules.errors import RuleViolation
from games.rules.tables import Table
from tests.games.matches.builders import legal_swaps, random_plays

pytestmark = pytest.mark.django_db

SCORER = Actor(user_id=1, device="hypothesis")


def snapshot() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    matches = [rebuilding.comparable(m) for m in Match.objects.order_by("id")]
    rounds = [rebuilding.comparable(r) for r in Round.objects.order_by("match_id", "number")]
    return matches, rounds


def play_random_match(rng: random.Random, table_size: int) -> uuid.UUID:
    """Random commands, mostly legal; refused ones must leave no trace."""
    sides = ["A", "B", "C"][: Table(table_size).side_count]
    match_id = services.match_create(
        table_size=table_size, sides=sides, best_of=rng.choice([1, 3]), actor=SCORER
    ).match_id
    for _ in range(rng.randrange(10, 120)):
        try:
            if rng.random() >= 0.1 or not corrected_a_finished_round(rng, match_id):
                random_command(rng, match_id, table_size)
        except RuleViolation:
            continue
    return match_id


def corrected_a_finished_round(rng: random.Random, match_id: uuid.UUID) -> bool:
    """The organizer's correction of a finished round of cards, if there is one (0048)."""
    state, _ = execution.load_match(match_id=match_id)
    finished = [
        r for r in state.live_rounds if r.outcome is not None and r.cards and r.entered is None
    ]
    if not finished:
        return False
    corrected = rng.choice(finished)
    services.round_card_correct(
        match_id=match_id,
        round_number=corrected.number,
        play_index=rng.randrange(len(corrected.plays)),
        card=rng.choice(corrected.plays).card.code,
        reason="recount",
        actor=SCORER,
    )
    return True


def random_command(rng: random.Random, match_id: uuid.UUID, table_size: int) -> None:
    state, _ = execution.load_match(match_id=match_id)
    current = state.round_in_progress
    deck = Table(table_size).deck
    roll = rng.random()
    if state.is_finished and roll < 0.5:
        side = rng.randrange(state.table.side_count)
        if rng.random() < 0.5:
            services.result_dispute(match_id=match_id, side=side, reason="wrong", actor=SCORER)
        else:
            services.result_confirm(match_id=match_id, side=side, actor=SCORER)
    elif current is None or roll < 0.03:
        briscola = None if rng.random() < 0.2 else rng.choice(deck).code
        services.round_start(match_id=match_id, briscola=briscola, actor=SCORER)
    elif current.cards is None or roll < 0.06:
        points = rng.choice([(60, 60, 0), (80, 40, 0), (0, 10, 110)])[
            : Table(table_size).side_count
        ]
        if table_size != 3:
            points = points[:2] if sum(points[:2]) == 120 else (61, 59)
        services.round_points_enter(
            match_id=match_id, round_number=current.number, points=points, actor=SCORER
        )
    elif roll < 0.10:
        services.play_undo(match_id=match_id, round_number=current.number, actor=SCORER)
    elif roll < 0.12:
        services.round_void(
            match_id=match_id, round_number=current.number, reason="test", actor=SCORER
        )
    elif roll < 0.14 and current.plays:
        index = rng.randrange(len(current.plays))
        services.card_correct(
            match_id=match_id,
            round_number=current.number,
            play_index=index,
            card=rng.choice(deck).code,
            actor=SCORER,
        )
    elif roll < 0.15:
        services.match_forfeit(match_id=match_id, side=0, reason="left", actor=SCORER)
    else:
        seat = current.cards.seat_on_turn
        unplayed = [card for card in deck if not current.cards.is_played(card)]
        services.card_play(
            match_id=match_id,
            round_number=current.number,
            seat=seat if seat is not None else 0,
            card=rng.choice(unplayed).code,
            actor=SCORER,
        )


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), table_size=st.sampled_from([2, 3, 4, 6]))
def test_rebuild_from_the_log_gives_exactly_the_inline_projections(
    seed: int, table_size: int
) -> None:
    play_random_match(random.Random(seed), table_size)
    inline = snapshot()

    rebuilding.rebuild()

    assert snapshot() == inline
    assert rebuilding.verify() == []


def test_verify_reports_a_projection_that_drifted_from_the_log() -> None:
    match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
    Match.objects.filter(id=match_id).update(status="finished")

    differences = rebuilding.verify()

    assert differences == [
        f"match {match_id}: status is 'finished', the log says 'not_started'",
    ]


def test_verify_reports_every_kind_of_difference_across_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rebuilding, "VERIFY_BATCH", 2)
    ids = []
    for _ in range(5):
        match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
        services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
        ids.append(match_id)
    Round.objects.filter(match_id=ids[0]).delete()
    Round.objects.filter(match_id=ids[2]).update(dealer_seat=1)
    extra_round = Round.objects.get(match_id=ids[3])
    extra_round.pk, extra_round.number = None, 2
    extra_round.save()
    Match.objects.filter(id=ids[4]).delete()

    differences = rebuilding.verify()

    assert f"match {ids[0]} round 1: missing from the table" in differences
    assert any(d.startswith(f"match {ids[2]} round 1: dealer_seat") for d in differences)
    assert f"match {ids[3]} round 2: in the table but not in the log" in differences
    assert f"match {ids[4]}: missing from the table" in differences
    assert not any(str(ids[1]) in d for d in differences)


def test_verify_command_exits_with_an_error_on_a_difference() -> None:
    match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    Round.objects.filter(match_id=match_id).delete()

    with pytest.raises(CommandError, match="1 differences"):
        call_command("verify_projections", "--quiet")


def test_rebuild_restores_open_disputes_and_verify_notices_a_lost_one() -> None:
    match_id = services.match_create(
        table_size=3, sides=["A", "B", "C"], best_of=1, actor=SCORER
    ).match_id
    services.round_start(match_id=match_id, briscola=None, actor=SCORER)
    services.round_points_enter(
        match_id=match_id, round_number=1, points=[70, 30, 20], actor=SCORER
    )
    for side in (1, 2):
        services.result_dispute(match_id=match_id, side=side, reason="wrong", actor=SCORER)
    services.result_confirm(match_id=match_id, side=1, actor=SCORER)
    inline = snapshot()
    Match.objects.filter(id=match_id).update(disputed_by=[])

    assert rebuilding.verify() == [
        f"match {match_id}: disputed_by is [], the log says [2]",
    ]
    rebuilding.rebuild()
    assert snapshot() == inline
    assert Match.objects.get(id=match_id).disputed_by == [2]


def test_rebuild_gives_the_confirmations_a_change_of_result_lapsed() -> None:
    match_id = services.match_create(
        table_size=2, sides=["A", "B"], best_of=1, actor=SCORER
    ).match_id
    for points in ([80, 40], [30, 90]):
        services.round_start(match_id=match_id, briscola=None, actor=SCORER)
        number = Match.objects.get(id=match_id).rounds.count()
        services.round_points_enter(
            match_id=match_id, round_number=number, points=points, actor=SCORER
        )
        services.result_confirm(match_id=match_id, side=0, actor=SCORER)
        services.result_dispute(match_id=match_id, side=1, reason="wrong", actor=SCORER)
        if number == 1:
            services.round_void(match_id=match_id, round_number=1, reason="test", actor=SCORER)
    inline = snapshot()
    Match.objects.filter(id=match_id).update(confirmations=[])

    (difference,) = rebuilding.verify()
    assert difference.startswith(f"match {match_id}: confirmations is [], the log says [")
    rebuilding.rebuild()
    assert snapshot() == inline
    row = Match.objects.get(id=match_id)
    assert (row.confirmed_by, row.disputed_by) == ([0], [1])
    assert [(mark["standing"], mark["result"]["winner"]) for mark in row.confirmations] == [
        (False, 0),
        (True, 1),
    ]
    assert [mark["standing"] for mark in row.disputes] == [False, True]
    assert [mark["reason"] for mark in row.disputes] == ["wrong", "wrong"]
    assert all("reason" not in mark for mark in row.confirmations)


def test_rebuild_command_restores_deleted_projections() -> None:
    match_id = services.match_create(table_size=4, sides=["A", "B"], actor=SCORER).match_id
    services.round_start(match_id=match_id, briscola="7D", actor=SCORER)
    before = snapshot()
    Match.objects.all().delete()

    call_command("rebuild_projections", "--quiet")

    assert snapshot() == before
    call_command("verify_projections", "--quiet")


@pytest.fixture
def registered_projector() -> Iterator[list[str]]:
    """A projection registered by another app: records what the commands asked of it."""
    calls: list[str] = []

    def rebuild() -> int:
        calls.append(f"rebuild after {Match.objects.count()} matches")
        return 7

    def verify() -> list[str]:
        calls.append("verify")
        return ["standing 3: points differ"]

    rebuilding.register_projector("other", rebuild=rebuild, verify=verify)
    yield calls
    rebuilding.unregister_projector("other")


def test_rebuild_command_rebuilds_registered_projections_after_the_matches(
    registered_projector: list[str],
) -> None:
    services.match_create(table_size=2, sides=["A", "B"], actor=SCORER)
    Match.objects.all().delete()
    output = io.StringIO()

    call_command("rebuild_projections", "--quiet", stdout=output)

    assert registered_projector == ["rebuild after 1 matches"]
    assert "Rebuilt the other projections (7 written)" in output.getvalue()


def test_verify_command_reports_the_differences_of_registered_projections(
    registered_projector: list[str],
) -> None:
    output = io.StringIO()

    with pytest.raises(CommandError, match="1 differences"):
        call_command("verify_projections", "--quiet", stdout=output)

    assert registered_projector == ["verify"]
    assert "standing 3: points differ" in output.getvalue()


def test_rebuild_restores_the_organizers_corrections_and_verify_notices_a_lost_one() -> None:
    match_id = services.match_create(
        table_size=2, sides=["A", "B"], best_of=1, actor=SCORER
    ).match_id
    briscola, plays = random_plays(2, dealer=0, seed=5)
    services.round_start(match_id=match_id, briscola=briscola, dealer_seat=0, actor=SCORER)
    services.cards_play(
        match_id=match_id,
        round_number=1,
        plays=[(play.seat, play.card.code) for play in plays],
        actor=SCORER,
    )
    state, _ = execution.load_match(match_id=match_id)
    index, other, _points = legal_swaps(state, 1)[0]
    services.round_card_correct(
        match_id=match_id,
        round_number=1,
        play_index=index,
        card=plays[other].card.code,
        reason="recount",
        actor=SCORER,
    )
    inline = snapshot()
    Round.objects.filter(match_id=match_id).update(corrections=[])

    (difference,) = rebuilding.verify()
    assert difference.startswith(f"match {match_id} round 1: corrections is [], the log says [")
    rebuilding.rebuild()
    assert snapshot() == inline


@pytest.fixture
def shared_fold() -> Iterator[list[str]]:
    """Two projections of another app registered with one fold: records what was asked."""
    calls: list[str] = []

    def fold() -> str:
        calls.append("fold")
        return f"the log after {Match.objects.count()} matches"

    def projector(name: str) -> rebuilding.SharingProjector[str]:
        def rebuild(folded: str) -> int:
            calls.append(f"{name} from {folded}")
            return 1

        return rebuilding.SharingProjector(
            name, rebuild=rebuild, verify=lambda: [f"{name} differs"]
        )

    rebuilding.register_shared_fold(
        rebuilding.SharedFold(
            name="other streams", fold=fold, projectors=(projector("first"), projector("second"))
        )
    )
    yield calls
    rebuilding.unregister_projector("other streams")


def test_the_rebuild_folds_once_for_the_projections_that_share_a_fold(
    shared_fold: list[str],
) -> None:
    services.match_create(table_size=2, sides=["A", "B"], actor=SCORER)
    Match.objects.all().delete()
    output = io.StringIO()

    call_command("rebuild_projections", "--quiet", stdout=output)

    assert shared_fold == [
        "fold",
        "first from the log after 1 matches",
        "second from the log after 1 matches",
    ]
    assert "Read and folded the other streams" in output.getvalue()
    assert "Rebuilt the second projections (1 written)" in output.getvalue()


def test_verify_reports_each_projection_of_a_shared_fold(shared_fold: list[str]) -> None:
    output = io.StringIO()

    with pytest.raises(CommandError, match="2 differences"):
        call_command("verify_projections", "--quiet", stdout=output)

    assert "first differs" in output.getvalue()
    assert "second differs" in output.getvalue()
    assert shared_fold == []  # each compares on its own
