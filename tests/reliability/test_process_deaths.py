"""Processes that die: SIGKILL of the `-n 2` controller stops its workers calling the model within
seconds; a rerun does not wait for the dead run's claims to expire; a crashed worker's case is named
as missing and the run is marked incomplete."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import (
    case_rows,
    openai_args,
    read_summary,
    run_suite,
    start_suite,
    wait_for_requests,
)


def _group_gone(pgid: int, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_sigkill_of_the_xdist_controller_stops_its_workers_within_seconds(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    # 1.5 s per answer, 2 in flight: the 24 cases need 18 s, so orphans that kept calling until the end
    # would be seen however slow the machine; the check waits for the group to go (a condition), not a
    # fixed 2 s that a loaded machine can overrun while the orphans are still shutting down.
    fake.configure(FakeConfig(latency_s=1.5))
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=2", "-n", "2")
    proc = start_suite(suite, tiny_cases, *args, new_session=True, quiet=True)
    try:
        wait_for_requests(proc, fake, 2)
        proc.send_signal(signal.SIGKILL)  # the controller only: its workers are orphaned
        proc.wait(timeout=10)
        assert _group_gone(proc.pid, within_s=60), "orphaned workers are still running"
        settled = fake.total()
        assert settled < len(case_rows(tiny_cases)) // 2, f"orphaned workers kept calling the model: {settled}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_rerun_after_sigkill_takes_over_the_dead_runs_claims_at_once(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    """The dead run's claims name its pid and host: a rerun on the same host sees the pid gone and
    takes them over instead of waiting for the lease (60 s) to expire."""
    fake.configure(FakeConfig(latency_s=0.3))
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=4")
    proc = start_suite(suite, tiny_cases, *args, fast=False, quiet=True)  # the real 60 s lease
    wait_for_requests(proc, fake, 4)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    fake.configure(FakeConfig())
    t0 = time.monotonic()
    result = run_suite(suite, tiny_cases, *args, fast=False)
    took = time.monotonic() - t0
    assert result.returncode == 0, result.stdout[-2000:]
    assert read_summary(suite.path / "out")["complete"] is True
    # Waiting out the dead run's leases would take about 60 s (they were taken a second before the kill);
    # 45 s leaves a loaded machine room to start pytest and answer 24 cases.
    assert took < 45, f"the rerun waited {took:.0f}s for the dead run's claims"


CRASH_ONE = """
import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    if hasattr(item.config, "workerinput") and item.name == "test_case[" + os.environ["IJR_CRASH_CASE"] + "]":
        os._exit(1)  # the worker dies mid-test, the way an OOM kill ends it
"""


def test_a_worker_crash_marks_the_run_incomplete_and_names_the_missing_case(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    suite.makepyfile(crash_one=CRASH_ONE)
    victim = sorted(r["id"] for r in case_rows(tiny_cases))[5]
    args = openai_args(fake, "--ijr-out=out", "-n", "2", "-p", "crash_one")
    result = run_suite(suite, tiny_cases, *args, env={"IJR_CRASH_CASE": victim})
    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout[-3000:]
    summary = read_summary(suite.path / "out")
    assert summary["complete"] is False
    assert summary["missing_case_ids"] == [victim]
    assert f"missing results: 1 case(s) without a row ({victim}); complete: false" in result.stdout
