"""Where the safety suite comes from: the test module shipped in the package.

`pytest --model X` with no test path (the card's command) collects the packaged suite beside whatever
the project's testpaths collect, so it works in any repository where indicjr is installed. A command
line that names test paths runs only those (`pytest tests --ignore=...` runs a project's own tests).
A project that keeps its own copy of the suite's case test runs that copy instead of the packaged one.

Where the package is installed decides nothing: pytest never collects inside a virtualenv or a dot-folder
(`_pytest/main.py`: `_in_venv`, `norecursedirs`), and since pytest 8.4 an argument inside another one
(the suite under `.venv/` under the project root) is dropped in favour of the outer one, so the suite was
reached only by walking into `.venv/`, which pytest refuses. `pytest_ignore_collect` (tryfirst) answers
"collect" for exactly the suite folder and the folders on the way to it, and "ignore" for everything else
inside a folder pytest would have skipped — the rest of the venv stays uncollected.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

SUITE_FILE = Path(__file__).resolve().parents[1] / "suite" / "test_safety.py"
SUITE_DIR = SUITE_FILE.parent
ADDED = pytest.StashKey[bool]()
_SHIELDED = pytest.StashKey[dict[Path, bool]]()  # folder on the way -> whether pytest alone would skip it
_ASKING = pytest.StashKey[bool]()  # set while the other plugins are asked about a folder on the way


def is_suite_copy(path: Path) -> bool:
    """Another copy of the packaged suite (a clone's src/indicjr/suite, a second install): never collected
    beside ours — both would import as `indicjr.suite.test_safety` ("import file mismatch")."""
    folder = path.parent if path.name == SUITE_FILE.name else path
    return (
        folder != SUITE_DIR
        and folder.name == "suite"
        and folder.parent.name == "indicjr"
        and (folder / SUITE_FILE.name).is_file()
    )


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
    base = Path(config.invocation_params.dir)
    config.args[:] = [a for a in config.args if not is_suite_copy(base / a.split("::")[0])]
    config.args.append(str(SUITE_DIR))  # a folder: node ids read test_safety.py::test_case[...]
    config.stash[ADDED] = True
    config.stash[_SHIELDED] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Collect the packaged suite wherever it is installed; nothing else of its venv, no other copy."""
    if not config.stash.get(ADDED, False) or config.stash.get(_ASKING, False):
        return None
    if collection_path == SUITE_DIR or collection_path in SUITE_DIR.parents:
        return False  # on the way to the suite: even inside .venv/ or a dot-folder
    if collection_path.parent in SUITE_DIR.parents and _shielded(config, collection_path.parent):
        return True  # beside the way, inside a folder pytest would have skipped: stays skipped
    if is_suite_copy(collection_path):
        return True
    return None


def _shielded(config: pytest.Config, folder: Path) -> bool:
    """Whether pytest (every other plugin and conftest) would skip `folder` or a folder above it, below the
    root: a project kept under a dot-folder (~/.cache/x) still collects its own tests beside the way."""
    cache = config.stash[_SHIELDED]
    if folder == config.rootpath or folder in config.rootpath.parents:
        return False
    if folder not in cache:
        config.stash[_ASKING] = True
        try:
            skipped = bool(config.hook.pytest_ignore_collect(collection_path=folder, config=config))
        finally:
            config.stash[_ASKING] = False
        parent = folder.parent
        cache[folder] = skipped or (parent in SUITE_DIR.parents and _shielded(config, parent))
    return cache[folder]


def drop_duplicate_suite(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A project's own copy of the case test wins over the packaged one (never run both)."""
    if not config.stash.get(ADDED, False):
        return
    packaged = [i for i in items if i.path == SUITE_FILE]
    own = any(i.path != SUITE_FILE and is_case_test(getattr(i, "fixturenames", ()), i) for i in items)
    if packaged and own:
        config.hook.pytest_deselected(items=packaged)
        items[:] = [i for i in items if i.path != SUITE_FILE]
