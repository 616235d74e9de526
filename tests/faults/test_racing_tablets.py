"""Two tablets racing on one match: both send each card at once with the version they saw."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest

from tests.faults.app import PROFILE, App
from tests.faults.checks import logged_plays, version_gaps
from tests.faults.scorers import Ledger, PatientClient, scorer_steps

pytestmark = pytest.mark.faults


def test_of_two_tablets_sending_a_card_at_once_with_the_same_version_exactly_one_wins(
    app: App, report: dict[str, object]
) -> None:
    ledger = Ledger()
    tablets = [
        PatientClient(app.port, app.stack.scorer_token, ledger, timeout=10, patience=30)
        for _ in range(2)
    ]
    steps = scorer_steps(scorers=1, rounds=PROFILE.race_rounds, seed=4040)[0]
    contested = 0
    winners = [0, 0]
    try:
        version = 0
        for step in steps:
            if step.kind != "play":
                status, answer, _ = tablets[0].call("POST", step.path, step.body, key=step.key)
                assert status == 201, answer
                version = answer["version"]
                continue
            body = {**step.body, "expected_version": version}
            answers = race(tablets, step.path, body)
            statuses = sorted(status for status, _ in answers)
            assert statuses == [201, 409], answers
            won = next(answer for status, answer in answers if status == 201)
            lost = next(answer for status, answer in answers if status == 409)
            assert won["version"] == version + 1
            assert lost["code"] == "version_conflict", lost
            assert lost["current_version"] == version + 1, lost
            winners[[status for status, _ in answers].index(201)] += 1
            version += 1
            contested += 1
    finally:
        for tablet in tablets:
            tablet.close()

    for match_id in {step.match_id for step in steps}:
        played = [step.body for step in steps if step.kind == "play" and step.match_id == match_id]
        assert logged_plays(app, match_id) == played
    assert version_gaps(app) == []
    report.update(contested_cards=contested, wins_by_tablet=winners, requests=ledger.requests)


def race(tablets: list[PatientClient], path: str, body: dict[str, object]) -> list[tuple[int, Any]]:
    """Both tablets send the command at the same moment, each with a key of its own."""
    answers: list[tuple[int, Any]] = [(0, None), (0, None)]
    start = threading.Barrier(len(tablets))

    def send(index: int) -> None:
        start.wait(timeout=30)
        status, answer, _ = tablets[index].call("POST", path, body, key=uuid.uuid4().hex)
        answers[index] = (status, answer)

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(tablets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), f"no answer to {path} {body}"
    return answers
