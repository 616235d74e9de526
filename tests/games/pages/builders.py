"""What the table page tests do in the browser and read back: a tablet's device key, tapping
cards in, the rules' result of a round, the cards in a match's log, and a page whose console
errors a test inspects."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from playwright.sync_api import Page, expect

from accounts import services as accounts
from accounts.models import User
from games.eventstore.api import read_stream
from games.matches.stream.events import CardCorrected, CardPlayed, PlayUndone
from games.rules.cards import parse_card
from games.rules.commands import StartRound
from games.rules.replay import replay_round
from games.rules.tricks import Play


def device_key(tournament_id: str, *tables: int) -> str:
    """The key of a tablet that scores `tables` of the tournament."""
    _token, key = accounts.device_token_create(
        user=User.objects.get(username="scorer"),
        device="tablet",
        created_by=None,
        tournament_id=UUID(tournament_id),
        tables=tables,
    )
    return key


def played_cards(match_id: str) -> list[tuple[int, str]]:
    """The cards of the match's log: each play, minus those undone, as corrected."""
    cards: list[tuple[int, str]] = []
    for event in read_stream(stream_id=UUID(match_id)):
        payload = event.payload
        if event.event_type == CardPlayed.type:
            cards.append((payload["seat"], payload["card"]))
        elif event.event_type == PlayUndone.type:
            cards.pop()
        elif event.event_type == CardCorrected.type:
            cards[payload["play_index"]] = (payload["seat"], payload["card"])
    return cards


def start_at_the_table(page: Page, briscola: str, dealer: int | None = 0) -> None:
    if dealer is not None:
        page.click(f'[data-dealer="{dealer}"]')
    page.click(f'[data-briscola="{briscola}"]')
    page.click('[data-action="start-round"]')
    expect(page.locator('[data-view="play"]')).to_be_visible()


def tap(page: Page, plays: list[Play]) -> None:
    for play in plays:
        page.click(f'[data-card="{play.card.code}"]')


def expect_the_rules_result(page: Page, table_size: int, briscola: str, plays: list[Play]) -> None:
    start = StartRound(table_size, 0, briscola=parse_card(briscola))
    outcome = replay_round(start, plays).state.outcome
    assert outcome is not None
    named = "tie" if outcome.winning_side is None else f"side{outcome.winning_side}"
    expect(page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(page.locator("[data-result]")).to_have_attribute("data-result", named)
    for side, points in enumerate(outcome.points):
        expect(page.locator(f'[data-points-side="{side}"]')).to_have_text(str(points))


@dataclass
class WatchedPage:
    """A phone-sized page whose console errors the test inspects itself: a request the page
    expects to fail (no network, a refusal) is logged by the browser as a failed load."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def assert_only_failed_loads(self, *reasons: str) -> None:
        unexpected = [
            error
            for error in self.errors
            if not any(error.startswith(f"Failed to load resource: {r}") for r in reasons)
        ]
        assert unexpected == []
