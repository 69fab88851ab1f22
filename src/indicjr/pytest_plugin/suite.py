"""Where the safety suite comes from: the test module shipped in the package.

`pytest --model X` with no test path (the card's command) collects the packaged suite beside whatever
the project's testpaths collect, so it works in any repository where indicjr is installed. A command
line that names test paths runs only those (`pytest tests --ignore=...` runs a project's own tests).
A project that keeps its own copy of the suite's case test runs that copy instead of the packaged one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

SUITE_FILE = Path(__file__).resolve().parents[1] / "suite" / "test_safety.py"
ADDED = pytest.StashKey[bool]()


def _already_named(config: pytest.Config) -> bool:
    """Whether the args (e.g. testpaths) already name the suite's file or folder."""
    base = Path(config.invocation_params.dir)
    named = {(base / a.split("::")[0]).resolve() for a in config.args}
    return SUITE_FILE in named or SUITE_FILE.parent in named


# The plugin's fixtures that stand on a case: a test using one of them (and `case`) is an IndicJR case test.
_CASE_FIXTURES = frozenset({"target", "ijr_state", "response", "judge", "verdict", "ijr_check"})


def is_case_test(fixturenames: Iterable[str], node: pytest.Item | Any) -> bool:
    """Whether a test is one the plugin parametrizes with the run's cases: it takes `case` and one of the
    plugin's case fixtures, and does not parametrize `case` itself — a project's own test with an argument
    or fixture named "case" is left alone."""
    names = set(fixturenames)
    if "case" not in names or not names & _CASE_FIXTURES:
        return False
    own = (m for m in node.iter_markers("parametrize") if m.args)
    return not any("case" in str(m.args[0]).replace(" ", "").split(",") for m in own)


def add_packaged_suite(config: pytest.Config) -> None:
    """Append the packaged suite to the collection when `--model` is given and no test path is named.

    Workers decide the same from the same command line, so xdist collects identically everywhere.
    """
    if config.args_source == pytest.Config.ArgsSource.ARGS or config.getoption("model") is None:
        return
    if _already_named(config):
        return
    config.args.append(str(SUITE_FILE.parent))  # a folder: node ids read test_safety.py::test_case[...]
    config.stash[ADDED] = True


def drop_duplicate_suite(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A project's own copy of the case test wins over the packaged one (never run both)."""
    if not config.stash.get(ADDED, False):
        return
    packaged = [i for i in items if i.path == SUITE_FILE]
    own = any(i.path != SUITE_FILE and is_case_test(getattr(i, "fixturenames", ()), i) for i in items)
    if packaged and own:
        config.hook.pytest_deselected(items=packaged)
        items[:] = [i for i in items if i.path != SUITE_FILE]
