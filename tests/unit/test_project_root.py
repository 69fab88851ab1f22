"""pytest_plugin/project_root.missed_thresholds: the project's thresholds.yaml a run rooted in a subfolder
would miss, looked for only up to the repository's top (the folder holding .git)."""

from __future__ import annotations

from pathlib import Path

from indicjr.pytest_plugin.project_root import missed_thresholds

GATES = "gates:\n  - metric: json_jsr\n    max: 0.5\n"


def test_a_subfolder_of_a_repository_misses_the_thresholds_at_its_top(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "thresholds.yaml").write_text(GATES, encoding="utf-8")
    (tmp_path / "eval").mkdir()
    assert missed_thresholds(tmp_path / "eval") == tmp_path / "thresholds.yaml"


def test_a_repositorys_own_top_misses_nothing_above_it(tmp_path: Path) -> None:
    """A repository inside another (a submodule, a checkout under a dotfiles home): the outer one's
    thresholds.yaml is another project's. Before, the run stopped naming it (exit 4)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "thresholds.yaml").write_text(GATES, encoding="utf-8")
    inner = tmp_path / "models" / "eval-repo"
    (inner / ".git").mkdir(parents=True)
    assert missed_thresholds(inner) is None
    (inner / "sub").mkdir()
    assert missed_thresholds(inner / "sub") is None  # the inner repository's top holds none


def test_outside_any_repository_nothing_is_missed(tmp_path: Path) -> None:
    (tmp_path / "thresholds.yaml").write_text(GATES, encoding="utf-8")
    (tmp_path / "eval").mkdir()
    assert missed_thresholds(tmp_path / "eval") is None
