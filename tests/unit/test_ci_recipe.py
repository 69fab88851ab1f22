"""The CI recipe keeps new answers across runs, including failed ones.

A cache entry is immutable: a fixed key (the old recipe hashed cases/**/manifest.json, which a team's
repository does not have) was written once and never again, and actions/cache saves nothing when the job
fails. The recipe must restore by prefix, save under a key unique to the run, and save `if: always()`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

RECIPE = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "safety.yml"


def _steps() -> list[dict[str, Any]]:
    return list(yaml.safe_load(RECIPE.read_text(encoding="utf-8"))["jobs"]["safety"]["steps"])


def _uses(prefix: str) -> dict[str, Any]:
    found = [s for s in _steps() if str(s.get("uses", "")).startswith(prefix)]
    assert len(found) == 1, f"one {prefix} step expected, found {len(found)}"
    return found[0]


def test_the_store_is_restored_by_prefix_and_saved_under_a_key_of_its_own_even_when_a_gate_fails() -> None:
    steps = _steps()
    restore, save = _uses("actions/cache/restore@"), _uses("actions/cache/save@")
    suite = next(s for s in steps if "pytest" in str(s.get("run", "")))
    assert steps.index(restore) < steps.index(suite) < steps.index(save)
    key = restore["with"]["key"]
    assert save["with"]["key"] == key and "${{ github.run_id }}" in key  # a new entry every run
    assert save["with"]["path"] == restore["with"]["path"] and ".ijr/store.sqlite" in save["with"]["path"]
    prefix = restore["with"]["restore-keys"].strip()
    assert key.startswith(prefix) and "github.run_id" not in prefix  # the newest earlier run of the model
    assert str(save.get("if", "")).startswith("always()")
    assert not any(str(s.get("uses", "")).startswith("actions/cache@") for s in steps)  # no fixed-key cache


def test_the_report_step_is_not_hidden_behind_or_true() -> None:
    report = next(s for s in _steps() if "ijr report" in str(s.get("run", "")))
    assert "|| true" not in report["run"]
    assert "always()" in str(report.get("if", ""))


def test_the_install_step_does_not_assume_a_published_package() -> None:
    install = next(s for s in _steps() if "pip install" in str(s.get("run", "")))
    assert "INDICJR_SPEC" in install["run"] and "pip install 'indicjr" not in install["run"]
