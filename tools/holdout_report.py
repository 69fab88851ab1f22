"""Report (never gate) the judge and the romanizer on the held-out sets (tests/data/holdout).

Usage: python tools/holdout_report.py [judge|romanization ...] [--scoring ijr|paper]
The sets are for measurement only: see tests/data/holdout/README.md before changing anything because
of what this prints.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT = ROOT / "tests" / "data" / "holdout"
sys.path.insert(0, str(ROOT))


def judge_report(scoring: str) -> str:
    from tests.unit.judge.devset_v2 import load_v2, render_v2, score_v2

    rows = load_v2(None, HOLDOUT / "judge")
    for r in rows:
        r.setdefault("split", "holdout")
    return render_v2(score_v2(rows, scoring=scoring), "holdout")


def romanization_report() -> str:
    from indicjr.cases.orthography import romanize_line
    from indicjr.cases.romanref import load_ref, word_agreement
    from indicjr.langs import LANGS

    lines = ["| lang | words | agreement |", "|---|---|---|"]
    n = ok = 0
    for lang in LANGS:
        a = word_agreement(lang, load_ref(lang, HOLDOUT / "romanization"), lambda s, lang=lang: romanize_line(s, lang))
        n, ok = n + a.words, ok + a.agreed
        lines.append(f"| {lang} | {a.words} | {a.share:.3f} |")
    lines.append(f"| **all** | {n} | {ok / n:.3f} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", help="judge and/or romanization (default: both)")
    ap.add_argument("--scoring", choices=["ijr", "paper"], default="ijr")
    args = ap.parse_args(argv)
    args.sets = args.sets or ["judge", "romanization"]
    if not set(args.sets) <= {"judge", "romanization"}:
        ap.error(f"unknown set(s) {sorted(set(args.sets) - {'judge', 'romanization'})}: judge or romanization")
    if "judge" in args.sets:
        print(judge_report(args.scoring))
    if "romanization" in args.sets:
        print("\n# Romanization held-out set: word agreement\n")
        print(romanization_report())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
