"""`ijr generate --engine ray` on a real local Ray cluster with a tiny random model made in the test.

Two CPU replicas answer a few hundred cases into the SQLite store, each exactly once; a rerun generates
nothing; the pytest gate then runs on the stored answers with zero model calls; a replica killed mid-run
is restarted by Ray and no case is lost or answered twice.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases, write_cases
from indicjr.run.results import request_for
from indicjr.run.selection import stratified_limit
from indicjr.targets.base import Request, Settings
from indicjr.targets.store import Store

ray = pytest.importorskip("ray", reason="the Ray engine needs the optional extra: pip install 'indicjr[ray]'")
pytest.importorskip("torch", reason="the tiny model needs the hf extra: pip install 'indicjr[hf]'")
pytest.importorskip("transformers", reason="the tiny model needs the hf extra: pip install 'indicjr[hf]'")

from indicjr.scale.ray_engine import RayPlan, generate_with_ray  # noqa: E402
from indicjr.testing.tiny_model import make_tiny_model  # noqa: E402

# Ray's own modules raise DeprecationWarnings about their internal settings; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
LITE = Path(__file__).resolve().parents[3] / "cases" / "lite"
SETTINGS = Settings(max_tokens=8)
N_CASES = 240


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("tiny") / "model")


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local Ray cluster for the module (4 logical CPUs: two 1-CPU replicas and room to spare)."""
    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def case_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cases") / "sample"
    write_cases(stratified_limit(load_cases(LITE), N_CASES), out, profile="sample")
    return out


def _requests(case_dir: Path) -> list[Request]:
    return [request_for(c, SETTINGS) for c in load_cases(case_dir)]


def _rows_per_key(store_path: Path) -> dict[str, int]:
    with sqlite3.connect(store_path) as db:
        return dict(db.execute("SELECT key, count(*) FROM responses GROUP BY key").fetchall())


def test_two_replicas_answer_every_case_once_and_a_rerun_generates_nothing(
    tiny_model: Path, cluster: None, case_dir: Path, tmp_path: Path
) -> None:
    requests = _requests(case_dir)
    model = f"hf:{tiny_model}"
    store_path = tmp_path / "store.sqlite"
    with Store(store_path) as store:
        first = generate_with_ray(requests, model=model, store=store, plan=RayPlan(replicas=2), progress=False)
        again = generate_with_ray(requests, model=model, store=store, plan=RayPlan(replicas=2), progress=False)
        stored = store.get_many(r.key(model) for r in requests)
    assert (first.n_generated, first.n_errors, first.n_duplicates_dropped) == (len(requests), 0, 0)
    assert first.replicas_seen == 2
    assert set(stored) == {r.key(model) for r in requests}
    assert set(_rows_per_key(store_path).values()) == {1}
    assert all(r.output_tokens <= SETTINGS.max_tokens and r.input_tokens > 0 for r in stored.values())
    assert (again.n_generated, again.n_stored_before, again.startup_s) == (0, len(requests), 0.0)


