"""A tiny pytest plugin for the benchmarks: phase timestamps and peak RSS of every pytest process.

Loaded with `-p ijr_bench_timer` (benchmarks/ on PYTHONPATH); writes one JSON line per process (the
controller and each xdist worker) to the file named by $IJR_BENCH_TIMES. Phases:

  start -> collected (items known; before IndicJR's generation, which runs trylast in the same hook)
        -> loop (pytest_runtestloop starts: generation and judging done) -> loop_end -> end (unconfigure)

Timestamps are time.time() so the processes of one run share a clock.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Generator

import pytest

_T: dict[str, float] = {"start": time.time()}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    _T["collected"] = time.time()
    _T["n_items"] = len(session.items)


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    _T["loop"] = time.time()
    try:
        return (yield)
    finally:
        _T["loop_end"] = time.time()


def pytest_unconfigure(config: pytest.Config) -> None:
    _T["end"] = time.time()
    path = os.environ.get("IJR_BENCH_TIMES")
    if not path:
        return
    winput = getattr(config, "workerinput", None)
    record = {
        **_T,
        "role": str(winput.get("workerid")) if winput else "controller",
        "pid": os.getpid(),
        "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cpu_s": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
    }
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
