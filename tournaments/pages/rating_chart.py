"""A player's rating chart, drawn on the server as an SVG polyline (no script).

The points are the rating before the first match, then the rating after each match; the y axis
is labelled at its lowest, middle and highest value, the x axis at the first and last match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 600
HEIGHT = 220
LEFT = 56
RIGHT = 16
TOP = 16
BOTTOM = 36


@dataclass(frozen=True)
class Tick:
    at: str
    """The coordinate, written for SVG: never localized (a decimal comma is no coordinate)."""
    label: float
    """The value, which the template writes in the reader's language."""


@dataclass(frozen=True)
class Chart:
    points: str
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def chart(values: Sequence[float]) -> Chart | None:
    """The chart of a rating's values, oldest first; None with fewer than two values."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    step = plot_width / (len(values) - 1)

    def y_of(value: float) -> float:
        return TOP + plot_height * (high - value) / span

    points = " ".join(
        f"{LEFT + index * step:.1f},{y_of(value):.1f}" for index, value in enumerate(values)
    )
    middle = (low + high) / 2
    y_ticks = [Tick(f"{y_of(value):.1f}", value) for value in (high, middle, low)]
    x_ticks = [Tick(str(LEFT), 0), Tick(str(LEFT + plot_width), len(values) - 1)]
    return Chart(points=points, y_ticks=y_ticks, x_ticks=x_ticks)
