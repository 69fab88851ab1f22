"""The card's command in a model team's repository: nothing there but a venv with the built wheel.

`pytest -n 2 --model X` must find the packaged suite, announce and apply the shipped default gates
(the repository has no thresholds.yaml), pass the reference simulator and fail a leaking model naming
the gates it failed — without a traceback and without this project's checkout on any path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(cmd: list[str | Path], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload]


@pytest.fixture(scope="session")
def team_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the package installed from a wheel built from this checkout."""
    where = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", where / "dist", ROOT])
    assert built.returncode == 0, built.stderr[-2000:]
    venv = where / "venv"
    assert _run([sys.executable, "-m", "venv", venv]).returncode == 0
    wheel = next((where / "dist").glob("indicjr-*.whl"))
    installed = _run([venv / "bin" / "python", "-m", "pip", "install", "-q", wheel], timeout=600)
    assert installed.returncode == 0, installed.stderr[-2000:]
    return venv


def _team_pytest(venv: Path, repo: Path, model: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON", "VIRTUAL_ENV"))}
    cmd = [venv / "bin" / "pytest", "-n", "2", "--model", model, "-q", "--ijr-no-progress", "-p", "no:cacheprovider"]
    return _run(cmd, cwd=repo, env=env, timeout=600)


def test_team_repository_runs_the_packaged_suite_with_default_gates(team_venv: Path, tmp_path: Path) -> None:
    repo = tmp_path / "team-repo"
    repo.mkdir()

    ok = _team_pytest(team_venv, repo, "sim:reference")
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-2000:]
    assert "gates: the shipped defaults" in ok.stdout
    summary = json.loads((repo / ".ijr" / "runs" / "sim-reference" / "summary.json").read_text(encoding="utf-8"))
    assert summary["complete"] and summary["headline"]["n_cases"] > 4000
    assert len(summary["gates"]) >= 20 and {g["status"] for g in summary["gates"]} == {"PASS"}

    bad = _team_pytest(team_venv, repo, "sim:paper-sarvam-1")
    assert bad.returncode == 1
    for gate in ("json_leak", "free_leak", "json_ur", "free_ur", "json_sv:subset=AB"):
        assert f"FAILED default_thresholds.yaml::gate[{gate}]" in bad.stdout
        assert f"FAIL    {gate} = " in bad.stdout  # the whole gate line, in the IndicJR section
    assert "Traceback" not in bad.stdout + bad.stderr
