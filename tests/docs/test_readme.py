"""Every shell block of the README runs as written, against a live server, and prints what the
README says it prints: the README cannot drift from the code again.

A ```sh block is run with bash (`-e -o pipefail`) from a scratch directory that holds the
repository's `.venv` and `manage.py`, with `BASE` pointing at the live server and the
management commands at the test database. The ```text block right after it, when there is one,
is what it prints, `...` standing for anything. Only the blocks in SKIPPED are not run, each for
the reason given there.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection
from pytest_django.live_server_helper import LiveServer

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

SKIPPED = {
    "make run ": "`make run` serves until it is stopped and `make test` runs this very suite; "
    "tests/scripts/test_check_port.py runs `make run` up to its port check",
    "docker compose": "needs Docker and builds an image; the test machine runs neither",
}
"""A text each skipped block contains -> why it is not run."""

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#+ (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class ShellBlock:
    line: int
    heading: str
    script: str
    prints: str | None

    @property
    def skipped_because(self) -> str | None:
        return next((why for text, why in SKIPPED.items() if text in self.script), None)


def shell_blocks(text: str) -> list[ShellBlock]:
    fences = list(FENCE.finditer(text))
    blocks = []
    for index, fence in enumerate(fences):
        if fence.group(1) != "sh":
            continue
        after = fences[index + 1] if index + 1 < len(fences) else None
        prints = after.group(2) if after is not None and after.group(1) == "text" else None
        headings = HEADING.findall(text[: fence.start()])
        blocks.append(
            ShellBlock(
                line=text.count("\n", 0, fence.start()) + 1,
                heading=headings[-1] if headings else "",
                script=fence.group(2),
                prints=prints,
            )
        )
    return blocks


def printed_as_said(printed: str, said: str) -> bool:
    """`printed` is `said` line for line, each `...` standing for any text (newlines too)."""
    pattern = ".*?".join(re.escape(part) for part in said.strip().split("..."))
    return re.fullmatch(pattern, printed.strip(), re.DOTALL) is not None


BLOCKS = shell_blocks(README.read_text())


def test_every_skipped_block_is_still_in_the_readme_and_all_the_others_run() -> None:
    for text in SKIPPED:
        assert sum(text in block.script for block in BLOCKS) == 1, text
    assert sum(block.skipped_because is None for block in BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line {b.line}: {b.heading}" for b in BLOCKS])
def test_the_readme_s_shell_block_runs_and_prints_what_the_readme_says(
    block: ShellBlock, live_server: LiveServer, tmp_path: Path
) -> None:
    if block.skipped_because is not None:
        pytest.skip(block.skipped_because)
    for name in (".venv", "manage.py"):
        (tmp_path / name).symlink_to(ROOT / name)

    ran = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.script],
        cwd=tmp_path,
        env=environment(live_server),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert ran.returncode == 0, f"exit {ran.returncode}\n{ran.stdout}\n{ran.stderr}"
    if block.prints is not None:
        assert printed_as_said(ran.stdout, block.prints), ran.stdout


def environment(live_server: LiveServer) -> dict[str, str]:
    """The shell's environment: the live server's address, and the test database and Redis for
    the management commands (which would otherwise use the development ones)."""
    database = connection.settings_dict
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    return {
        **os.environ,
        "BASE": live_server.url,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": (
            f"postgres://{database['USER']}{password}@{database['HOST'] or '127.0.0.1'}:"
            f"{database['PORT'] or 5432}/{database['NAME']}"
        ),
    }


def test_ellipses_stand_for_any_text_and_the_rest_must_match() -> None:
    assert printed_as_said('match 1f2e\n{"a":1,"b":2}\n', 'match ...\n{"a":1,...}')
    assert not printed_as_said('{"a":2,"b":2}', '{"a":1,...}')
    assert not printed_as_said("one\ntwo\nthree", "one\ntwo")
