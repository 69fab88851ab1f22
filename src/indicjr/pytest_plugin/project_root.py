"""Run from a subfolder of a repository that has no pytest configuration file, pytest takes the current
folder for its root (`_pytest/config/findpaths.py`: no ini file, no argument -> the invocation folder).
The project's thresholds.yaml at the repository's top is then not found and the shipped default gates
apply — a different release gate, silently (`working-directory: eval/` in a CI job is enough).

Before any test, the plugin looks above pytest's root, up to the repository's top (the folder holding
`.git`), for the thresholds.yaml the run would have missed, and stops with one line naming it and the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

THRESHOLDS = "thresholds.yaml"


def missed_thresholds(root: Path) -> Path | None:
    """The thresholds.yaml of the repository above `root` that a run rooted at `root` would not read:
    the nearest one between `root`'s parent and the repository's top (None outside a repository, and when
    `root` is itself a repository's top: what lies above it is another project's)."""
    if (root / ".git").exists():
        return None
    found: Path | None = None
    for folder in root.parents:
        if found is None and (folder / THRESHOLDS).is_file():
            found = folder / THRESHOLDS
        if (folder / ".git").exists():
            return found
    return None  # no repository above: no known project boundary to look within


def check_root(config: pytest.Config) -> None:
    """A one-line usage error when pytest chose a subfolder for its root and the project's gates lie above."""
    if config.inipath is not None or config.getoption("ijr_thresholds") or not config.getoption("model"):
        return  # a configuration file fixed the root, or the gates file is named
    root = Path(config.rootpath)
    if (root / THRESHOLDS).is_file():
        return
    missed = missed_thresholds(root)
    if missed is not None:
        raise pytest.UsageError(
            f"indicjr: pytest's root is {root} (no pytest.ini, pyproject.toml, tox.ini or setup.cfg there or "
            f"above), so {missed} would not gate this run; run pytest from {missed.parent}, add a pytest.ini "
            f"there, or pass --ijr-thresholds={missed}"
        )
