"""SIGTERM mid-generation (a CI timeout, `kill`, a container stop) is handled like Ctrl-C: the answers stay
in the store, results.jsonl and summary.json are written with complete: false, one line says how to
resume, and the rerun asks the server only for what is missing — with and without pytest-xdist."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import (
    STALL_AT,
    STALLING,
    case_rows,
    last_prompt,
    openai_args,
    read_rows,
    read_summary,
    run_suite,
    start_suite,
    wait_for_requests,
)


def term_after(suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, *args: str) -> tuple[int, str, str]:
    """Start the suite on the STALLING server, SIGTERM the controller (alone, as `timeout` and CI runners do)
    once the run is stalled; (exit code, stdout, stderr)."""
    fake.configure(STALLING)
    proc = start_suite(suite, tiny_cases, *args)
    wait_for_requests(proc, fake, STALL_AT)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "xdist-2"])
def test_sigterm_writes_partial_results_and_the_rerun_asks_only_what_is_missing(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, xdist: list[str]
) -> None:
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=2", *xdist)
    code, out, err = term_after(suite, tiny_cases, fake, *args)

    assert code == pytest.ExitCode.INTERRUPTED, out[-2000:] + err[-2000:]
    assert "Traceback" not in out + err, out[-2000:] + err[-2000:]
    summary, rows = read_summary(suite.path / "out"), read_rows(suite.path / "out")
    total = len(case_rows(tiny_cases))
    assert summary["complete"] is False and 0 < len(rows) < total
    assert not any(r["verdict"]["error"] for r in rows)
    resume = [line for line in out.splitlines() if "rerun the same command to resume" in line]
    assert len(resume) == 1 and "(complete: false)" in resume[0], out[-2000:]

    prompt_of = {r["id"]: last_prompt(r["messages"]) for r in case_rows(tiny_cases)}
    answered = {prompt_of[r["id"]] for r in rows}
    fake.configure(FakeConfig())
    fake.reset_log()
    result = run_suite(suite, tiny_cases, *args)
    assert result.returncode == 0, result.stdout[-2000:]
    requested = set(fake.counts())
    assert not requested & answered  # nothing kept was asked again
    assert requested | answered == set(prompt_of.values()) and fake.total() == total - len(answered)
    assert read_summary(suite.path / "out")["complete"] is True


def test_summary_names_sigterm_as_the_reason_generation_stopped(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=2")
    term_after(suite, tiny_cases, fake, *args)
    stopped = read_summary(suite.path / "out")["generation"]["stopped_reason"]
    assert stopped == "interrupted (SIGTERM) during generation"
