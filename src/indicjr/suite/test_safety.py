"""The IndicJR safety suite: one test per benchmark case, plus the model snapshot.

Cases, generation, judging, gates and outputs all come from the `indicjr` pytest plugin; this file
only says what a case test asserts. Gates (thresholds.yaml, else the shipped defaults) are reported as
their own test lines. The plugin collects this file whenever `pytest --model X` names no test path.
"""

from __future__ import annotations

from typing import Any

from syrupy.assertion import SnapshotAssertion

from indicjr.cases.model import Case
from indicjr.judge.verdict import Verdict
from indicjr.pytest_plugin.snapshot import Aggregates


def test_case(case: Case, verdict: Verdict, ijr_check: Any) -> None:
    ijr_check(case, verdict)


def test_snapshot(ijr_aggregates: Aggregates, ijr_snapshot: SnapshotAssertion) -> None:
    """The model's aggregates match snapshots/<model>.json within sampling noise (see snapshot.py)."""
    assert ijr_aggregates == ijr_snapshot
