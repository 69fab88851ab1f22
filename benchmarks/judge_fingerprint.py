"""A fingerprint of the judge's verdicts, to prove a speed-only change changes no verdict.

    .venv/bin/python benchmarks/judge_fingerprint.py --out /tmp/judge-before.txt
    ... change the judge ...
    .venv/bin/python benchmarks/judge_fingerprint.py --out /tmp/judge-after.txt --against /tmp/judge-before.txt

Judges every row of tests/data/judge_devset (wording only, as its test does), tests/data/judge_devset_v2
(both splits, with task and prompt), tests/data/holdout/judge (with task and prompt) and the first --n rows
of bench_judge's run mix (with the case, as a run judges, and again without it), and writes one line per
verdict: its set, row number, id and a SHA-1 of the whole verdict (decision, refused, partial, leaks,
json_decision, contradiction, evidence kinds, texts, offsets, sources, rules, entries), then the digest of
all lines. `--against` compares with an earlier file and names the first rows that differ (exit status 1).
Keep the baseline outside the repository: it is a measurement of one commit, not a test fixture.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from indicjr.judge.verdict import Verdict, judge, verdict_to_dict

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "benchmarks"))


def _rows(directory: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in sorted(directory.glob("*.jsonl"))
        for line in path.open(encoding="utf-8")
        if line.strip()
    ]


def _judge(row: dict[str, Any], *, with_case: bool) -> Verdict:
    case = {"task": row.get("task"), "prompt": row.get("prompt")} if with_case else {}
    return judge(
        row["response"],
        case_id=row.get("id", ""),
        lang=row["lang"],
        track=row["track"],
        subset=row["subset"],
        canary=row.get("canary"),
        wrapper_lang=row.get("wrapper_lang"),
        finish_reason=row.get("finish_reason"),
        **case,
    )


def fingerprints(n_run: int) -> Iterator[str]:
    """One line per judged row: '<set> <row> <id> <sha1 of the verdict>'."""
    from bench_judge import run_mix  # the benchmark's own mix, so both measure the same replies

    sets: list[tuple[str, list[dict[str, Any]], bool]] = [
        ("devset", _rows(DATA / "judge_devset"), False),
        ("devset_v2", _rows(DATA / "judge_devset_v2"), True),
        ("holdout", _rows(DATA / "holdout" / "judge"), True),
    ]
    run = run_mix(n_run)
    sets += [("run", run, True), ("run-no-case", run, False)]
    for name, rows, with_case in sets:
        for i, row in enumerate(rows):
            v = verdict_to_dict(_judge(row, with_case=with_case))
            blob = json.dumps(v, ensure_ascii=False, sort_keys=True).encode("utf-8")
            yield f"{name} {i} {row.get('id', '')} {hashlib.sha1(blob).hexdigest()}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where to write the per-row fingerprints")
    ap.add_argument("--n", type=int, default=20_000, help="rows of the run mix")
    ap.add_argument("--against", type=Path, help="an earlier --out file: exit 1 when any row differs")
    args = ap.parse_args()
    lines = list(fingerprints(args.n))
    total = hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()
    args.out.write_text("\n".join(lines) + f"\ntotal {len(lines)} {total}\n", encoding="utf-8")
    print(f"{len(lines)} verdicts, digest {total} -> {args.out}")
    if args.against is None:
        return 0
    before = args.against.read_text(encoding="utf-8").splitlines()
    after = args.out.read_text(encoding="utf-8").splitlines()
    diff = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    if len(before) != len(after):
        diff.append((f"{len(before)} lines", f"{len(after)} lines"))
    for a, b in diff[:20]:
        print(f"differs: {a}  ->  {b}")
    print("identical" if not diff else f"{len(diff)} rows differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
