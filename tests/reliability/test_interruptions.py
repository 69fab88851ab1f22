"""Interruptions of a running suite: Ctrl-C writes partial results marked incomplete and the next run
resumes; SIGKILL loses at most the requests in flight; two runs at once share the store safely."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import (
    STALL_ANSWERS,
    STALL_AT,
    STALLING,
    case_rows,
    last_prompt,
    openai_args,
    read_rows,
    read_summary,
    run_suite,
    start_suite,
    suite_cmd,
    suite_env,
    wait_for_requests,
    wait_for_stored,
)

CONCURRENCY = 2


def interrupt_after(proc: subprocess.Popen[str], fake: FakeServer, sig: int) -> str:
    """Send sig once the STALLING server has stalled the run; returns the run's stdout."""
    wait_for_requests(proc, fake, STALL_AT)
    proc.send_signal(sig)
    out, _err = proc.communicate(timeout=120)
    return out


def integrity(store: Path) -> str:
    with sqlite3.connect(store) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def test_ctrl_c_writes_partial_results_marked_incomplete_and_next_run_resumes(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(STALLING)
    args = openai_args(fake, "--ijr-out=out", f"--ijr-concurrency={CONCURRENCY}")
    proc = start_suite(suite, tiny_cases, *args)
    interrupt_after(proc, fake, signal.SIGINT)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED
    summary, rows = read_summary(suite.path / "out"), read_rows(suite.path / "out")
    assert summary["complete"] is False
    assert 0 < len(rows) < len(case_rows(tiny_cases)) and not any(r["verdict"]["error"] for r in rows)
    prompt_of = {r["id"]: last_prompt(r["messages"]) for r in case_rows(tiny_cases)}
    answered = {prompt_of[r["id"]] for r in rows}
    fake.configure(FakeConfig())
    fake.reset_log()
    result = run_suite(suite, tiny_cases, *args)
    assert result.returncode == 0, result.stdout[-2000:]
    requested = set(fake.counts())
    assert not requested & answered and requested | answered == set(prompt_of.values())
    assert read_summary(suite.path / "out")["complete"] is True


def test_sigkill_loses_at_most_the_requests_in_flight(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(STALLING)
    args = openai_args(fake, "--ijr-out=out", f"--ijr-concurrency={CONCURRENCY}")
    store = suite.path / ".ijr" / "store.sqlite"
    proc = start_suite(suite, tiny_cases, *args)
    wait_for_requests(proc, fake, STALL_AT)
    # The run is stalled on hung requests, so only the writer's periodic flush (not the end of the run) can
    # bring its answers to the store: waiting for them is the condition, not a guess at the flush delay.
    wait_for_stored(proc, store, STALL_ANSWERS)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    sent_before = set(fake.counts())
    assert len(sent_before) == STALL_AT and integrity(store) == "ok"
    fake.configure(FakeConfig())
    fake.reset_log()
    result = run_suite(suite, tiny_cases, *args)
    assert result.returncode == 0, result.stdout[-2000:]
    asked_again = set(fake.counts()) & sent_before
    assert len(asked_again) == CONCURRENCY, asked_again  # exactly the requests in flight at the kill
    summary = read_summary(suite.path / "out")
    assert summary["complete"] is True
    assert summary["generation"]["n_cached"] == STALL_ANSWERS


def test_two_runs_at_once_on_one_store_neither_corrupt_it_nor_double_request(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(FakeConfig(latency_s=0.05))
    procs = [
        start_suite(suite, tiny_cases, *openai_args(fake, f"--ijr-out=out{i}", "--ijr-concurrency=4")) for i in range(2)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, out[-2000:] + err[-2000:]
    counts = fake.counts()
    assert len(counts) == len(case_rows(tiny_cases)) and set(counts.values()) == {1}
    assert integrity(suite.path / ".ijr" / "store.sqlite") == "ok"
    for i in range(2):
        rows = read_rows(suite.path / f"out{i}")
        assert len(rows) == len(case_rows(tiny_cases)) and not any(r["verdict"]["error"] for r in rows)


def test_ctrl_c_under_xdist_exits_2_with_partial_results_a_resume_line_and_no_traceback(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    """Ctrl-C in a terminal signals the whole foreground group: the controller and both workers."""
    fake.configure(STALLING)
    args = openai_args(fake, "--ijr-out=out", f"--ijr-concurrency={CONCURRENCY}", "-n", "2")
    proc = start_suite(suite, tiny_cases, *args, new_session=True)
    wait_for_requests(proc, fake, STALL_AT)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, out[-3000:] + err[-2000:]
    assert "Traceback" not in out + err
    resume = [line for line in (out + err).splitlines() if "rerun the same command to resume" in line]
    assert len(resume) == 1, out[-3000:] + err[-2000:]
    summary, rows = read_summary(suite.path / "out"), read_rows(suite.path / "out")
    assert summary["complete"] is False
    assert 0 < len(rows) < len(case_rows(tiny_cases)) and not any(r["verdict"]["error"] for r in rows)


def test_an_xdist_run_counts_each_prompt_once_and_draws_one_progress_line(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    fake.configure(FakeConfig(latency_s=0.05))
    cmd = [a for a in suite_cmd(tiny_cases, *openai_args(fake, "--ijr-out=out", "-n", "2")) if a != "--ijr-no-progress"]
    env = suite_env(suite)
    done = subprocess.run(cmd, cwd=suite.path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    generation = read_summary(suite.path / "out")["generation"]
    n = len(case_rows(tiny_cases))
    assert generation["n_requested"] == n and generation["n_generated"] == n == fake.total()
    progress = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("ijr generate")]
    # Without a terminal the one line is printed at the start, every 10 s (a loaded machine may take that
    # long), and at the end: one start and one end, both of all n prompts; two workers each printing their
    # own would print two of each (or count their own share).
    assert sum(line.startswith(f"ijr generate 0/{n} ") for line in progress) == 1, progress
    assert sum(line.startswith(f"ijr generate {n}/{n} 100%") for line in progress) == 1, progress
    assert progress[0].startswith(f"ijr generate 0/{n} ") and progress[-1].startswith(f"ijr generate {n}/{n} 100%")
    assert all(f"/{n} " in line for line in progress), progress
    assert f"generation: {n} prompts, {n} answered by the model" in done.stdout
