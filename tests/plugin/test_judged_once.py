"""Each case is judged exactly once per run: the `verdict` fixture and the rows share one cache.

The inner run's conftest wraps the public judging entry (`indicjr.run.results.verdict_for`) and appends
each judged case id to a file; every process of the run (xdist workers too) appends to the same file.
The run is a whole profile of 40 cases with a recorded snapshot, so `test_snapshot` compares too: under
xdist it is compared on the controller from the folded rows, never by a worker judging the others' cases.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases, write_cases
from indicjr.run.selection import stratified_limit
from tests.plugin.conftest import ijr_args

COUNTING_CONFTEST = """
import os
import sys
import indicjr.run.results as results

_entry = results.verdict_for

def _counted(case, response, **kw):
    with open(os.environ["IJR_JUDGED_LOG"], "a", encoding="utf-8") as fh:
        fh.write(case.id + "\\n")
    return _entry(case, response, **kw)

for _mod in list(sys.modules.values()):  # every module that bound the entry by name
    if getattr(_mod, "__name__", "").startswith("indicjr") and getattr(_mod, "verdict_for", None) is _entry:
        _mod.verdict_for = _counted
"""


@pytest.fixture(scope="module")
def forty_cases(small_cases: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole profile of 40 cases (not a slice of a larger one: a slice never compares a snapshot)."""
    out = tmp_path_factory.mktemp("forty") / "forty"
    write_cases(stratified_limit(load_cases(small_cases), 40), out, profile="forty")
    return out


@pytest.mark.parametrize("xdist", [pytest.param([], id="no-xdist"), pytest.param(["-n", "2"], id="n2")])
def test_each_case_is_judged_exactly_once_with_the_snapshot_compared(
    project: pytest.Pytester, forty_cases: Path, monkeypatch: pytest.MonkeyPatch, xdist: list[str]
) -> None:
    # what is counted here is judging, not gating: a gate no 40-case slice of the simulator can fail
    project.path.joinpath("thresholds.yaml").write_text("rule: point\ngates:\n  - metric: json_jsr\n    max: 1.0\n")
    recorded = project.runpytest_subprocess(*ijr_args(forty_cases, "--snapshot-update", "-p", "no:xdist"))
    assert recorded.ret == 0, recorded.stdout.str()
    log = project.path / "judged.log"
    monkeypatch.setenv("IJR_JUDGED_LOG", str(log))
    project.makeconftest(COUNTING_CONFTEST)
    result = project.runpytest_subprocess(*ijr_args(forty_cases, *xdist))
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*1 snapshot passed*"])
    calls = Counter(log.read_text(encoding="utf-8").split())
    assert len(calls) == 40
    assert set(calls.values()) == {1}, {k: n for k, n in calls.items() if n != 1}


COUNTING_TARGETS = """
import os
import indicjr.targets.registry as registry

_make = registry.make_target

def _counted(*args, **kw):
    with open(os.environ["IJR_TARGETS_LOG"], "a", encoding="utf-8") as fh:
        fh.write(f"{os.getpid()}\\n")
    return _make(*args, **kw)

registry.make_target = _counted
"""


def test_the_target_is_built_once_per_process(
    project: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-run check (`--model` given) and generation share the Run's target: one build, not two."""
    log = project.path / "targets.log"
    monkeypatch.setenv("IJR_TARGETS_LOG", str(log))
    project.makeconftest(COUNTING_TARGETS)
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model=sim:reference", "--ijr-limit=10"))
    assert result.ret in (0, 1), result.stdout.str()
    assert len(log.read_text(encoding="utf-8").split()) == 1
