"""Per-process state of a run, kept in config.stash under typed keys (no private attributes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.model import Case
from indicjr.errors import IJRError
from indicjr.gates.thresholds import Thresholds
from indicjr.judge.verdict import Verdict
from indicjr.run.engine import CaseSet, Generation
from indicjr.run.options import RunOptions


@dataclass
class RunState:
    options: RunOptions
    thresholds: Thresholds
    root: Path
    case_set: CaseSet | None = None
    by_id: dict[str, Case] = field(default_factory=dict)
    generation: Generation | None = None
    collected: list[Case] = field(default_factory=list)  # the cases this process collected, in order
    rows: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)  # judged so far (a cache)
    verdicts: dict[tuple[str, int], Verdict] = field(default_factory=dict)  # the same, as records
    error: str | None = None  # generation stopped (circuit breaker, budget): reported, tests error out
    config_error: IJRError | None = None  # a bad case set found while collecting: a usage error after


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
    """This case's result rows (one per sample), judged on first use and cached.

    Judging is lazy: each case test judges its own case, and only the snapshot test asks for all rows.
    Judging everything up front in every xdist worker doubled the judge's work on two workers.
    """
    from indicjr.run.results import result_row, verdict_for

    keys = [(case.id, s) for s in range(state.options.samples)]
    if state.generation is not None:
        for key in keys:
            response = state.generation.responses.get(key)
            if key not in state.rows and response is not None:
                v = verdict_for(case, response, scoring=state.options.scoring)
                state.verdicts[key] = v
                state.rows[key] = result_row(case, response, v, key[1])
    return [state.rows[k] for k in keys if k in state.rows]


def all_rows(state: RunState) -> list[dict[str, Any]]:
    """Rows of every collected case (the snapshot's input), judging whatever is not judged yet."""
    return [row for case in state.collected for row in rows_for(state, case)]


def shown_path(path: Path | str, cwd: Path | str) -> str:
    """A path as the user would type it: relative to where pytest was started when it lies below."""
    try:
        return str(Path(path).resolve().relative_to(Path(cwd).resolve()))
    except ValueError:
        return str(path)
