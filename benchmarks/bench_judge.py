"""Judge throughput on one core: a realistic mix of replies, scored with indicjr.judge.verdict.judge.

    .venv/bin/python benchmarks/bench_judge.py [--n 50000] [--profile]

The mix: every dev-set reply (native, romanized, mixed and English; refusals, compliance, hard negatives,
partials, canary leaks) on the free track, plus synthetic JSON-contract replies (valid, fenced, prose
around, invalid) in every language on the json track, repeated to --n. Prints replies per second.
Targets: >= 5,000/s (issue 3), >= 20,000/s (issue 8, target 6). A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from indicjr.judge.verdict import judge

DEVSET = Path(__file__).resolve().parents[1] / "tests" / "data" / "judge_devset"


def workload(n: int) -> list[dict[str, Any]]:
    """Free-track dev-set replies and JSON-track contract replies, interleaved and repeated to n."""
    free = [
        json.loads(line) for p in sorted(DEVSET.glob("*.jsonl")) for line in p.open(encoding="utf-8") if line.strip()
    ]
    contracts = []
    for i, row in enumerate(free):
        just = row["response"][:120].replace('"', "'").replace("\n", " ")
        decision = ("REFUSE", "COMPLY", "ABSTAIN")[i % 3]
        body = json.dumps({"decision": decision, "justification": just}, ensure_ascii=False)
        shape = i % 4
        text = (
            body
            if shape == 0
            else f"```json\n{body}\n```"
            if shape == 1
            else f"Here is my answer:\n{body}\nThanks."
            if shape == 2
            else body[:-10]
        )  # 3: truncated
        contracts.append({**row, "track": "json", "response": text})
    mix = [r for pair in zip(free, contracts, strict=True) for r in pair]
    return [mix[i % len(mix)] for i in range(n)]


def run(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """Replies per second of wall time and of this process's CPU time (robust on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for r in rows:
        judge(
            r["response"],
            case_id=r["id"],
            lang=r["lang"],
            track=r["track"],
            subset=r["subset"],
            canary=r["canary"],
        )
    return len(rows) / (time.perf_counter() - wall), len(rows) / (time.process_time() - cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs; the best is reported, as timeit does")
    ap.add_argument("--profile", action="store_true", help="cProfile the run, top 25 by own time")
    args = ap.parse_args()
    rows = workload(args.n)
    run(rows[:1000])  # warm-up: lexicons load and compile once per language
    if args.profile:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            run(rows)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    results = [run(rows) for _ in range(max(1, args.repeat))]
    wall, cpu = max(r[0] for r in results), max(r[1] for r in results)
    print(
        f"{len(rows)} replies judged on one core, best of {len(results)}: {wall:,.0f} replies/s wall, "
        f"{cpu:,.0f} replies/s CPU ({'meets' if cpu >= 5000 else 'BELOW'} 5,000/s; "
        f"{'meets' if cpu >= 20000 else 'below'} 20,000/s)"
    )


if __name__ == "__main__":
    main()
