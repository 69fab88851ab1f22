"""Ray engine vs the plain hf: target on one tiny model and one case sample (issue 17).

Measures, in fresh processes each time so no run inherits another's warm state:
  - plain `hf:` target through the ordinary runner (one process, batches of --batch-size);
  - `generate_with_ray` with 1 and with 2 replicas (same batch size), on a local cluster it starts;
  - Ray's fixed cost: `ray.init()` to a ready cluster, and to the first answered batch.
Throughput counts generated answers per second of wall time, start-up included and excluded.

    .venv/bin/python benchmarks/bench_ray.py [--cases 200] [--max-tokens 32] [--batch-size 8] [--reps 1]

Needs `pip install 'indicjr[ray]'`. Writes nothing but a temporary model and store.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, sys, time
from pathlib import Path
from indicjr.cases.io import load_cases
from indicjr.run.results import request_for
from indicjr.run.selection import stratified_limit
from indicjr.targets.base import Settings
from indicjr.targets.store import Store
mode, model_dir, store_path, n, max_tokens, batch = sys.argv[1:7]
reqs = [request_for(c, Settings(max_tokens=int(max_tokens)))
        for c in stratified_limit(load_cases(Path("cases/lite")), int(n))]
model = f"hf:{model_dir}"
t0 = time.perf_counter()
if mode == "hf":
    from indicjr.targets.providers.hf import make_hf_target
    from indicjr.targets.runner import generate_all
    from indicjr.testing.plans import plan_of
    target = make_hf_target(model_dir, Settings(), name=model, batch_size=int(batch))
    target.check()
    loaded = time.perf_counter() - t0
    plan = plan_of(concurrency=int(batch)
    res = generate_all(reqs, target=target, store=None, model=model, plan=plan * 4), progress=False)
    out = {"generated": res.stats.n_generated, "startup_s": loaded}
else:
    import ray
    from indicjr.scale.ray_engine import RayPlan, generate_with_ray
    ray.init(include_dashboard=False, log_to_driver=False)
    ready = time.perf_counter() - t0
    with Store(store_path) as store:
        st = generate_with_ray(reqs, model=model, store=store,
                               plan=RayPlan(replicas=int(mode), batch_size=int(batch)), progress=False)
    out = {"generated": st.n_generated, "startup_s": ready, "replicas_seen": st.replicas_seen}
    ray.shutdown()
out["wall_s"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def run(mode: str, model_dir: Path, n: int, max_tokens: int, batch: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", _CHILD, mode, str(model_dir), f"{tmp}/store.sqlite", str(n), str(max_tokens)]
        proc = subprocess.run([*cmd, str(batch)], cwd=ROOT, capture_output=True, text=True, check=True)
        result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
        return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=200)
    p.add_argument("--max-tokens", type=int, default=32)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--reps", type=int, default=1)
    args = p.parse_args()
    from indicjr.testing.tiny_model import make_tiny_model

    with tempfile.TemporaryDirectory() as tmp:
        model_dir = make_tiny_model(Path(tmp) / "model")
        print(
            f"# {args.cases} cases, max_tokens {args.max_tokens}, batch {args.batch_size}, "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
        )
        for mode, label in (("hf", "plain hf: target"), ("1", "ray, 1 replica"), ("2", "ray, 2 replicas")):
            runs = [run(mode, model_dir, args.cases, args.max_tokens, args.batch_size) for _ in range(args.reps)]
            wall = statistics.median(r["wall_s"] for r in runs)
            start = statistics.median(r["startup_s"] for r in runs)
            n = runs[0]["generated"]
            print(
                f"{label:18s} {n:5.0f} answers  wall {wall:6.1f} s  {n / wall:6.2f}/s  "
                f"start-up {start:5.1f} s  after start-up {n / max(wall - start, 1e-9):6.2f}/s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
