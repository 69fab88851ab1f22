"""Per-process state of a run, kept in config.stash under typed keys (no private attributes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.model import Case
from indicjr.errors import IJRError
from indicjr.gates.thresholds import Thresholds
from indicjr.run.engine import CaseSet, Generation
from indicjr.run.options import RunOptions
from indicjr.run.run import Run
from indicjr.run.verdicts import Verdicts


@dataclass
class RunState:
    """What pytest needs per process around the core's Run (run/run.py): collection and generation."""

    run: Run  # options, gates, the one verdict cache, folded rows, summary and files
    case_set: CaseSet | None = None
    by_id: dict[str, Case] = field(default_factory=dict)
    generation: Generation | None = None
    collected: list[Case] = field(default_factory=list)  # the cases this process collected, in order
    error: str | None = None  # generation stopped (circuit breaker, budget): reported, tests error out
    config_error: IJRError | None = None  # a bad case set found while collecting: a usage error after
    deselected_cases: int = 0  # case tests -k, -m, --deselect or a conftest hook left out

    @property
    def options(self) -> RunOptions:
        return self.run.options

    @property
    def thresholds(self) -> Thresholds:
        return self.run.thresholds

    @property
    def root(self) -> Path:
        return self.run.root

    @property
    def judged(self) -> Verdicts:
        return self.run.judged


STATE = pytest.StashKey[RunState]()


def get_state(config: pytest.Config) -> RunState | None:
    return config.stash.get(STATE, None)


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def worker_count(config: pytest.Config) -> int:
    winput = getattr(config, "workerinput", None)
    return int(winput.get("workercount", 1)) if winput else 1


def worker_id(config: pytest.Config) -> str:
    winput = getattr(config, "workerinput", None)
    return str(winput.get("workerid", "main")) if winput else "main"


def rows_for(state: RunState, case: Case) -> list[dict[str, Any]]:
    """This case's result rows (one per sample), from the run's one verdict cache (run/verdicts.py)."""
    if state.generation is None:
        return []
    responses = state.generation.responses
    keys = [(case.id, s) for s in range(state.options.selection.samples)]
    return [state.judged.row(case, responses[k], k[1]) for k in keys if k in responses]


def all_rows(state: RunState) -> list[dict[str, Any]]:
    """Rows of every collected case (the in-process snapshot's input), judging whatever is not judged yet
    (only a case whose test has not run yet: without xdist the case tests come first)."""
    return [row for case in state.collected for row in rows_for(state, case)]


def shown_path(path: Path | str, cwd: Path | str) -> str:
    """A path as the user would type it: relative to where pytest was started when it lies below."""
    try:
        return str(Path(path).resolve().relative_to(Path(cwd).resolve()))
    except ValueError:
        return str(path)
