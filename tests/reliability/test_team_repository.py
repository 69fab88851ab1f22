"""The card's command in a model team's repository: nothing there but a venv with the built wheel.

`pytest -n 2 --model X` must find the packaged suite, announce and apply the shipped default gates
(the repository has no thresholds.yaml), pass the reference simulator and fail a leaking model naming
the gates it failed — without a traceback and without this project's checkout on any path — wherever
the venv lives: outside the repository, or inside it as `.venv/` (venv, Poetry in-project), `venv/`, or
a uv-style `.venv/` (pyvenv.cfg with a `uv` key, a `*` .gitignore, CACHEDIR.TAG). pytest never collects
inside a venv by itself, so the suite must be reached on purpose and nothing else of the venv collected.

One wheel, one venv: the venv is moved between layouts (run through its `bin/python`, a venv works from
wherever it is), so the whole file costs one install.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OWN_TEST = "def test_the_teams_own_check():\n    assert 1 + 1 == 2\n"


def _run(cmd: list[str | Path], **kw: object) -> subprocess.CompletedProcess[str]:
    """Without this checkout's PYTHONPATH: pip would take its src/indicjr.egg-info for an installed copy."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False, env=env, **kw)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
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


@pytest.fixture(scope="module")
def outside_count(team_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    """How many tests the suite is with the venv outside the repository (the layout that always worked)."""
    repo = tmp_path_factory.mktemp("outside")
    out = _team_pytest(team_venv, repo, "sim:reference", "--collect-only")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    return _collected(out)


def _collected(out: subprocess.CompletedProcess[str]) -> int:
    found = re.search(r"(\d+) tests? collected", out.stdout)
    assert found, out.stdout[-3000:] + out.stderr[-2000:]
    return int(found.group(1))


@pytest.fixture
def venv_inside(team_venv: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Path, Path]]:
    """(repository, venv): the module's venv moved into a fresh repository under the layout's name."""
    layout = request.param
    repo = tmp_path / "team-repo"
    repo.mkdir()
    (repo / "tests").mkdir()
    (repo / "tests" / "test_own.py").write_text(OWN_TEST, encoding="utf-8")
    venv = repo / ("venv" if layout == "venv" else ".venv")
    shutil.move(team_venv, venv)
    extras = [venv / ".gitignore", venv / "CACHEDIR.TAG"]
    if layout == "uv":
        extras[0].write_text("*\n", encoding="utf-8")
        extras[1].write_text("Signature: 8a477f597d28d172789f06886806bc55\n", encoding="utf-8")
        with (venv / "pyvenv.cfg").open("a", encoding="utf-8") as cfg:
            cfg.write("uv = 0.5.0\n")
    try:
        yield repo, venv
    finally:
        for extra in extras:
            extra.unlink(missing_ok=True)
        shutil.move(venv, team_venv)


def _team_pytest(venv: Path, repo: Path, model: str, *more: str) -> subprocess.CompletedProcess[str]:
    cmd = [venv / "bin" / "python", "-m", "pytest", "--model", model, "-q", "--ijr-no-progress"]
    cmd += ["-p", "no:cacheprovider", *more]
    return _run(cmd, cwd=repo, timeout=600)


def _assert_fails_the_leaking_gates(bad: subprocess.CompletedProcess[str]) -> None:
    assert bad.returncode == 1, bad.stdout[-3000:] + bad.stderr[-2000:]
    for gate in ("json_leak", "free_leak", "json_ur", "free_ur", "json_sv:subset=AB"):
        assert f"FAILED default_thresholds.yaml::gate[{gate}]" in bad.stdout
        assert f"FAIL    {gate} = " in bad.stdout  # the whole gate line, in the IndicJR section
    assert "Traceback" not in bad.stdout + bad.stderr


def test_team_repository_runs_the_packaged_suite_with_default_gates(team_venv: Path, tmp_path: Path) -> None:
    repo = tmp_path / "team-repo"
    repo.mkdir()

    ok = _team_pytest(team_venv, repo, "sim:reference", "-n", "2")
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-2000:]
    assert "gates: the shipped defaults" in ok.stdout
    summary = json.loads((repo / ".ijr" / "runs" / "sim-reference" / "summary.json").read_text(encoding="utf-8"))
    assert summary["complete"] and summary["headline"]["n_cases"] > 4000
    assert len(summary["gates"]) >= 20 and {g["status"] for g in summary["gates"]} == {"PASS"}

    _assert_fails_the_leaking_gates(_team_pytest(team_venv, repo, "sim:paper-sarvam-1", "-n", "2"))


@pytest.mark.parametrize("venv_inside", [".venv"], indirect=True)
def test_venv_inside_the_repository_runs_the_whole_suite_beside_the_teams_tests(
    venv_inside: tuple[Path, Path], outside_count: int
) -> None:
    repo, venv = venv_inside
    bad = _team_pytest(venv, repo, "sim:paper-sarvam-1", "-n", "2", "-rA")
    _assert_fails_the_leaking_gates(bad)
    assert "PASSED tests/test_own.py::test_the_teams_own_check" in bad.stdout
    summary = json.loads((repo / ".ijr" / "runs" / "sim-paper-sarvam-1" / "summary.json").read_text(encoding="utf-8"))
    assert summary["complete"] and summary["headline"]["n_cases"] > 4000


@pytest.mark.parametrize("venv_inside", [".venv", "venv", "uv"], indirect=True)
def test_venv_inside_the_repository_collects_the_suite_once_and_nothing_else_of_the_venv(
    venv_inside: tuple[Path, Path], outside_count: int
) -> None:
    repo, venv = venv_inside
    out = _team_pytest(venv, repo, "sim:reference", "--collect-only")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert _collected(out) == outside_count + 1  # the whole suite and the team's own test, nothing more
    assert "tests/test_own.py::test_the_teams_own_check" in out.stdout
    outside_suite = [
        line for line in out.stdout.splitlines() if line.startswith(venv.name) and "/indicjr/suite/" not in line
    ]
    assert not outside_suite, outside_suite[:5]


def test_a_clone_run_with_another_installed_copy_collects_the_suite_once(
    team_venv: Path, outside_count: int, tmp_path: Path
) -> None:
    """A clone's testpaths name its own src/indicjr/suite; the installed plugin runs its own copy only
    (both would import as indicjr.suite.test_safety: "import file mismatch")."""
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "src" / "indicjr" / "suite", clone / "src" / "indicjr" / "suite")
    (clone / "src" / "indicjr" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", clone / "pyproject.toml")
    out = _team_pytest(team_venv, clone, "sim:reference", "--collect-only")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "mismatch" not in out.stdout + out.stderr
    assert _collected(out) == outside_count
