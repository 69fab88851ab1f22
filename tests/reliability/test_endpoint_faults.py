"""Endpoint faults through the whole suite (`--model openai:test --api-base <loopback>`): every case
ends with a verdict or a counted inference error, the run completes or stops with a clear reason, and
the next run requests only what was not answered (the fake server's request log is the witness)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults, fault_for
from tests.reliability.conftest import case_rows, last_prompt, openai_args, read_rows, read_summary, run_suite


def assert_every_case_accounted(out: Path, profile: Path) -> set[str]:
    """One row per case, each a verdict or an error, errors counted; returns the errored prompts."""
    prompt_of = {r["id"]: last_prompt(r["messages"]) for r in case_rows(profile)}
    rows, summary = read_rows(out), read_summary(out)
    assert sorted(r["id"] for r in rows) == sorted(prompt_of)
    errored = {r["id"] for r in rows if r["verdict"]["error"]}
    assert all(r["verdict"]["decision"] for r in rows if r["id"] not in errored)
    gen = summary["generation"]
    assert summary["headline"]["n_inference_errors"] == len(errored) == gen["n_errors"] + gen["n_skipped"]
    return {prompt_of[i] for i in errored}


def assert_rerun_requests_only_unanswered(
    suite: pytest.Pytester, profile: Path, fake: FakeServer, unanswered: set[str]
) -> None:
    fake.configure(FakeConfig())
    fake.reset_log()
    result = run_suite(suite, profile, *openai_args(fake, "--ijr-out=rerun"))
    assert result.returncode == 0, result.stdout[-2000:]
    counts = fake.counts()
    assert set(counts) == unanswered and set(counts.values()) <= {1}
    summary = read_summary(suite.path / "rerun")
    assert summary["headline"]["n_inference_errors"] == 0 and summary["complete"] is True
    assert summary["generation"]["n_cached"] == len(case_rows(profile)) - len(unanswered)


FAULTS = [
    pytest.param(
        FakeConfig(faults=Faults(rate_429=0.25, rate_429_no_retry_after=0.25)),
        "429",
        id="429-storm-with-and-without-retry-after",
    ),
    pytest.param(FakeConfig(faults=Faults(rate_500=0.5)), "5xx", id="5xx-burst"),
    pytest.param(FakeConfig(faults=Faults(rate_hang=0.5), hang_s=60.0), "timeout", id="hang-past-timeout"),
    pytest.param(FakeConfig(faults=Faults(rate_reset=0.5)), "reset", id="connection-reset"),
    pytest.param(
        FakeConfig(faults=Faults(rate_malformed=0.17, rate_empty=0.17, rate_truncated=0.16)),
        "malformed",
        id="malformed-empty-and-cut-bodies",
    ),
]


@pytest.mark.parametrize(("config", "kind"), FAULTS)
def test_endpoint_fault_ends_every_case_with_verdict_or_counted_error_and_rerun_requests_only_unanswered(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, config: FakeConfig, kind: str
) -> None:
    fake.configure(config)
    # Only the hang depends on the timeout: 1 s against a 60 s hang, which never answers late. Every other
    # fault runs with openai_args' generous timeout, so a loaded machine cannot add timeouts to it.
    timeout = ["--ijr-timeout=1"] if kind == "timeout" else []
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out", *timeout))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    summary = read_summary(suite.path / "out")
    assert summary["complete"] is True
    assert summary["generation"]["retries"].get(kind, 0) > 0
    unanswered = assert_every_case_accounted(suite.path / "out", tiny_cases)
    assert_rerun_requests_only_unanswered(suite, tiny_cases, fake, unanswered)


def test_server_that_dies_mid_run_and_comes_back_loses_no_answer(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    # The outage follows the run's state, not the clock: half the prompts hang at their first attempt (an
    # hour; the timeout is a minute), so once 4 of them (the concurrency) have arrived every slot holds one
    # and the run cannot go on; the server dies then, cutting those requests, and comes back healthy.
    config = FakeConfig(faults=Faults(rate_hang=0.5), fault_attempts=1, hang_s=3600.0)
    hangs = {last_prompt(r["messages"]) for r in case_rows(tiny_cases)}
    hangs = {p for p in hangs if fault_for(config, p, 0) == "hang"}
    assert len(hangs) >= 4
    fake.configure(config)

    finished = threading.Event()

    def outage() -> None:
        while len(hangs & set(fake.counts())) < 4:
            if finished.is_set():
                return  # the run ended without stalling: the assertions below say so
            time.sleep(0.01)
        fake.stop()
        fake.configure(FakeConfig())
        time.sleep(0.3)
        fake.start()

    thread = threading.Thread(target=outage, daemon=True)
    thread.start()
    # the real retry schedule (not fast_retries): its backoff outlasts a short outage
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=4", "--ijr-timeout=60")
    try:
        result = run_suite(suite, tiny_cases, *args, fast=False)
    finally:
        finished.set()
        thread.join()
    assert result.returncode == 0, result.stdout[-3000:]
    summary = read_summary(suite.path / "out")
    assert summary["complete"] is True
    retries = summary["generation"]["retries"]
    assert retries.get("connect", 0) + retries.get("reset", 0) >= 4 and "timeout" not in retries
    unanswered = assert_every_case_accounted(suite.path / "out", tiny_cases)
    assert_rerun_requests_only_unanswered(suite, tiny_cases, fake, unanswered)


def test_dead_endpoint_stops_the_run_with_a_clear_reason_and_counted_errors(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(FakeConfig(faults=Faults(rate_500=1.0)))
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out", "--ijr-concurrency=2"))
    assert result.returncode == 6, result.stdout[-3000:]
    assert "circuit open" in result.stdout
    summary = read_summary(suite.path / "out")
    assert summary["complete"] is False and "circuit open" in summary["generation"]["stopped_reason"]
    unanswered = assert_every_case_accounted(suite.path / "out", tiny_cases)
    assert len(unanswered) == len(case_rows(tiny_cases))