def _replica_pids() -> list[int]:
    """Replica processes on this machine: Ray names an actor's process after its class (Linux /proc)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if b"MapBatches(HFReplica)" in cmd:
                pids.append(int(entry.name))
    return sorted(pids)


def _kill_one_replica_when(store_path: Path, at_least: int, killed: list[int], finished: threading.Event) -> None:
    """Wait until the store holds `at_least` answers, then SIGKILL one replica process. It waits as long as
    the run goes on (`finished` not set), not for a fixed time: on a loaded CI machine the first 16 answers
    of two CPU replicas can take minutes, and a deadline passing first left the run unkilled."""
    while not finished.is_set():
        try:
            with sqlite3.connect(store_path) as db:
                n = db.execute("SELECT count(*) FROM responses").fetchone()[0]
        except sqlite3.Error:
            n = 0
        pids = _replica_pids()
        if n >= at_least and pids:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])
            return
        time.sleep(0.05)


def test_a_killed_replica_is_restarted_and_no_case_is_lost_or_answered_twice(
    tiny_model: Path, cluster: None, case_dir: Path, tmp_path: Path
) -> None:
    requests = _requests(case_dir)
    model = f"hf:{tiny_model}"
    store_path = tmp_path / "store.sqlite"
    killed: list[int] = []
    finished = threading.Event()
    with Store(store_path) as store:
        killer = threading.Thread(target=_kill_one_replica_when, args=(store_path, 16, killed, finished), daemon=True)
        killer.start()
        try:
            stats = generate_with_ray(
                requests, model=model, store=store, plan=RayPlan(replicas=2, batch_size=4), progress=False
            )
        finally:
            finished.set()
            killer.join()
    assert killed, "no replica process was found to kill"
    assert stats.n_generated == len(requests) and stats.n_errors == 0
    rows = _rows_per_key(store_path)
    assert set(rows) == {r.key(model) for r in requests} and set(rows.values()) == {1}
    assert stats.replicas_seen >= 2


def test_pytest_gate_after_ray_generation_calls_no_model(
    tiny_model: Path, case_dir: Path, tmp_path: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pytest --ijr-engine ray` fills the store on Ray, then the suite finds every answer stored;
    a second plain run (no Ray) reads the same answers: zero model calls."""
    for var in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(var, raising=False)
    from indicjr.pytest_plugin.suite import SUITE_FILE

    safety = Path(SUITE_FILE).read_text(encoding="utf-8")
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(test_safety=safety)
    store = tmp_path / "store.sqlite"
    common = [
        f"--model=hf:{tiny_model}",
        f"--ijr-profile={case_dir}",
        f"--ijr-store={store}",
        "--ijr-max-tokens=8",
        "--ijr-limit=60",
        "--ijr-no-progress",
        "-p",
        "no:cacheprovider",
    ]
    first = pytester.runpytest_subprocess(*common, "--ijr-engine=ray", "--ijr-replicas=2", "--ijr-out=run1")
    assert "ijr generate (ray): 60 answered by" in first.stderr.str()
    second = pytester.runpytest_subprocess(*common, "--ijr-out=run2")
    for run in ("run1", "run2"):
        generation = json.loads((pytester.path / run / "summary.json").read_text(encoding="utf-8"))["generation"]
        assert generation["n_generated"] == 0 and generation["n_calls"] == 0, generation
        assert generation["n_cached"] == 60
    assert first.ret == second.ret


def test_ctrl_c_keeps_every_answer_received_and_a_rerun_requests_only_the_rest(
    tiny_model: Path, cluster: None, case_dir: Path, tmp_path: Path
) -> None:
    from indicjr.scale.ray_engine import RayInterrupted

    requests = _requests(case_dir)[:64]
    model = f"hf:{tiny_model}"

    calls: list[object] = []

    def interrupt(snapshot: object) -> None:  # a Ctrl-C at the first progress report, once
        calls.append(snapshot)
        if len(calls) == 1:
            raise KeyboardInterrupt

    with Store(tmp_path / "store.sqlite") as store:
        with pytest.raises(RayInterrupted) as stopped:
            generate_with_ray(requests, model=model, store=store, plan=RayPlan(batch_size=8), progress=interrupt)
        kept = stopped.value.stats.n_generated
        assert 0 < kept < len(requests) and store.count() == kept
        rest = generate_with_ray(requests, model=model, store=store, plan=RayPlan(batch_size=8), progress=False)
    assert (rest.n_stored_before, rest.n_generated) == (kept, len(requests) - kept)


def test_ijr_generate_cli_fills_the_store_and_rejects_non_hf_models(
    tiny_model: Path, cluster: None, case_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from indicjr.cli import main

    store = tmp_path / "s.sqlite"
    args = ["generate", "--engine", "ray", "--profile", str(case_dir), "--limit", "24", "--store", str(store)]
    assert main([*args, "--model", f"hf:{tiny_model}", "--max-tokens", "4", "--no-progress"]) == 0
    assert "24 answered by" in capsys.readouterr().out
    assert main([*args, "--model", "openai:gpt-4o"]) == 4
    assert "needs --model hf:PATH" in capsys.readouterr().err
