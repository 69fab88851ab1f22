"""Verdict confidence on the labeled sets (issue 21): per set, the share of low-confidence verdicts and the
accuracy of the high-confidence ones, per track and per language, and each low reason's share and the
accuracy of the verdicts it marks (a reason that marks right verdicts only spends the low budget).

Sets: the real-output corpus (tests/data/judge_real, test and dev splits, both judging modes), the judge v2
set's test split (own test) and dev split, the held-out set (tests/data/holdout/judge) and the 72 labeled
real-run replies (benchmarks/real_runs_labels). The reasons were designed on real dev, v2 dev and the real
runs; real test, v2 test and the held-out set are measured, never tuned on.

Right means the refused-or-not reading matches the label (realset.py and devset_v2.py define it; a gold
partial of the real corpus counts in the low share and is left out of the accuracy, as realset.py does; a
JSON verdict is right when its contract decision is). Shared by test_confidence_sets.py and
`python -m tests.unit.judge.confidence_sets [set ...]`; knows nothing of pytest.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from indicjr.judge.verdict import Verdict

from .devset_v2 import disputes_contract_rule, judge_v2_row, load_v2
from .realset import REAL_DIR, judge_real_row, load_real, predicted
from .test_real_runs_offtopic import judged_runs

ROOT = Path(__file__).resolve().parents[3]
HOLDOUT = ROOT / "tests" / "data" / "holdout" / "judge"
LOW_MAX, HIGH_MIN = 0.25, 0.97  # issue 21's done-when on the real-output test split

Item = tuple[str, str, Verdict, bool | None]  # track, language, verdict, right (None: not scored)


def _real(split: str, with_prompt: bool) -> Iterator[Item]:
    for row in load_real(REAL_DIR, split):
        v = judge_real_row(row, with_prompt=with_prompt)
        ok = None if row["label"] == "partial" else (predicted(v) == "refused") == (row["label"] == "refused")
        yield "free", str(row["lang"]), v, ok


def _v2(rows: Iterable[dict]) -> Iterator[Item]:
    for row in rows:
        v = judge_v2_row(row)
        if row["track"] == "json":
            ok = None if disputes_contract_rule(row) else v.json_decision == row["gold"].get("decision")
        else:
            ok = (v.refused or v.partial) == bool(row["gold"]["refused"])
        yield str(row["track"]), str(row["lang"]), v, ok


def _runs() -> Iterator[Item]:
    """The labeled real-run replies judged as the suite judges them (test_real_runs_offtopic.py)."""
    for r, label, v in judged_runs():
        yield "free", str(r["lang"]), v, None if label == "partial" else v.refused == (label == "refused")


SETS: dict[str, Callable[[], Iterable[Item]]] = {
    "real test, with prompt": lambda: _real("test", True),
    "real test, reply only": lambda: _real("test", False),
    "real dev, with prompt": lambda: _real("dev", True),
    "real dev, reply only": lambda: _real("dev", False),
    "own test (v2 test)": lambda: _v2(load_v2("test")),
    "held-out": lambda: _v2(load_v2(None, HOLDOUT)),
    "v2 dev": lambda: _v2(load_v2("dev")),
    "real runs (72)": _runs,
}
GATED = ("real test, with prompt", "real test, reply only")


@dataclass
class ConfidenceScores:
    """Counted once over a set: per group [rows, low, high right, high scored, right, scored]; per reason
    [rows, right, scored] over the verdicts it marks."""

    cells: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0, 0, 0]))
    reasons: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))

    def low_share(self, key: str = "all") -> float:
        n, low = self.cells[key][:2]
        return low / n if n else 0.0

    def high_accuracy(self, key: str = "all") -> float:
        ok, n = self.cells[key][2:4]
        return ok / n if n else 1.0

    def accuracy(self, key: str = "all") -> float:
        """Of every scored verdict: what high-confidence accuracy is, in expectation, when the low verdicts
        are drawn at random."""
        ok, n = self.cells[key][4:]
        return ok / n if n else 1.0


def score_confidence(items: Iterable[Item]) -> ConfidenceScores:
    s = ConfidenceScores()
    for track, lang, v, ok in items:
        low = v.confidence == "low"
        for key in ("all", f"track={track}", f"lang={lang}"):
            c = s.cells[key]
            c[0], c[1] = c[0] + 1, c[1] + low
            if ok is not None:
                c[4], c[5] = c[4] + ok, c[5] + 1
            if ok is not None and not low:
                c[2], c[3] = c[2] + ok, c[3] + 1
        for e in v.evidence:
            if e.kind == "low_confidence":
                r = s.reasons[e.text]
                r[0] += 1
                if ok is not None:
                    r[1], r[2] = r[1] + ok, r[2] + 1
    return s


def _pct(a: int, n: int) -> str:
    return f"{a / n:.3f} ({a}/{n})" if n else "–"


def render_confidence(scores: dict[str, ConfidenceScores]) -> str:
    """Per set: low share and high-confidence accuracy per track and language, then the reasons table."""
    lines = ["# Verdict confidence on the labeled sets (issue 21)", ""]
    lines += ["| set | group | low share | high-confidence accuracy | all verdicts |", "|---|---|---|---|---|"]
    for name, s in scores.items():
        keys = ["all", *sorted(k for k in s.cells if k.startswith(("track=", "lang=")))]
        for k in keys:
            n, low, ok, hn, a_ok, a_n = s.cells[k]
            lines.append(f"| {name} | {k} | {_pct(low, n)} | {_pct(ok, hn)} | {_pct(a_ok, a_n)} |")
    lines += ["", "All verdicts: the accuracy a random choice of low verdicts would leave to the high ones.", ""]
    lines += ["Low reasons (a verdict may have several): rows marked, share of the set, accuracy of those rows", ""]
    lines += ["| set | reason | rows | share | accuracy |", "|---|---|---|---|---|"]
    for name, s in scores.items():
        n = s.cells["all"][0]
        for reason, (m, ok, scored) in sorted(s.reasons.items(), key=lambda kv: -kv[1][0]):
            lines.append(f"| {name} | {reason} | {m} | {m / max(n, 1):.3f} | {_pct(ok, scored)} |")
    return "\n".join(lines) + "\n"


def report(names: Iterable[str] = tuple(SETS)) -> tuple[dict[str, ConfidenceScores], str]:
    scores = {name: score_confidence(SETS[name]()) for name in names}
    return scores, render_confidence(scores)


if __name__ == "__main__":  # python -m tests.unit.judge.confidence_sets ["real test, with prompt" ...]
    print(report(sys.argv[1:] or tuple(SETS))[1])
