"""The fault suite skips on a machine that cannot run it, never in CI."""

import pytest

from tests.faults.stack import skip_unless_in_ci


def test_a_machine_without_the_tools_skips_the_fault_suite_with_the_reason() -> None:
    with pytest.raises(pytest.skip.Exception, match="redis-server is not installed"):
        skip_unless_in_ci("redis-server is not installed", {})


def test_ci_fails_the_fault_suite_that_cannot_run_rather_than_skipping_it() -> None:
    with pytest.raises(pytest.fail.Exception, match="cannot run in CI: redis-server is not"):
        skip_unless_in_ci("redis-server is not installed", {"CI": "true"})
