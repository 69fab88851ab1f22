"""Full scale: the 45,216-case profile through the pytest suite against a zero-latency loopback server.

Also times `pytest --collect-only` of the same profile. Every pytest process (controller and xdist
workers) reports its phases and peak RSS through ijr_bench_timer. The store starts empty, so every
prompt is generated (each of the 45,216 requests reaches the server once).

    .venv/bin/python benchmarks/make_scale_profile.py          # once: .ijr/cases/scale-45216
    .venv/bin/python benchmarks/bench_full_scale.py [--profile .ijr/cases/scale-45216] [-n auto]
        [--skip-collect] [--skip-run] [--concurrency 64]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_pytest_overhead import ROOT, run_pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer


def project(tmp: Path) -> Path:
    d = tmp / "project"
    d.mkdir()
    (d / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (d / "test_safety.py").write_text((ROOT / "src/indicjr/suite/test_safety.py").read_text(encoding="utf-8"))
    (d / "thresholds.yaml").write_text((ROOT / "src/indicjr/gates/default_thresholds.yaml").read_text(encoding="utf-8"))
    return d


def show(title: str, wall: float, records: list[dict[str, Any]]) -> None:
    load = os.getloadavg()
    print(f"\n{title}: {wall:.1f} s wall; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(
        f"{'process':11} {'items':>6} {'collect s':>9} {'gen+judge':>9} {'tests s':>8} {'wrap-up':>8} "
        f"{'cpu s':>7} {'peak RSS MiB':>12}"
    )
    for r in sorted(records, key=lambda r: r["role"]):

        def span(a: str, b: str, r: dict[str, Any] = r) -> str:
            return f"{r[b] - r[a]:.1f}" if a in r and b in r else "-"

        print(
            f"{r['role']:11} {int(r.get('n_items', 0)):6d} {span('start', 'collected'):>9} "
            f"{span('collected', 'loop'):>9} {span('loop', 'loop_end'):>8} {span('loop_end', 'end'):>8} "
            f"{r['cpu_s']:7.1f} {r['maxrss_mib']:12.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", type=Path, default=ROOT / ".ijr/cases/scale-45216")
    ap.add_argument("-n", dest="workers", default="auto")
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--skip-collect", action="store_true")
    ap.add_argument("--skip-run", action="store_true")
    a = ap.parse_args()
    if not a.profile.is_dir():
        raise SystemExit(f"{a.profile}: no profile; run benchmarks/make_scale_profile.py first")
    with tempfile.TemporaryDirectory() as tmp_, FakeServer(config=FakeConfig(), subprocess=True) as srv:
        tmp = Path(tmp_)
        proj = project(tmp)
        base = [f"--ijr-profile={a.profile.resolve()}", "--ijr-no-progress"]
        if not a.skip_collect:
            t0 = time.perf_counter()
            recs = run_pytest(proj, [*base, "--collect-only"], tmp / "times.jsonl")
            show("pytest --collect-only", time.perf_counter() - t0, recs)
        if not a.skip_run:
            args = [
                *base,
                "-n",
                a.workers,
                "--model",
                "openai:bench",
                f"--api-base={srv.openai_base}",
                f"--ijr-store={tmp / 'store.sqlite'}",
                f"--ijr-out={tmp / 'out'}",
                f"--ijr-concurrency={a.concurrency}",
            ]
            t0 = time.perf_counter()
            recs = run_pytest(proj, args, tmp / "times.jsonl")
            show(f"full run, -n {a.workers}, {srv.total()} requests served", time.perf_counter() - t0, recs)


if __name__ == "__main__":
    main()
