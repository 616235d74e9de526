"""Who must not meet, through the API (issue 27 §1, decision record 0057): a group per entrant,
the tournament's `avoid_same_group`, the first round drawn without same-group pairs, and the
refusal when a strict rule finds no such draw."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import (
    entrant_url,
    home_wins,
    matches,
    play_round,
    register,
    tournament_url,
)
from tests.tournaments.projections.snapshots import rebuild
from tournaments.models import Entrant
from tournaments.projections import consumer

CLUBS = ["Aurora", "Aurora", "Bar Sport", "Bar Sport", "Rossi", "Rossi", None, None]


def grouped_swiss(client: APIClient, groups: list[str | None], **fields: Any) -> str:
    """A Swiss of singles keeping groups apart, its entrants seeded in the order of `groups`
    (by default, a group's two members would meet in the first round: seeds 1 v 5, 2 v 6...)."""
    options = {"format": "swiss", "avoid_same_group": "first_round", **fields}
    tournament_id = str(ApiTournamentFactory.create(client=client, **options)["id"])
    for seed, group in enumerate(groups, start=1):
        register(client, tournament_id, f"Player {seed}", seed=seed, group=group)
    return tournament_id


def test_the_first_round_of_a_swiss_pairs_nobody_with_their_own_group(
    organizer: APIClient,
) -> None:
    clubs = ["Aurora", "Bar Sport", "Rossi", None, "Aurora", "Bar Sport", "Rossi", None]
    tournament_id = grouped_swiss(organizer, clubs)

    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()

    detail = organizer.get(tournament_url(tournament_id)).json()
    assert detail["avoid_same_group"] == "first_round"
    assert detail["avoid_same_group_strength"] == "strict"
    group_of = {entrant["id"]: entrant["group"] for entrant in detail["entrants"]}
    assert sorted(group_of.values(), key=str) == sorted(clubs, key=str)
    first_round = matches(organizer, tournament_id)
    assert len(first_round) == 4
    for match in first_round:
        home, away = (group_of[entrant] for entrant in match["entrants"])
        assert home is None or home != away
    # The group is a projection: emptied, it is rebuilt from the log.
    Entrant.objects.filter(tournament_id=tournament_id).update(group=None)
    rebuild()
    rebuilt = dict(Entrant.objects.filter(tournament_id=tournament_id).values_list("id", "group"))
    assert rebuilt == group_of


def test_a_strict_rule_with_no_draw_refuses_the_start_and_publishes_nothing(
    organizer: APIClient,
) -> None:
    tournament_id = grouped_swiss(organizer, ["Aurora", "Aurora", "Aurora", None])

    response = post(organizer, tournament_url(tournament_id, "start"))

    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "no_draw_without_same_group"
    assert matches(organizer, tournament_id) == []
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "registration"


def test_a_soft_rule_draws_as_few_same_group_pairs_as_it_can(organizer: APIClient) -> None:
    tournament_id = grouped_swiss(
        organizer, ["Aurora", "Aurora", "Aurora", None], avoid_same_group_strength="soft"
    )

    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()

    assert len(matches(organizer, tournament_id)) == 2


def test_a_group_is_corrected_before_the_start_and_not_after(organizer: APIClient) -> None:
    tournament_id = grouped_swiss(organizer, CLUBS[:4])
    entrant = organizer.get(tournament_url(tournament_id)).json()["entrants"][0]

    corrected = organizer.patch(
        entrant_url(tournament_id, entrant["id"]),
        {"group": "Circolo Nuovo", "reason": "changed club"},
        format="json",
    )
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["group"] == "Circolo Nuovo"

    created(post(organizer, tournament_url(tournament_id, "start")))
    late = organizer.patch(
        entrant_url(tournament_id, entrant["id"]),
        {"group": None, "reason": "changed club again"},
        format="json",
    )
    assert late.status_code == 409
    assert late.json()["code"] == "tournament_started"


def test_a_group_with_a_line_break_or_too_long_is_refused(organizer: APIClient) -> None:
    tournament_id = str(ApiTournamentFactory.create(client=organizer)["id"])

    for group in ("Bar\nSport", "x" * 61):
        response = post(
            organizer,
            tournament_url(tournament_id, "entrants"),
            {"name": "Rossi", "players": ["Rossi"], "group": group},
        )
        assert response.status_code == 422
        assert response.json()["code"] == "invalid_name"


def test_an_unknown_avoid_same_group_value_is_an_invalid_format_option(
    organizer: APIClient,
) -> None:
    for option in ({"avoid_same_group": "sometimes"}, {"avoid_same_group_strength": "harsh"}):
        body = {**ApiTournamentFactory.build(), **option}
        response = post(organizer, f"{API}/tournaments/", body)
        assert response.status_code == 422
        assert response.json()["code"] == "invalid_format_option"


def test_a_knockout_draws_a_group_of_two_into_opposite_halves(organizer: APIClient) -> None:
    # Seeds 1 and 4 would meet in the first round: 3 and 4 swap lines, and they can meet in
    # the final only.
    tournament_id = str(
        ApiTournamentFactory.create(client=organizer, avoid_same_group="first_round")["id"]
    )
    ids = [
        register(organizer, tournament_id, f"Player {seed}", seed=seed, group=group)["id"]
        for seed, group in enumerate(["Aurora", None, None, "Aurora"], start=1)
    ]

    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()

    pairs = {tuple(sorted(match["entrants"])) for match in matches(organizer, tournament_id)}
    assert pairs == {tuple(sorted((ids[0], ids[2]))), tuple(sorted((ids[1], ids[3])))}


def test_a_later_round_a_strict_rule_cannot_draw_waits_for_the_organizer(
    organizer: APIClient,
) -> None:
    # Round 1 pairs each Aurora player with another; then 4 and 5 withdraw, and three of the
    # four left are of Aurora: round 2 has no draw keeping them apart.
    groups = ["Aurora", "Aurora", "Aurora", None, None, None]
    tournament_id = grouped_swiss(organizer, groups, avoid_same_group="always", swiss_rounds=3)
    created(post(organizer, tournament_url(tournament_id, "start")))
    consumer.consume()
    ids = [e["id"] for e in organizer.get(tournament_url(tournament_id)).json()["entrants"]]
    for leaving in ids[3:5]:
        created(post(organizer, entrant_url(tournament_id, leaving, "withdraw"), {"reason": "ill"}))
    consumer.consume()

    play_round(organizer, tournament_id, home_wins)

    assert matches(organizer, tournament_id, status="ready") == []
    refused = post(organizer, tournament_url(tournament_id, "next-round"), {})
    assert refused.status_code == 409
    assert refused.json()["code"] == "no_draw_without_same_group"
    published = post(
        organizer, tournament_url(tournament_id, "next-round"), {"allow_same_group": True}
    )
    assert published.status_code == 201, published.json()
    assert published.json()["round"] == 2
