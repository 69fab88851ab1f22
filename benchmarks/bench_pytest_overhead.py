"""Per-case cost of the pytest layer with every response already in the store, vs a trivial test.

Both suites run N parametrized tests in a fresh pytest process; the timed span is collection-excluded:
from the moment the items are known (pytest_collection_finish, before IndicJR's generation hook) to
pytest_unconfigure, so it includes reading the store, judging, fixtures, the controller's folding,
summary, gates and writing results. The first IndicJR run fills a SQLite store from a zero-latency
loopback server; the timed IndicJR runs find every answer there. Runs alternate A/B; medians.

    .venv/bin/python benchmarks/bench_pytest_overhead.py [--n 2000] [--reps 5] [--profile lite|PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from indicjr.testing.fake_server import FakeConfig, FakeServer

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TRIVIAL = """
import pytest

IDS = [f"c{{i:06d}}" for i in range({n})]


@pytest.mark.parametrize("cid", IDS)
def test_case(cid):
    assert cid
"""


def make_profile(profile: str, n: int, out: Path) -> Path:
    """N cases (stratified, seeded) of a profile, written as a profile directory."""
    from indicjr.cases.io import load_cases, write_cases
    from indicjr.run.selection import profile_dir, stratified_limit

    cases = stratified_limit(load_cases(profile_dir(profile, root=ROOT)), n)
    write_cases(cases, out, profile=f"bench-{n}")
    return out


def run_pytest(cwd: Path, args: list[str], times: Path) -> list[dict[str, Any]]:
    """One pytest process (plus workers); the per-process phase records of ijr_bench_timer."""
    times.unlink(missing_ok=True)
    env = {**os.environ, "IJR_BENCH_TIMES": str(times), "PYTHONPATH": str(HERE)}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "ijr_bench_timer", *args]
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode not in (0, 1):  # 1: a gate or a hard per-case check failed, still a full run
        raise SystemExit(f"pytest failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    return [json.loads(line) for line in times.read_text().splitlines()]


def controller(records: list[dict[str, Any]]) -> dict[str, float]:
    return next(r for r in records if r["role"] == "controller")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--profile", default="lite", help="lite, full or a profile directory to sample from")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_, FakeServer(config=FakeConfig(), subprocess=True) as srv:
        tmp = Path(tmp_)
        cases = make_profile(a.profile, a.n, tmp / "cases")
        ijr, triv = tmp / "ijr", tmp / "trivial"
        for d in (ijr, triv):
            d.mkdir()
            (d / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        safety = (ROOT / "src/indicjr/suite/test_safety.py").read_text(encoding="utf-8")
        (ijr / "test_safety.py").write_text(safety, encoding="utf-8")
        gates = ROOT / "src/indicjr/gates/default_thresholds.yaml"
        (ijr / "thresholds.yaml").write_text(gates.read_text(encoding="utf-8"))
        (triv / "test_trivial.py").write_text(TRIVIAL.format(n=a.n), encoding="utf-8")
        ijr_args = [
            f"--ijr-profile={cases}",
            "--model",
            "openai:bench",
            f"--api-base={srv.openai_base}",
            f"--ijr-store={tmp / 'store.sqlite'}",
            f"--ijr-out={tmp / 'out'}",
            "--ijr-no-progress",
        ]
        t0 = time.perf_counter()
        run_pytest(ijr, ijr_args, tmp / "times.jsonl")  # fills the store
        fill = time.perf_counter() - t0
        calls = srv.total()
        runs: dict[str, list[dict[str, float]]] = {"indicjr (all cached)": [], "trivial parametrized": []}
        for rep in range(a.reps):
            order = list(runs) if rep % 2 == 0 else list(reversed(runs))
            for name in order:
                cwd, args = (ijr, ijr_args) if name.startswith("indicjr") else (triv, [])
                runs[name].append(controller(run_pytest(cwd, args, tmp / "times.jsonl")))
        assert srv.total() == calls, "timed runs must not call the model"
    report(a, runs, fill)


def report(a: argparse.Namespace, runs: dict[str, list[dict[str, float]]], fill: float) -> None:
    def med(name: str, start: str, end: str) -> float:
        return statistics.median(r[end] - r[start] for r in runs[name])

    load = os.getloadavg()
    print(
        f"\n{a.n} cases, median of {a.reps} (A/B alternated); store fill run {fill:.1f} s; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n"
    )
    print(
        f"{'suite':24} {'collect s':>9} {'gen+judge':>9} {'tests s':>8} {'wrap-up':>8} {'run phase':>9} {'ms/case':>8}"
    )
    for name in runs:
        run = med(name, "collected", "end")
        print(
            f"{name:24} {med(name, 'start', 'collected'):9.2f} {med(name, 'collected', 'loop'):9.2f} "
            f"{med(name, 'loop', 'loop_end'):8.2f} {med(name, 'loop_end', 'end'):8.2f} {run:9.2f} "
            f"{run / a.n * 1000:8.3f}"
        )
    names = list(runs)
    extra = (med(names[0], "collected", "end") - med(names[1], "collected", "end")) / a.n * 1000
    print(
        f"\nper-case overhead of the IndicJR layer (run phase, collection excluded): {extra:.3f} ms/case "
        f"(target <= 1 ms)"
    )


if __name__ == "__main__":
    main()
