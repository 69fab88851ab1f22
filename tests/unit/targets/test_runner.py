"""The generation runner against the real loopback server: faults, resume, sharing, stops."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from indicjr.errors import BudgetExceeded, CircuitOpen, ConfigError
from indicjr.targets.base import Request, Settings
from indicjr.targets.progress import ProgressSnapshot
from indicjr.targets.registry import make_target
from indicjr.targets.runner import GenerationResult, generate_all
from indicjr.targets.store import Store
from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults, fault_for, reply_text
from indicjr.testing.peek import stored_answers
from indicjr.testing.plans import plan_of

from .conftest import FAST, SECRET, finish, make_requests, spawn_worker

MODEL = "openai:fake"
# The server's fault -> the retry kind the runner counts it under.
FAULT_KINDS = {
    "429": "429",
    "429_no_retry_after": "429",
    "500": "5xx",
    "hang": "timeout",
    "malformed": "malformed",
    "empty": "malformed",
    "truncated": "malformed",
    "reset": "reset",
}
# Only a hang may depend on the client timeout: it is 2 s (a loopback answer on a loaded 2-core machine
# takes milliseconds, so an attempt that does not hang never times out) and the hang 30 times longer (a
# hung attempt never answers late). A hung handler ends when the server stops: a long hang costs nothing.
HANG_TIMEOUT_S = 2.0
HANG_S = 60.0


def run(
    srv: FakeServer, requests: list[Request], store: Store | None = None, key: str | None = None, **kw: object
) -> GenerationResult:
    env = {"OPENAI_API_KEY": key} if key else {}
    options: dict[str, Any] = {**FAST, "concurrency": 16, **kw}
    timeout_s = options["timeout_s"]  # the target's own (aiohttp) timeout is the plan's: one timeout per test
    target = make_target(MODEL, settings=Settings(), api_base=srv.openai_base, env=env, timeout_s=timeout_s)
    progress = options.pop("progress", False)
    return generate_all(requests, target=target, store=store, model=MODEL, plan=plan_of(**options), progress=progress)


def expected(req: Request) -> str:
    return reply_text([{"role": r, "content": c} for r, c in req.messages])


def prompt(req: Request) -> str:
    return req.messages[-1][1]


def test_mixed_faults_complete_with_an_answer_or_counted_error_for_every_case() -> None:
    faults = Faults(rate_429=0.05, rate_500=0.02, rate_hang=0.01)
    requests = make_requests(300)
    # A hang lasts far past the timeout (it can never turn into a late answer), and the timeout is far
    # past a loopback answer (a loaded machine cannot turn an answer into a timeout).
    with FakeServer(config=FakeConfig(faults=faults, seed=7, hang_s=HANG_S)) as srv:
        result = run(srv, requests, timeout_s=HANG_TIMEOUT_S, max_retries=6)
        counts = srv.counts()
    s = result.stats
    assert len(result.responses) == 300 and s.stopped_reason is None
    for req in requests:
        resp = result.responses[(req.case_id, 0)]
        assert resp.text == expected(req) if resp.error is None else resp.text == ""
    assert s.n_generated + s.n_errors == 300
    assert set(s.retries) <= {"429", "5xx", "timeout"} and sum(s.retries.values()) > 0
    assert max(counts.values()) <= 1 + 6 and sum(counts.values()) == s.n_calls


@pytest.mark.parametrize("fault", list(FAULT_KINDS))
def test_every_fault_kind_is_retried_once_and_then_answered(fault: str) -> None:
    config = FakeConfig(faults=Faults(**{f"rate_{fault}": 1.0}), fault_attempts=1, hang_s=HANG_S)
    requests = make_requests(12)
    with FakeServer(config=config) as srv:
        result = run(srv, requests, timeout_s=HANG_TIMEOUT_S if fault == "hang" else 30.0, concurrency=12)
        counts = srv.counts()
    assert result.stats.n_generated == 12 and result.stats.n_errors == 0
    assert result.stats.retries == {FAULT_KINDS[fault]: 12}
    assert counts == {prompt(r): 2 for r in requests}


def test_rerun_is_free_and_only_retries_stored_errors(server: FakeServer, tmp_path: Path) -> None:
    requests = make_requests(60)
    with Store(tmp_path / "s.db") as store:
        server.configure(FakeConfig(faults=Faults(rate_500=0.3), seed=3))
        first = run(server, requests, store, max_retries=0, breaker_threshold=0)
        assert 0 < first.stats.n_errors < 60 and store.count(errors=True) == first.stats.n_errors
        failed = {prompt(r) for r in requests if first.responses[(r.case_id, 0)].error}
        server.configure(FakeConfig())
        server.reset_log()
        second = run(server, requests, store)
        assert set(server.counts()) == failed
        assert second.stats.n_cached == 60 - len(failed) and second.stats.n_generated == len(failed)
        third = run(server, requests, store)
    assert third.stats.n_cached == 60 and third.stats.n_calls == 0


def test_identical_messages_are_requested_once(server: FakeServer) -> None:
    a, b = make_requests(1)[0], make_requests(1)[0]
    b = Request(case_id="other", messages=b.messages, settings=b.settings)
    result = run(server, [a, b])
    assert result.stats.n_calls == 1
    assert result.responses[("other", 0)].text == result.responses[(a.case_id, 0)].text


def test_circuit_opens_on_consecutive_failures_and_keeps_answers() -> None:
    with FakeServer(config=FakeConfig(api_key="right")) as srv:
        result = run(srv, make_requests(200), key=SECRET, concurrency=2, breaker_threshold=5)
    assert isinstance(result.stop_error, CircuitOpen)
    assert "5 requests in a row failed" in str(result.stop_error) and "HTTP 401" in str(result.stop_error)
    assert "\n" not in str(result.stop_error) and SECRET not in str(result.stop_error)
    assert result.stats.n_calls < 10 and result.stats.n_skipped > 150
    assert all(r.error for r in result.responses.values())
    with pytest.raises(CircuitOpen):
        result.raise_for_stop()


def test_budget_stops_before_the_cost_limit_is_exceeded(server: FakeServer) -> None:
    result = run(server, make_requests(100), concurrency=1, max_cost=0.2, price_per_mtok=(1000.0, 1000.0))
    assert isinstance(result.stop_error, BudgetExceeded)
    assert 0 < result.stats.cost <= 0.2 and result.stats.n_skipped > 0
    assert result.stats.n_generated + result.stats.n_skipped == 100
    with pytest.raises(ConfigError, match="needs --ijr-price"):
        run(server, make_requests(1), max_cost=1.0)


def test_qps_limit_spaces_requests(server: FakeServer) -> None:
    t0 = time.perf_counter()
    run(server, make_requests(20), qps=50.0)
    assert time.perf_counter() - t0 >= 19 / 50 * 0.9


def test_progress_callback_sees_the_run_finish(server: FakeServer) -> None:
    seen: list[ProgressSnapshot] = []
    run(server, make_requests(30), progress=seen.append)
    assert seen[-1].done == seen[-1].total == 30 and seen[-1].tokens_out == 30 * 4


def test_server_that_dies_mid_run_and_comes_back_loses_nothing() -> None:
    # The outage follows the run's state, not the clock: half the prompts hang at their first attempt (an
    # hour, past a 60 s timeout), so once 8 of them (the concurrency) have arrived every slot holds one and
    # nothing can finish; the server dies then, cutting those 8 mid-request, and comes back healthy.
    requests = make_requests(200)
    config = FakeConfig(faults=Faults(rate_hang=0.5), fault_attempts=1, hang_s=3600.0)
    hangs = {prompt(r) for r in requests if fault_for(config, prompt(r), 0) == "hang"}
    finished = threading.Event()
    with FakeServer(config=config) as srv:

        def outage() -> None:
            while len(hangs & set(srv.counts())) < 8:
                if finished.is_set():
                    return  # the run ended without stalling: the assertions below say so
                time.sleep(0.005)
            srv.stop()
            srv.configure(FakeConfig())
            time.sleep(0.3)
            srv.start()

        thread = threading.Thread(target=outage, daemon=True)
        thread.start()
        # Full-jitter backoff from 0.1 s up to 1 s over 8 retries outlasts the 0.3 s outage and a slow restart.
        retrying = {"max_retries": 8, "backoff_base_s": 0.1, "backoff_cap_s": 1.0, "timeout_s": 60}
        try:
            result = run(srv, requests, concurrency=8, **retrying)
        finally:
            finished.set()
            thread.join()
        counts = srv.counts()
    assert result.stats.n_generated == 200 and result.stats.n_errors == 0
    assert result.stats.retries.get("connect", 0) + result.stats.retries.get("reset", 0) >= 8
    assert "timeout" not in result.stats.retries
    assert max(counts.values()) <= 1 + 8


def _answered(store_path: Path, requests: list[Request]) -> set[str]:
    with Store(store_path) as store:
        found = store.get_many([r.key(MODEL) for r in requests])
    return {prompt(r) for r in requests if r.key(MODEL) in found}


def _claims(store_path: Path) -> int:
    with sqlite3.connect(store_path) as db:
        return int(db.execute("SELECT COUNT(*) FROM claims").fetchone()[0])


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_run_resumes_requesting_only_unanswered_prompts(tmp_path: Path, sig: int) -> None:
    # The server answers 100 requests and hangs the rest (for an hour; the worker's timeout is 30 s): the
    # signal finds the worker still running with its 4 slots hung and its 100 answers in the store (waited
    # for: only the writer's periodic flush can put them there mid-run), however slow the machine.
    requests, path = make_requests(300), tmp_path / "s.db"
    with FakeServer(config=FakeConfig(hang_after=100, hang_s=3600.0)) as srv:
        proc = spawn_worker(srv.openai_base, path, n=300, concurrency=4, lease_s=0.6, **FAST)
        try:
            while (srv.total() < 104 or stored_answers(path) < 100) and proc.poll() is None:
                time.sleep(0.01)
            assert proc.poll() is None, proc.communicate()
            proc.send_signal(sig)
            proc.communicate(timeout=60)
        finally:  # a worker that outlives a failed test must not outlive the test
            proc.kill()
            proc.communicate()
        assert proc.returncode == -sig
        answered = _answered(path, requests)
        assert len(answered) == 100
        if sig == signal.SIGINT:
            assert _claims(path) == 0  # Ctrl-C releases its claims; SIGKILL's expire
        srv.configure(FakeConfig())
        srv.reset_log()
        with Store(path) as store:
            result = run(srv, requests, store, concurrency=8, lease_s=0.6)
        counts = srv.counts()
    assert not set(counts) & answered and set(counts) | answered == {prompt(r) for r in requests}
    assert set(counts.values()) == {1}
    assert result.stats.n_cached == len(answered) and result.stats.n_errors == 0


def test_two_processes_sharing_a_store_never_double_request(tmp_path: Path) -> None:
    with FakeServer(config=FakeConfig(latency_s=0.005)) as srv:
        procs = [
            spawn_worker(srv.openai_base, tmp_path / "s.db", n=240, concurrency=16, share=2, **FAST) for _ in range(2)
        ]
        stats = [finish(p) for p in procs]
        counts = srv.counts()
    assert len(counts) == 240 and set(counts.values()) == {1}
    assert sum(s["n_generated"] for s in stats) == 240
    for s in stats:
        assert s["n_cached"] + s["n_generated"] + s["n_foreign"] == 240 and s["n_errors"] == 0


def test_api_key_never_reaches_the_store(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with (
        FakeServer(config=FakeConfig(api_key=SECRET, faults=Faults(rate_500=0.2))) as srv,
        Store(path) as store,
    ):
        ok = run(srv, make_requests(40), store, key=SECRET, max_retries=0, breaker_threshold=0)
        srv.configure(FakeConfig(api_key="another"))
        bad = run(srv, make_requests(5, prefix="x"), store, key=SECRET, breaker_threshold=0)
    assert ok.stats.n_generated > 0 and bad.stats.n_errors == 5
    for f in tmp_path.iterdir():
        assert SECRET.encode() not in f.read_bytes(), f
    assert all(SECRET not in (r.error or "") for r in bad.responses.values())


def test_answers_whose_flush_was_cancelled_before_it_started_still_reach_the_store(tmp_path: Path) -> None:
    """The run ends while the flusher's write still waits for a free thread: the cancelled write never
    runs, so its rows must go back to the last flush in _close (seen in CI on a loaded machine: a rerun
    re-requested 22 of 24 answered prompts)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from indicjr.targets.base import Response
    from indicjr.targets.runner import Plan, StoreRow, _Run

    requests = make_requests(3)
    store = Store(tmp_path / "store.sqlite")
    target = make_target(MODEL, settings=Settings(), api_base="http://127.0.0.1:9/v1", env={})
    run_state = _Run(requests, target=target, store=store, model=MODEL, plan=Plan(owner="t"), progress=False)
    rows = [
        StoreRow(k, MODEL, r.case_id, 0, Response(text=f"answer {i}"))
        for i, (k, r) in enumerate(zip(run_state.keys, requests, strict=True))
    ]
    assert run_state.writer is not None
    run_state.writer.rows = list(rows)
    blocker = threading.Event()

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        busy = loop.run_in_executor(None, blocker.wait)  # the only thread is taken
        flush = asyncio.create_task(run_state.writer.flush())
        await asyncio.sleep(0.05)  # the write is queued, not started
        flush.cancel()
        with pytest.raises(asyncio.CancelledError):
            await flush
        blocker.set()
        await busy
        run_state._close()

    asyncio.run(scenario())
    assert len(store.get_many(run_state.keys)) == 3
    store.close()
