"""Command line: `python -m games.rules replay FILE` and `python -m games.rules simulate`."""

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from games.rules import transcript
from games.rules.errors import InvalidInput, RuleViolation
from games.rules.simulate import simulate_rounds
from games.rules.tables import Table
from games.rules.transcript import error_report, replay_record, round_record
from games.rules.variants import Variant

Runner = Callable[[argparse.Namespace, TextIO, TextIO], int]


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    runner: Runner = args.runner
    try:
        return runner(args, stdin or sys.stdin, stdout or sys.stdout)
    except UsageError as error:
        parser.error(str(error))


class UsageError(Exception):
    """A bad command-line option (argparse reports it and exits with status 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.rules", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    replay = commands.add_parser(
        "replay",
        help="check rounds given as JSON Lines and report their tricks and results",
        description="Read one round per line; write one report per line (blank lines are "
        "skipped). Exit status 0 when every round is legal (complete or not), 1 otherwise.",
        epilog=transcript.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.add_argument("file", metavar="FILE", help="JSON Lines file, or - for standard input")
    replay.set_defaults(runner=run_replay)

    simulate = commands.add_parser(
        "simulate",
        help="write random legal dealt rounds as JSON Lines (valid input for replay)",
    )
    simulate.add_argument("--table-size", type=int, default=2, help="2, 3, 4 or 6 (default 2)")
    simulate.add_argument("--rounds", type=int, default=1, help="how many rounds (default 1)")
    simulate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    simulate.add_argument("--variant", default=None, help='variant as JSON, e.g. {"hand_size": 9}')
    simulate.set_defaults(runner=run_simulate)
    return parser


def run_replay(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.file == "-":
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(errors="replace")  # a bad byte makes a bad line, not a crash
        return replay_lines(stdin, stdout)
    try:
        with open(args.file, encoding="utf-8", errors="replace") as lines:
            return replay_lines(lines, stdout)
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror}") from error


def replay_lines(lines: Iterable[str], stdout: TextIO) -> int:
    all_legal = True
    for line in lines:
        if not line.strip():
            continue
        report = replay_line(line)
        all_legal = all_legal and "error" not in report
        stdout.write(json.dumps(report) + "\n")
    return 0 if all_legal else 1


def replay_line(line: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return error_report(InvalidInput(f"not valid JSON: {error}"), None)
    return replay_record(record)


def run_simulate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:  # noqa: ARG001 - every runner takes the streams
    if args.rounds < 0:
        raise UsageError("--rounds cannot be negative")
    variant = read_variant_option(args.variant)
    try:
        Table(args.table_size, variant)
    except RuleViolation as violation:
        raise UsageError(violation.detail) from violation
    rounds = simulate_rounds(
        table_size=args.table_size, rounds=args.rounds, seed=args.seed, variant=variant
    )
    for state in rounds:
        stdout.write(json.dumps(round_record(state)) + "\n")
    return 0


def read_variant_option(text: str | None) -> Variant:
    if text is None:
        return Variant()
    try:
        return Variant.from_dict(json.loads(text))
    except json.JSONDecodeError as error:
        raise UsageError(f"--variant is not valid JSON: {error}") from error
    except RuleViolation as violation:
        raise UsageError(f"--variant: {violation.detail}") from violation
