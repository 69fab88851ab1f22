"""One run, owned by the core: its options and gates, the one verdict cache, the rows folded from every
process, and `finish()` = summary, gates and files. No pytest here.

Two drivers build one `Run` per process: the pytest plugin (pytest_plugin/controller.py folds each case
test's rows and each xdist worker's generation stats into it, then calls `finish`) and `ijr run`
(cli/run.py: generate, judge, finish, without pytest). Both therefore write the same summary.json.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicjr.cases.model import Case
from indicjr.errors import OutputError
from indicjr.gates.evaluate import GateResult, evaluate_gates, not_evaluated, unreachable
from indicjr.gates.thresholds import Thresholds
from indicjr.metrics.rows import exclude_provider_blocks
from indicjr.metrics.summary import summarize
from indicjr.run.engine import CaseSet, make_run_target, run_meta, selection_hash
from indicjr.run.options import RunOptions, with_slice
from indicjr.run.results import finalize_rows, sort_rows, write_run
from indicjr.run.selection import profile_dir
from indicjr.run.verdicts import Key, Verdicts
from indicjr.targets.base import Response

# Under xdist every worker sees the whole run's requests and the store's answers: merge by max.
SHARED_STATS = frozenset({"n_requested", "n_unique", "n_cached", "n_foreign", "n_skipped", "wall_s", "n_deselected"})
DESELECTED = "deselected="  # the slice tag of cases the test runner left uncollected


@dataclass
class Run:
    options: RunOptions
    thresholds: Thresholds
    root: Path
    judged: Verdicts = field(default_factory=Verdicts)  # judged once per process (run/verdicts.py)
    started: float = field(default_factory=time.time)  # answers stored after this are new to this run
    rows: dict[Key, dict[str, Any]] = field(default_factory=dict)  # folded rows of every process
    generation: dict[str, Any] = field(default_factory=dict)  # merged generation stats
    summary: dict[str, Any] | None = None
    gates: list[GateResult] = field(default_factory=list)
    written: bool = False
    write_error: str | None = None  # results.jsonl / summary.json could not be written
    _target: Any = field(default=None, repr=False)  # built once per process (see target())

    @classmethod
    def create(cls, options: RunOptions, thresholds: Thresholds, root: Path) -> Run:
        return cls(options=options, thresholds=thresholds, root=root, judged=Verdicts(scoring=options.scoring.rule))

    def target(self) -> Any:
        """The model under test, built once per process: the pre-run check and generation share it
        (its connections close after each and reopen lazily, targets/runner.py)."""
        if self._target is None:
            self._target = make_run_target(self.options.endpoint)
        return self._target

    def judge_answers(self, cases: Iterable[Case], responses: Mapping[Key, Response]) -> None:
        """Judge every answered (case, sample) once and fold its row (`ijr run`; pytest's case tests
        do the same one case at a time)."""
        for case in cases:
            for sample in range(self.options.selection.samples):
                response = responses.get((case.id, sample))
                if response is not None:
                    self.rows[(case.id, sample)] = self.judged.row(case, response, sample)

    def add_generation(self, stats: Mapping[str, Any]) -> None:
        """Merge one process's generation stats: work done adds up; what every process sees (the run's
        requests, the store's answers, the wall time) is the largest, not the sum; names are kept."""
        for k, v in stats.items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                merged = self.generation.get(k, 0)
                self.generation[k] = max(merged, v) if k in SHARED_STATS else merged + v
            elif isinstance(v, list):  # param_adaptations: each change once, in the order first seen
                merged_list = self.generation.setdefault(k, [])
                merged_list.extend(x for x in v if x not in merged_list)
            elif isinstance(v, dict):  # retries by kind
                merged = self.generation.setdefault(k, {})
                for kind, n in v.items():
                    merged[kind] = merged.get(kind, 0) + n
            elif self.generation.get(k) is None:  # the first process that stopped names the reason
                self.generation[k] = v

    def narrow(self, deselected: int, *, own_folder: bool) -> None:
        """The test runner left `deselected` cases of the selection uncollected: the run is a slice, said
        in summary.json's `slice`, written to the slice's own folder unless --ijr-out named one, and its
        snapshot is not compared with the whole profile's (run/options.with_slice)."""
        if deselected > 0 and DESELECTED not in self.options.selection.slice:
            tag = f"{DESELECTED}{deselected}"
            self.options = with_slice(self.options, tag, root=self.root, own_folder=own_folder)

    @property
    def stopped_reason(self) -> str | None:
        """Why generation stopped early (circuit breaker, budget, endpoint error), if it did."""
        reason = self.generation.get("stopped_reason")
        return str(reason) if reason else None

    def missing_ids(self, expected: Iterable[str]) -> list[str]:
        """Expected cases without a row (a worker that crashed took its case's row with it)."""
        return sorted(set(expected) - {cid for cid, _sample in self.rows})

    def finish(self, *, complete: bool, expected: Iterable[str] = (), fail_missing: bool = False) -> dict[str, Any]:
        """Summarize the folded rows, evaluate the gates (a complete run only) and write results.jsonl
        and summary.json. A file that cannot be written is kept as `write_error` (the caller says it).

        `fail_missing`: the run ended normally yet expected cases have no row (their tests were skipped,
        a worker was lost): every gate FAILS as not evaluated instead of vanishing from a green build."""
        rows: list[Any] = sort_rows(self.rows.values())
        if self.options.scoring.provider_block == "exclude":
            rows = exclude_provider_blocks(rows)
        meta = run_meta(self.options, self._selection(rows), None, complete=complete)
        rows, meta["labels"] = finalize_rows(rows, model=meta["model"], labels_path=self.options.scoring.labels)
        meta["generation"] = self.generation
        meta["model_display_name"] = self.generation.get("display_name", meta["model"])
        meta["simulated"] = bool(self.generation.get("simulated", False))
        meta["run_started"] = round(self.started, 3)
        summary = summarize(rows, meta=meta)
        missing = self.missing_ids(expected)
        if missing:
            summary["missing_case_ids"] = missing
        if complete:
            self.gates = evaluate_gates(self.thresholds.gates, rows)
            if not self.options.selection.slice and not self.thresholds.shipped:  # the project's own gates
                self.gates = unreachable(self.thresholds.gates, self.gates)
        elif missing and fail_missing:
            n = len(set(expected))
            why = f"{len(missing)} of {n} cases of the run have no verdict (their tests were skipped or lost)"
            self.gates = not_evaluated(self.thresholds.gates, why, status="FAIL")
        summary["gates"] = [g.to_dict() for g in self.gates]
        summary["gates_failed"] = sum(1 for g in self.gates if g.failed)
        self.summary = summary
        try:
            write_run(self.options.outputs.out_dir, rows, summary)
        except OutputError as exc:  # a full disk or lost folder: one line and exit 4, said by the driver
            self.write_error = str(exc)
        self.written = True
        return summary

    def _selection(self, rows: list[Any]) -> CaseSet:
        path = profile_dir(self.options.selection.profile, root=self.root)
        return CaseSet((), self.options.selection.profile, str(path), selection_hash(path, [r["id"] for r in rows]))
