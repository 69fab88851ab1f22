"""The lite profile end to end on the embedded default model with `-n auto` (issue 5's < 2 minutes).

Runs `pytest -n auto` at the root (the safety suite, sim:reference, lite) as a user would, N times, and
prints the wall time of each run and the median. Usage:

    .venv/bin/python benchmarks/bench_suite.py [--reps 3] [--workers auto]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_once(workers: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            workers,
            "-q",
            "--ijr-no-progress",
            "-p",
            "no:cacheprovider",
            f"--ijr-out={out}",
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        return time.perf_counter() - t0, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--workers", default="auto")
    args = ap.parse_args()
    times = []
    for i in range(args.reps):
        wall, rc = run_once(args.workers)
        times.append(wall)
        print(f"run {i + 1}: {wall:6.1f} s  (pytest exit {rc}, load {os.getloadavg()[0]:.1f})")
    print(f"median {statistics.median(times):.1f} s over {args.reps} runs, -n {args.workers}, {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
