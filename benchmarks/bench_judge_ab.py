"""Two judges on the same replies, interleaved pass by pass: the fair comparison on a shared machine.

    .venv/bin/python benchmarks/bench_judge.py --mix run --repeat 1 --save-rows /tmp/run-mix.jsonl
    git worktree add /tmp/old 8fa713e
    .venv/bin/python benchmarks/bench_judge_ab.py --rows /tmp/run-mix.jsonl --a /tmp/old/src --b src --rounds 10

Starts one worker process per judge (`PYTHONPATH=<a>` and `PYTHONPATH=<b>`, each running bench_judge.run
from this checkout, so both use the same harness and replies), lets each judge the whole mix once cold
(lexicons compiled, passages and memos filled on the way, as a run meets them), then alternates full
passes a, b, a, b, ... and prints each judge's CPU replies/s per pass, the median and the spread. Separate
runs of bench_judge.py vary by ±15-20% on a loaded two-core machine; alternating passes of two warm
processes see the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import IO

HERE = Path(__file__).resolve().parent


def worker(rows_path: Path) -> None:
    """Judge the mix once per line read from stdin; print CPU replies/s per pass."""
    sys.path.insert(0, str(HERE))
    import bench_judge

    with rows_path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    module = sys.modules[bench_judge.judge.__module__].__file__
    print(json.dumps({"judge": module, "grounded": bench_judge.grounded()}), flush=True)
    for _ in sys.stdin:
        print(json.dumps({"cpu": bench_judge.run(rows)[1]}), flush=True)


def _ask(proc: subprocess.Popen[str]) -> dict[str, object]:
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None
    stdin.write("go\n")
    stdin.flush()
    return dict(json.loads(stdout.readline()))


def _start(src: Path, rows: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(rows)]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def _line(stream: IO[str] | None) -> dict[str, object]:
    assert stream is not None
    return dict(json.loads(stream.readline()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=Path, help="a mix written by bench_judge.py --save-rows")
    ap.add_argument("--a", type=Path, help="source folder of judge a (its `src`)")
    ap.add_argument("--b", type=Path, help="source folder of judge b")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    procs = {name: _start(src, args.rows) for name, src in (("a", args.a), ("b", args.b))}
    for name, proc in procs.items():
        print(f"{name}: {_line(proc.stdout)}")
    cold = {name: float(str(_ask(proc)["cpu"])) for name, proc in procs.items()}
    rates: dict[str, list[float]] = {"a": [], "b": []}
    for _ in range(args.rounds):
        for name, proc in procs.items():
            rates[name].append(float(str(_ask(proc)["cpu"])))
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for name in ("a", "b"):
        r = sorted(rates[name])
        print(
            f"{name}: cold pass {cold[name]:,.0f}/s; warm passes median {statistics.median(r):,.0f}/s "
            f"(min {r[0]:,.0f}, max {r[-1]:,.0f}): " + " / ".join(f"{x:,.0f}" for x in rates[name])
        )
    ratio = [b / a for a, b in zip(rates["a"], rates["b"], strict=True)]
    print(f"b/a per round: median {statistics.median(ratio):.2f} (min {min(ratio):.2f}, max {max(ratio):.2f})")


if __name__ == "__main__":
    main()
