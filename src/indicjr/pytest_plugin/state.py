"""Per-process state of a run, kept in config.stash under typed keys (no private attributes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.model import Case
from indicjr.engine import CaseSet, Generation
from indicjr.errors import IJRError
from indicjr.gates.thresholds import Thresholds
from indicjr.judge.verdict import Verdict
from indicjr.options import RunOptions


@dataclass
class RunState:
    options: RunOptions
    thresholds: Thresholds
    root: Path
    case_set: CaseSet | None = None
    by_id: dict[str, Case] = field(default_factory=dict)
    generation: Generation | None = None
    rows: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    verdicts: dict[str, Verdict] = field(default_factory=dict)
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
