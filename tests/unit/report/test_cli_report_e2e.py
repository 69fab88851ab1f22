"""End to end: two real (simulated-model) runs of the suite, then `ijr report` over both.

Proves the Table 2 printed by `ijr report` equals each run's summary.json headline, that the report
names the runs as simulated, and that the files are written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from indicjr.cli.report import run
from indicjr.report.tables import TABLE2_COLUMNS

REPO = Path(__file__).resolve().parents[3]
MODELS = ("sim:paper-gpt-4o", "sim:paper-llama-3.3-70b")


@pytest.fixture(scope="module")
def real_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = tmp_path_factory.mktemp("e2e")
    out = []
    for model in MODELS:
        run_dir = base / model.split(":")[1]
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                str(REPO / "src" / "indicjr" / "suite"),
                "-q",
                "-p",
                "no:cacheprovider",
                "--ijr-no-progress",
                "--model",
                model,
                "--ijr-limit",
                "300",
                "--ijr-store",
                "none",
                "--ijr-out",
                str(run_dir),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert (run_dir / "summary.json").is_file(), f"the suite wrote no summary for {model}"
        out.append(run_dir)
    return out


def test_report_table2_equals_summary_headlines(
    real_runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["report", *map(str, real_runs), "--out", str(tmp_path / "rep"), "--no-figures"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for run_dir in real_runs:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
        assert summary["simulated"] is True
        line = next(ln for ln in lines if ln.startswith(summary["model_display_name"] + " [simulated]"))
        cells = line.split()[-len(TABLE2_COLUMNS) :]
        for (key, _), cell in zip(TABLE2_COLUMNS, cells, strict=True):
            assert (None if cell == "n/a" else float(cell)) == summary["headline"][key], key
    assert "simulated model(s)" in "\n".join(lines)
    for name in ("report.md", "report.html"):
        assert (tmp_path / "rep" / name).stat().st_size > 1000


def test_report_on_a_missing_directory_is_a_one_line_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["report", str(tmp_path / "nope")]) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a directory" in err
