"""Judge throughput on one core: replies scored with indicjr.judge.verdict.judge, two mixes.

    .venv/bin/python benchmarks/bench_judge.py [--mix stress|run] [--n 50000] [--profile]
    .venv/bin/python benchmarks/bench_judge.py --mix run --save-rows /tmp/run-mix.jsonl   # once
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/bench_judge.py --rows /tmp/run-mix.jsonl

--save-rows / --rows: the mix written to (read from) a JSONL file, so that another checkout's judge (an
older commit, on PYTHONPATH) scores exactly the same replies with this harness, without needing this
checkout's simulator or cases. A judge without task grounding (before issue 13) is called without the
case's task and prompt; the line printed says which package was measured.

--mix stress (default, the harder one): every dev-set reply (native, romanized, mixed and English;
refusals, compliance, hard negatives, partials, canary leaks) on the free track, plus synthetic JSON
contract replies (valid, fenced, prose around, truncated) whose justifications are dev-set replies, one
in three a COMPLY (so the contradiction check reads refusal wording) and one in four invalid (so the
free-text detector runs); half the mix is free track, and half of that refuses.
--mix run: what a run judges. The simulator's answers to every case of the shipped `full` profile
(88% JSON track, native/romanized/mixed/noisy orthographies, E2 wrappers) from its four profiles
(reference, paper-gpt-4o, paper-llama-3.3-70b, paper-sarvam-1), generated in-process, repeated to --n.
Prints replies per second. Targets: >= 5,000/s (issue 3), >= 20,000/s (issue 8, target 6).
A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
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


def run_mix(n: int) -> list[dict[str, Any]]:
    """The simulator's replies to the full profile (four profiles), as judge() arguments, repeated to n."""
    from indicjr.cases.io import load_cases
    from indicjr.run.results import request_for
    from indicjr.run.selection import profile_dir
    from indicjr.targets.base import Settings
    from indicjr.targets.sim import make_sim_target

    root = Path(__file__).resolve().parents[1]
    cases = load_cases(profile_dir("full", root=root))
    rows = []
    for name in ("reference", "paper-gpt-4o", "paper-llama-3.3-70b", "paper-sarvam-1"):
        target = make_sim_target(name, Settings())
        for c in cases:
            r = target.respond(request_for(c, Settings()))
            rows.append(
                {
                    "id": c.id,
                    "lang": c.lang,
                    "track": c.track,
                    "subset": c.subset,
                    "canary": c.canary,
                    "wrapper_lang": c.wrapper_lang,
                    "finish_reason": r.finish_reason,
                    "response": r.text,
                    # what verdict_for passes since issue 13: the case's task and the user message as sent
                    "task": c.task,
                    "prompt": next((m.content for m in reversed(c.messages) if m.role == "user"), None),
                }
            )
    return [rows[i % len(rows)] for i in range(n)]


def grounded() -> bool:
    """Whether the judge on the path takes the case's task and prompt (since issue 13)."""
    return "prompt" in inspect.signature(judge).parameters


def _case_task() -> Any:
    """What results.verdict_for passes as the task since issue 20 (a CH case's task is known too); the
    task as stored before it."""
    try:
        from indicjr.judge.pipeline import case_task
    except ImportError:
        return lambda subset, task: task
    return case_task


def run(rows: list[dict[str, Any]], *, with_case: bool = True) -> tuple[float, float]:
    """Replies per second of wall time and of this process's CPU time (robust on a shared machine).
    `with_case`: pass the case's task and prompt (task grounding), as a run does since issue 13."""
    with_case = with_case and grounded()
    known = _case_task()
    wall, cpu = time.perf_counter(), time.process_time()
    for r in rows:
        case = {"task": known(r["subset"], r.get("task")), "prompt": r.get("prompt")} if with_case else {}
        judge(
            r["response"],
            case_id=r["id"],
            lang=r["lang"],
            track=r["track"],
            subset=r["subset"],
            canary=r["canary"],
            wrapper_lang=r.get("wrapper_lang"),
            finish_reason=r.get("finish_reason"),
            **case,
        )
    return len(rows) / (time.perf_counter() - wall), len(rows) / (time.process_time() - cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mix", choices=("stress", "run"), default="stress")
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs; the best is reported, as timeit does")
    ap.add_argument("--profile", action="store_true", help="cProfile the run, top 25 by own time")
    ap.add_argument("--no-case", action="store_true", help="wording only: no task/prompt (as before issue 13)")
    ap.add_argument("--save-rows", type=Path, help="write the mix to this JSONL file, then measure")
    ap.add_argument("--rows", type=Path, help="measure on a mix written by --save-rows (--mix, --n ignored)")
    args = ap.parse_args()
    if args.rows:
        with args.rows.open(encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    else:
        rows = workload(args.n) if args.mix == "stress" else run_mix(args.n)
    if args.save_rows:
        with args.save_rows.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    run(rows[:1000], with_case=not args.no_case)  # warm-up: lexicons load and compile once per language
    if args.profile:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            run(rows, with_case=not args.no_case)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    results = [run(rows, with_case=not args.no_case) for _ in range(max(1, args.repeat))]
    wall, cpu = max(r[0] for r in results), max(r[1] for r in results)
    mix = f"rows of {args.rows}" if args.rows else f"{args.mix} mix"
    case = " (no case)" if args.no_case or not grounded() else ""
    print(
        f"{mix}{case}, judge from {Path(sys.modules[judge.__module__].__file__ or '?').parents[2]}: "
        f"{len(rows)} replies judged on one core, "
        f"best of {len(results)}: {wall:,.0f} replies/s wall, "
        f"{cpu:,.0f} replies/s CPU ({'meets' if cpu >= 5000 else 'BELOW'} 5,000/s; "
        f"{'meets' if cpu >= 20000 else 'below'} 20,000/s); "
        f"each run CPU: {' / '.join(f'{r[1]:,.0f}' for r in results)}"
    )


if __name__ == "__main__":
    main()
