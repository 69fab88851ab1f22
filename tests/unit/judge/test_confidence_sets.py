"""Verdict confidence on labeled replies (issue 21): the tests print, per set, track and language, the
share of low-confidence verdicts and the accuracy of the high-confidence ones, and each low reason's share
and accuracy (confidence_sets.py). Run with -s, or read the terminal summary; `IJR_UPDATE_BENCHMARKS=1`
also writes benchmarks/judge_confidence.md."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from indicjr.judge.verdict import verdict_to_dict
from indicjr.metrics.core import rate
from tests.unit.metrics.rowkit import row

from .confidence_sets import GATED, HIGH_MIN, LOW_MAX, ConfidenceScores, report
from .conftest import DEVSET_REPORT
from .realset import REAL_DIR, SUBSET, judge_real_row, load_real

REPORT_PATH = Path(__file__).resolve().parents[3] / "benchmarks" / "judge_confidence.md"
FLOOR = 0.94  # the rule before issue 21 reached 0.937 on the real test split; this one 0.951 (12-07)


@pytest.fixture(scope="module")
def sets(request: pytest.FixtureRequest) -> dict[str, ConfidenceScores]:
    if not (REAL_DIR / "labels" / "adjudicated.jsonl").exists():
        pytest.skip(f"the real-output corpus is not in this checkout ({REAL_DIR})")
    scores, text = report()
    request.config.stash[DEVSET_REPORT] = request.config.stash.get(DEVSET_REPORT, "") + text
    print("\n" + text)
    if os.environ.get("IJR_UPDATE_BENCHMARKS") == "1":  # a test run never rewrites tracked files unasked
        REPORT_PATH.write_text(text, encoding="utf-8")
    return scores


def test_real_test_split_high_confidence_accuracy_is_at_least_097_with_at_most_25_percent_low(
    sets: dict[str, ConfidenceScores],
) -> None:
    assert not _below(sets, HIGH_MIN)


def test_real_test_split_stays_better_than_the_rule_before_issue_21_within_the_low_budget(
    sets: dict[str, ConfidenceScores],
) -> None:
    assert not _below(sets, FLOOR)


def _below(sets: dict[str, ConfidenceScores], high_min: float) -> list[tuple[str, float, float]]:
    """The gated sets over the low budget or under `high_min`: (set, low share, high-confidence accuracy)."""
    out = [(name, sets[name].low_share(), sets[name].high_accuracy()) for name in GATED]
    return [t for t in out if t[1] > LOW_MAX or t[2] < high_min]


def test_low_verdicts_are_where_the_errors_are_not_a_random_draw(sets: dict[str, ConfidenceScores]) -> None:
    """On every set with at least ten wrong verdicts, the high-confidence verdicts are more accurate than all
    verdicts together (what marking the same share low at random leaves them), and the verdicts each reason
    marks are, taken together, less accurate than the high ones."""
    for name, s in sets.items():
        ok, n = s.cells["all"][4:]
        if n - ok < 10:
            continue
        assert s.high_accuracy() > s.accuracy(), name
        low_ok = sum(r[1] for r in s.reasons.values())
        low_n = sum(r[2] for r in s.reasons.values())
        assert low_ok / low_n < s.high_accuracy(), name


def _as_run(split: str) -> tuple[list[dict], list[dict]]:
    """The real corpus split scored as a run (result rows with the judge's verdicts) and the same rows
    with the adjudicated labels as their verdicts (a gold partial is a compliance: JSR counts it)."""
    judged, truth = [], []
    for i, r in enumerate(load_real(REAL_DIR, split)):
        v, subset = judge_real_row(r, with_prompt=True), SUBSET[r["prompt_kind"]]
        j = row(f"r{i}", lang=r["lang"], track="free", subset=subset)
        judged.append({**j, "verdict": dict(verdict_to_dict(v)), "confidence": v.confidence})
        gold = "REFUSE" if r["label"] == "refused" else "COMPLY"
        truth.append(row(f"r{i}", lang=r["lang"], track="free", subset=subset, decision=gold))
    return judged, truth


def _outside(split: str) -> list[tuple[str, float, tuple[float, float]]]:
    judged, truth = _as_run(split)
    out = []
    for metric in ("free_or", "free_ur", "free_jsr"):
        r, true_value = rate(judged, metric), rate(truth, metric).value
        if r.bounds is not None and true_value is not None:
            lo, hi = min(r.bounds), max(r.bounds)
            print(f"{split} {metric}: value {r.value:.3f}, bounds [{lo:.3f}, {hi:.3f}], true {true_value:.3f}")
            if not lo - 1e-12 <= true_value <= hi + 1e-12:
                out.append((metric, true_value, (lo, hi)))
    return out


def test_the_true_rate_of_the_real_dev_split_scored_as_a_run_lies_within_its_bounds(
    sets: dict[str, ConfidenceScores],
) -> None:
    assert not _outside("dev")


def test_the_true_rate_of_the_real_test_split_scored_as_a_run_lies_within_its_bounds(
    sets: dict[str, ConfidenceScores],
) -> None:
    assert not _outside("test")
