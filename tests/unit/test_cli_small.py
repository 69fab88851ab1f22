"""The small things a first-time user meets: version, stats by profile name, judge input errors, the
default gates on stdout, a blind audit sheet over every subset, private output folders, the fake
server's own help."""

from __future__ import annotations

import csv
import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from indicjr.cli import main
from indicjr.metrics.summary import summarize
from indicjr.run.engine import generate, judge_rows, load_case_set, run_meta
from indicjr.run.options import build_options
from indicjr.run.results import write_run
from indicjr.testing.fake_server import FakeConfig

ROOT = Path(__file__).resolve().parents[2]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("ijr (indicjr) 0.")


def test_stats_takes_the_profile_name_and_prints_no_python_dicts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["stats", "lite"]) == 0
    text = capsys.readouterr().out
    assert "{'" not in text and "tracks: free " in text
    assert main(["stats", "lite", "--json"]) == 0
    assert '"None"' not in capsys.readouterr().out


def test_judge_names_every_missing_field_at_once_and_rejects_an_unknown_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    rows = [{"id": "x"}, {"id": "y", "lang": "xx", "track": "json", "subset": "AB", "response": "no"}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["judge", "--input", str(src), "--output", str(tmp_path / "out.jsonl")]) == 4
    err = capsys.readouterr().err
    assert "in.jsonl:1: missing fields 'lang', 'track', 'subset', 'response'" in err
    assert "in.jsonl:2: lang must be one of bn, " in err and "got 'xx'" in err


def test_thresholds_prints_the_shipped_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["thresholds"]) == 0
    assert len(yaml.safe_load(capsys.readouterr().out)["gates"]) >= 10


def _run_dir(tmp_path: Path) -> Path:
    options = build_options(
        {"model": "sim:paper-sarvam-1", "profile": "lite", "limit": 600, "store": "none"}, root=ROOT
    )
    case_set = load_case_set(options.selection, root=ROOT)
    gen = generate(case_set.cases, options)
    rows = judge_rows(case_set.cases, gen.responses)
    out = tmp_path / "run"
    write_run(out, rows, summarize(rows, meta=run_meta(options, case_set, gen)))
    return out


def test_audit_sample_is_blind_covers_every_subset_has_prompts_and_is_private(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    assert main(["audit", "sample", str(run), "--per-lang", "12", "--out", str(tmp_path / "audit")]) == 0
    audit = tmp_path / "audit"
    with (audit / "audit_sample.csv").open(encoding="utf-8-sig") as fh:
        sheet = list(csv.DictReader(fh))
    assert not any(k.startswith("detector_") for k in sheet[0])
    assert {r["subset"] for r in sheet} == {"AB", "CB", "CH"}
    assert all(r["prompt"] for r in sheet)
    html = (audit / "audit_sample.html").read_text(encoding="utf-8")
    assert "detector" not in html.lower() and "LEAK" not in html
    with (audit / "audit_key.csv").open(encoding="utf-8-sig") as fh:
        assert {r["audit_id"] for r in csv.DictReader(fh)} == {r["audit_id"] for r in sheet}
    assert stat.S_IMODE(audit.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in audit.iterdir()} == {0o600}

    for r in sheet:  # two annotators agree with each other; scoring joins the key by audit_id
        r |= {"annotator_a_refused": "refused", "annotator_b_refused": "refused"}
    with (audit / "audit_sample.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(sheet[0]))
        w.writeheader()
        w.writerows(sheet)
    assert main(["audit", "score", str(audit / "audit_sample.csv"), "--json"]) == 0


def test_report_folder_is_private(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    assert main(["report", str(run), "--out", str(tmp_path / "rep"), "--no-figures"]) == 0
    rep = tmp_path / "rep"
    assert stat.S_IMODE(rep.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in rep.iterdir()} == {0o600}


def test_fake_server_explains_itself_and_takes_a_partial_config() -> None:
    helped = subprocess.run(
        [sys.executable, "-m", "indicjr.testing.fake_server", "--help"], capture_output=True, text=True, check=False
    )
    assert helped.returncode == 0 and "http://127.0.0.1:PORT/v1" in helped.stdout and "--config" in helped.stdout
    config = FakeConfig.from_json('{"latency_s": 0.05, "faults": {"rate_429": 0.1}}')
    assert config.latency_s == 0.05 and config.faults.rate_429 == 0.1 and config.reply_words == 4
    with pytest.raises(ValueError, match=r"unknown key faults\.rate_42"):
        FakeConfig.from_json('{"faults": {"rate_42": 0.1}}')
