"""`ijr audit`: the stratified sample export and the kappa / detector-error scoring (the paper's E5)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from indicjr.cli import main
from indicjr.cli.audit import COLUMNS, REFUSAL_SCALE, cohen_kappa, score_file, stratified_sample
from indicjr.errors import ConfigError

A = ["refused"] * 4 + ["complied"] * 2 + ["complied", "partial", "partial", "complied"]
B = ["refused"] * 3 + ["complied"] * 3 + ["refused", "partial", "complied", "complied"]


def _kappa_matrix(a: list[str], b: list[str], weighted: bool) -> float:
    """Kappa from the confusion matrix, written independently of the module (1 - sum(w*O)/sum(w*E))."""
    k = len(REFUSAL_SCALE)
    idx = {c: i for i, c in enumerate(REFUSAL_SCALE)}
    obs = np.zeros((k, k))
    for x, y in zip(a, b, strict=True):
        obs[idx[x], idx[y]] += 1
    exp = np.outer(obs.sum(1), obs.sum(0)) / obs.sum()
    i, j = np.indices((k, k))
    dis = np.abs(i - j) / (k - 1) if weighted else (i != j).astype(float)
    return float(1 - (dis * obs).sum() / (dis * exp).sum())


def test_kappa_matches_hand_computed_values() -> None:
    # po = 0.7, pe = 0.38 -> 0.32 / 0.62; weighted: po = 0.75, pe = 0.51 -> 0.24 / 0.49
    assert cohen_kappa(A, B, REFUSAL_SCALE) == pytest.approx(0.32 / 0.62)
    assert cohen_kappa(A, B, REFUSAL_SCALE, weighted=True) == pytest.approx(0.24 / 0.49)


def test_kappa_matches_the_confusion_matrix_formula() -> None:
    for weighted in (False, True):
        assert cohen_kappa(A, B, REFUSAL_SCALE, weighted=weighted) == pytest.approx(_kappa_matrix(A, B, weighted))


def test_kappa_is_undefined_when_both_raters_use_one_label() -> None:
    assert cohen_kappa(["refused"] * 3, ["refused"] * 3, REFUSAL_SCALE) is None


def _write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in COLUMNS})
    return path


def test_score_file_reports_kappa_and_detector_errors_per_language(tmp_path: Path) -> None:
    detector = ["true", "true", "true", "false", "false", "false", "true", "false", "false", "true"]
    rows = [
        {
            "lang": "hi" if i < 5 else "ta",
            "detector_refused": d,
            "annotator_a_refused": a,
            "annotator_b_refused": b,
        }
        for i, (a, b, d) in enumerate(zip(A, B, detector, strict=True))
    ]
    rows[3]["adjudicated_refused"] = "refused"  # A and B disagree here; the adjudicator decides
    scores = score_file(_write_csv(tmp_path / "a.csv", rows))
    assert scores["all"]["kappa"] == pytest.approx(0.32 / 0.62)
    # gold: agreed rows 0,1,2,4,5,7,9 plus adjudicated row 3 -> refused at 0,1,2,3; detector misses 3
    assert (scores["all"]["n_gold"], scores["all"]["fn"], scores["all"]["fp"]) == (8, 1, 1)
    assert scores["all"]["fn_rate"] == pytest.approx(1 / 4)
    assert scores["all"]["fp_rate"] == pytest.approx(1 / 4)
    assert set(scores) == {"all", "hi", "ta"}


def test_score_file_names_file_and_line_of_a_bad_label(tmp_path: Path) -> None:
    rows = [
        {"lang": "hi", "detector_refused": "true", "annotator_a_refused": "refused"},
        {"lang": "hi", "detector_refused": "true", "annotator_a_refused": "maybe"},
    ]
    path = _write_csv(tmp_path / "bad.csv", rows)
    with pytest.raises(ConfigError, match=r"bad\.csv:3: annotator_a_refused: 'maybe'"):
        score_file(path)


def _run_dir(tmp_path: Path) -> Path:
    rows = []
    for lang in ("hi", "ur", "ta"):
        for i in range(40):
            rows.append(
                {
                    "id": f"{lang}-{i:03d}",
                    "sample": 0,
                    "lang": lang,
                    "track": "json" if i % 2 else "free",
                    "subset": ("AB", "CB", "CH")[i % 3],
                    "orthography": ("native", "romanized", "mixed")[i % 3],
                    "canary": None,
                    "response": "=cmd <script>alert(1)</script> نہیں" if i == 0 else f"reply {i}",
                    "verdict": {
                        "decision": "REFUSE",
                        "refused": True,
                        "partial": False,
                        "leak_canary": False,
                        "leak_lexicon": False,
                        "evidence": [],
                        "error": "timeout" if i == 39 else None,
                    },
                }
            )
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return run


def test_sample_is_stratified_deterministic_and_skips_errors(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in (_run_dir(tmp_path) / "results.jsonl").read_text().splitlines()]
    first = stratified_sample(rows, 10, seed=13)
    assert [r["id"] for r in first] == [r["id"] for r in stratified_sample(rows, 10, seed=13)]
    assert all(sum(r["lang"] == lang for r in first) == 10 for lang in ("hi", "ur", "ta"))
    assert len({(r["track"], r["subset"], r["orthography"]) for r in first if r["lang"] == "hi"}) == 6
    assert all(not r["id"].endswith("-039") for r in first)


def test_audit_sample_cli_writes_csv_with_blank_labels_and_escaped_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run_dir(tmp_path)
    assert main(["audit", "sample", str(run), "--per-lang", "39", "--out", str(tmp_path / "out")]) == 0
    with (tmp_path / "out" / "audit_sample.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 3 * 39
    assert all(r["annotator_a_refused"] == r["annotator_b_refused"] == r["adjudicated_refused"] == "" for r in rows)
    assert any(r["response"].startswith("'=cmd") for r in rows)  # no formula injection in spreadsheets
    page = (tmp_path / "out" / "audit_sample.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert 'lang="ur" dir="rtl"' in page and 'lang="ta" dir="auto"' in page
    assert "117 items" in capsys.readouterr().out


def test_audit_score_cli_exits_4_with_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write_csv(tmp_path / "x.csv", [{"lang": "hi", "detector_refused": "true", "annotator_b_refused": "??"}])
    assert main(["audit", "score", str(path)]) == 4
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "x.csv:2" in err
