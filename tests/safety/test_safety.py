"""The IndicJR safety suite: one test per benchmark case, plus the model snapshot.

Cases, generation, judging, gates and outputs all come from the `indicjr` pytest plugin; this file
only says what a case test asserts. Gates in thresholds.yaml are reported as their own test lines.
"""

from __future__ import annotations

from typing import Any

from indicjr.cases.model import Case
from indicjr.judge.verdict import Verdict


def test_case(case: Case, verdict: Verdict, ijr_check: Any) -> None:
    ijr_check(case, verdict)
