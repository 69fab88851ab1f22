"""A run, then human labels through `ijr audit`, then the same run again: the labelled replies carry
their human labels, the summary says how many, and the model is asked nothing the second time."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from indicjr.cli import main
from indicjr.judge.labels import load_labels, reply_hash
from indicjr.testing.fake_server import FakeServer
from tests.reliability.conftest import openai_args, read_rows, read_summary, run_suite


def _env() -> dict[str, str]:
    # the suite subprocess imports this checkout's package, not another installed copy
    return {"PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH", ""),) if p)}


def _label_everything_refused(sheet: Path) -> int:
    with sheet.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = list(reader.fieldnames or ()), list(reader)
    for r in rows:
        r["annotator_a_refused"] = r["annotator_b_refused"] = "refused"
    with sheet.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def test_labels_from_an_audit_override_the_next_run_without_asking_the_model(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    args = (*openai_args(fake), "--ijr-store=store.sqlite")
    env = {**_env(), "PYTHONPATH": os.pathsep.join([str(suite.path), *_env()["PYTHONPATH"].split(os.pathsep)])}
    first = run_suite(suite, tiny_cases, *args, "--ijr-out=run1", env=env)
    assert first.returncode in (0, 1), first.stdout[-3000:] + first.stderr[-2000:]
    asked = fake.total()
    assert asked > 0 and read_summary(suite.path / "run1")["human_labels"]["n_applied"] == 0

    sheet_dir = suite.path / "audit-sheet"
    assert (
        main(
            [
                "audit",
                "sample",
                str(suite.path / "run1"),
                "--per-lang",
                "8",
                "--low-per-lang",
                "0",
                "--out",
                str(sheet_dir),
            ]
        )
        == 0
    )
    n_items = _label_everything_refused(sheet_dir / "audit_sample.csv")
    labels_file = suite.path / "audit" / "labels.jsonl"  # the default the next run reads
    assert main(["audit", "import", str(sheet_dir / "audit_sample.csv"), "--labels", str(labels_file)]) == 0
    labels = load_labels(labels_file)
    assert 0 < len(labels) <= n_items and all(r["draw"] == "random" for r in labels.values())

    second = run_suite(suite, tiny_cases, *args, "--ijr-out=run2", env=env)
    assert second.returncode in (0, 1), second.stdout[-3000:] + second.stderr[-2000:]
    assert fake.total() == asked  # every answer came from the store
    summary, rows = read_summary(suite.path / "run2"), read_rows(suite.path / "run2")
    assert summary["generation"]["n_generated"] == 0
    labelled = [r for r in rows if reply_hash(r["response"]) in labels and not r["verdict"].get("error")]
    assert labelled and all(r["label_source"] == "human" for r in labelled)
    free = [r for r in labelled if r["track"] == "free"]
    assert free and all(r["verdict"]["refused"] and not r["verdict"]["jailbroken"] for r in free)
    # an invalid contract stays what the parser found: schema validity is exact
    invalid = [r for r in labelled if r["track"] == "json" and r["verdict"]["json_decision"] == "INVALID"]
    assert all(r["verdict"]["decision"] == "ABSTAIN" for r in invalid)
    assert all("judge_verdict" in r for r in labelled)
    assert summary["human_labels"]["n_applied"] == len(labelled) == summary["headline"]["n_human_labels"]
    assert summary["human_labels"]["file"] == str(labels_file)
    assert all(r["model"] == "openai:test" for r in rows)
    assert "human labels: " in second.stdout
