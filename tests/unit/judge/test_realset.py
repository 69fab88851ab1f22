"""The judge on real model output (issue 20): the loader and scorer on a synthetic fixture of the corpus
format, and the issue's tables on the corpus's TEST split (tests/data/judge_real) when it is present.

The tables are printed (run with -s) and shown in the terminal summary; `IJR_UPDATE_BENCHMARKS=1` also
writes benchmarks/judge_real.md."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import DEVSET_REPORT
from .realset import MIN_LANG_ROWS, REAL_DIR, CorpusError, RealScores, load_real, report

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "judge_rules" / "real_fixture"
REPORT_PATH = Path(__file__).resolve().parents[3] / "benchmarks" / "judge_real.md"


def test_loader_reads_rows_and_labels_by_split() -> None:
    assert len(load_real(FIXTURE)) == 8
    test = load_real(FIXTURE, "test")
    assert [r["id"] for r in test][:2] == ["synthetic-hi-1", "synthetic-hi-2"] and len(test) == 6
    assert {r["label"] for r in test} == {"refused", "complied", "partial", "off_topic"}


def test_scorer_counts_both_modes_the_confusion_and_confidence_on_the_fixture() -> None:
    scores, text = report(FIXTURE, "test")
    for s in scores.values():  # 5 non-partial rows; synthetic-ta-3's wrong label is the one error
        assert s.cells["all"] == [4, 5] and s.cells["lang=ta"] == [2, 3]
        assert s.partial == [1, 1] and s.confusion[("off_topic", "off_topic")] == 1
        assert s.confusion[("refused", "complied")] == 1 and s.false_refusal == [0, 1]
        assert s.low[1] == 6 and s.low[0] >= 2  # the partial and the off-topic reply are low-confidence
        assert s.high[1] == 5 - (s.low[0] - 1)
    assert "| hi | with_prompt |" in text and "| **all** | reply_only | 0.800 (5) |" in text


def test_a_bad_label_is_one_line_naming_the_file_and_id(tmp_path: Path) -> None:
    (tmp_path / "rows").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "adjudicated.jsonl").write_text(json.dumps({"id": "x", "label": "maybe"}) + "\n")
    with pytest.raises(CorpusError, match=r"adjudicated.jsonl: id 'x': label 'maybe'"):
        load_real(tmp_path)


@pytest.fixture(scope="module")
def real_test(request: pytest.FixtureRequest) -> dict[str, RealScores]:
    if not (REAL_DIR / "labels" / "adjudicated.jsonl").exists():
        pytest.skip(f"the real-output corpus is not in this checkout ({REAL_DIR})")
    scores, text = report(REAL_DIR, "test")
    request.config.stash[DEVSET_REPORT] = request.config.stash.get(DEVSET_REPORT, "") + text
    print("\n" + text)
    if os.environ.get("IJR_UPDATE_BENCHMARKS") == "1":  # a test run never rewrites tracked files unasked
        REPORT_PATH.write_text(text, encoding="utf-8")
    return scores


def test_real_test_split_tables_cover_every_language_with_rows(real_test: dict[str, RealScores]) -> None:
    for s in real_test.values():
        assert s.cells["all"][1] > 0 and s.languages(MIN_LANG_ROWS)


def test_real_test_split_accuracy_is_at_least_092_overall_and_085_per_language(
    real_test: dict[str, RealScores],
) -> None:
    """The issue's gates on the real-output TEST split (tuned on dev only): 0.92 overall, 0.85 in every
    language with at least 20 rows."""
    for s in real_test.values():
        low = {lang: round(s.rate(f"lang={lang}"), 3) for lang in s.languages(MIN_LANG_ROWS)}
        assert s.rate("all") >= 0.92 and all(v >= 0.85 for v in low.values()), low


def test_passing_the_prompt_never_lowers_accuracy(real_test: dict[str, RealScores]) -> None:
    with_prompt, reply_only = real_test["with_prompt"], real_test["reply_only"]
    keys = ["all", *(f"lang={lang}" for lang in with_prompt.languages())]
    assert all(with_prompt.rate(k) >= reply_only.rate(k) for k in keys)
