"""Case tests left out of a run by pytest's own selection: a release gate must say what it did not judge.

Two cases (docs/GATE_AUDIT.md): some case tests left out without -k or -m (--deselect, --lf, a node id,
a conftest hook) make the run a slice, like -k (Run.narrow); every case test left out under `--model`
(`addopts = -m unit` in a team's pytest.ini) is a safety run that judged nothing: exit 5 with one line
(controller.py). Under xdist the workers select; they ship the count to the controller in workeroutput.
"""

from __future__ import annotations

import pytest

from indicjr.cases.model import Case
from indicjr.pytest_plugin.state import RunState, get_state, is_worker
from indicjr.pytest_plugin.suite import is_case_test

UNSELECTED = "ijr_unselected"  # workeroutput key: case tests deselected when none was left
COLLECTOR = "indicjr-results"  # the controller's ResultsCollector (plugin.py registers it)


def count_deselected(items: list[pytest.Item]) -> None:
    """pytest_deselected: count the case tests among the items left out."""
    state = get_state(items[0].config) if items else None
    if state is not None:
        state.deselected_cases += sum(1 for i in items if is_case_test(getattr(i, "fixturenames", ()), i))


def nothing_selected(config: pytest.Config, deselected: int) -> None:
    """`--model` asked for a safety run and every case test was deselected: the controller says so and
    exits 5 (without `--model`, `-k test_snapshot` stays the project's own choice)."""
    if is_worker(config):
        config.workeroutput[UNSELECTED] = deselected  # type: ignore[attr-defined]
        return
    collector = config.pluginmanager.get_plugin(COLLECTOR)
    if collector is not None:
        collector.unselected = deselected


def deselected_cases(config: pytest.Config, state: RunState, cases: list[Case]) -> int:
    """How many cases of the selection pytest left uncollected without -k or -m (those already name the
    slice): --deselect, --lf, a node id, a conftest hook. Each makes the run a slice (Run.narrow)."""
    if state.case_set is None or config.option.keyword or config.option.markexpr:
        return 0
    return max(0, len(state.case_set.cases) - len(cases))
