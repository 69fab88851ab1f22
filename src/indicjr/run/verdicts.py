"""The run's verdicts: each (case, sample) judged exactly once per process, whoever asks first.

The `verdict` fixture, the rows a case test ships to the controller and the snapshot's rows all read
this one cache. Before it, the fixture judged a reply and the row builder judged it again (two caches
never shared): 80 judge calls for 40 cases. Judging goes through `results.verdict_for`, looked up at
call time, so that there is one public judging entry to count or replace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from indicjr.cases.model import Case
from indicjr.judge.verdict import Verdict
from indicjr.run import results
from indicjr.targets.base import Response

Key = tuple[str, int]  # (case id, sample)


@dataclass
class Verdicts:
    """Verdicts and result rows of this process, keyed by (case id, sample); filled lazily.

    Lazy on purpose: each case test judges its own case (judging everything up front in every xdist
    worker doubled the judge's work on two workers). Under xdist the snapshot is compared on the
    controller from the folded rows; without xdist it reads this cache after the case tests."""

    scoring: str = "ijr"
    verdicts: dict[Key, Verdict] = field(default_factory=dict)
    rows: dict[Key, dict[str, Any]] = field(default_factory=dict)

    def verdict(self, case: Case, response: Response, sample: int = 0) -> Verdict:
        key = (case.id, sample)
        found = self.verdicts.get(key)
        if found is None:
            found = self.verdicts[key] = results.verdict_for(case, response, scoring=self.scoring)
        return found

    def row(self, case: Case, response: Response, sample: int = 0) -> dict[str, Any]:
        key = (case.id, sample)
        found = self.rows.get(key)
        if found is None:
            found = self.rows[key] = results.result_row(case, response, self.verdict(case, response, sample), sample)
        return found
