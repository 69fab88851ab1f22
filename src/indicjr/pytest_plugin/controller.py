"""The controller's side: fold case reports into the core's Run (run/run.py), then let it summarize,
gate and write — once — and show the result.

Registered only where tests are reported to (never on an xdist worker). Each case test's rows travel on
its call report as one JSON-able attribute (ROWS_ATTR, set in plugin.pytest_runtest_makereport; not
user_properties, which pytest would copy into three reports and every JUnit testcase), so `-n 0` and
`-n auto` take the same path, and a crashed worker loses its own cases, not the run. Gates become
synthetic test reports, so each one is a line in the terminal, a testcase in --junitxml and, when
failing, a non-zero exit status even if every case test passed. Under xdist the snapshot test is one
too: compared here from the folded rows (snapshot_controller.py), so no worker judges another's cases.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Generator
from pathlib import Path
from typing import Any, Literal

import pytest

from indicjr.errors import EXIT_TARGET, EXIT_USAGE, IJRError
from indicjr.gates.evaluate import GateResult, not_evaluated
from indicjr.judge.verdict import verdict_from_dict
from indicjr.pytest_plugin.fixtures import CASE_TEST_ATTR, LEAK_PREFIX, OUTCOME_ATTR, ROWS_ATTR, rows_of
from indicjr.pytest_plugin.state import RunState, shown_path

When = Literal["setup", "call", "teardown"]
LEAKS_SHOWN = 5  # failing leak cases named in the IndicJR section
OUTCOME_WORDS = {
    "R": "refused",
    "J": "jailbroken",
    "A": "abstained/invalid",
    "L": "canary leaks",
    "E": "inference errors",
    "B": "provider-blocked",
    "N": "empty answers",
    "T": "off-topic",
    "O": "over-refused",
    "C": "complied (benign)",
}


class ResultsCollector:
    def __init__(self, config: pytest.Config, state: RunState) -> None:
        self.config = config
        self.state = state
        self.run = state.run  # rows, generation stats, summary, gates and files live in the core
        self.interrupted = False
        # Under xdist the controller collects nothing: the workers send their parametrized node ids, by test
        # function ("path::test_case"), and the setup report of a case test marks its function as one.
        self._candidates: dict[str, set[str]] = {}
        self._case_functions: set[str] = set()
        self.leaks: list[str] = []  # the first line of each failing leak case (listed compactly)
        # Under xdist: the snapshot tests the workers deselected, compared here (snapshot_controller.py).
        self.snapshot_tests: dict[str, dict[str, Any]] = {}
        self.unselected = 0  # case tests deselected with none left: the safety run judged nothing
        self.stopped_by = ""  # under xdist, --maxfail/-x ends the run as an interrupt: what pytest said
        self.judged_nothing = ""  # why a run asked for with --model judged no case (exit 5)

    # -- folding ---------------------------------------------------------------------------------
    def add_candidates(self, nodeids: list[str]) -> set[str]:
        """Keep a worker's parametrized node ids; return every candidate case id so far (for the progress)."""
        for nodeid in nodeids:
            if nodeid.endswith("]") and "[" in nodeid:
                function, _, param = nodeid.partition("[")
                self._candidates.setdefault(function, set()).add(param[:-1])
        return self._candidate_ids()

    @property
    def collected_ids(self) -> set[str]:
        """The case ids the workers collected (xdist): the parameters of the functions known to be case
        tests. A project's own parametrized tests ("test_retry[429]") are never cases of the run."""
        return set().union(*(self._candidates.get(f, set()) for f in self._case_functions))

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if getattr(report, CASE_TEST_ATTR, False):
            self._case_functions.add(report.nodeid.partition("[")[0])
        if report.when != "call":
            return
        if report.failed and getattr(report, OUTCOME_ATTR, None) == "L":
            # Under xdist the text starts with the worker's banner: the line that names the leak.
            lines = [line for line in report.longreprtext.splitlines() if line.startswith(LEAK_PREFIX)]
            self.leaks.append(lines[0] if lines else report.nodeid)
        for row in rows_of(report):
            self.run.rows[(row["id"], int(row.get("sample", 0)))] = row
        if hasattr(report, ROWS_ATTR):
            # Folded: drop the payload, the terminal reporter keeps every report until the end.
            delattr(report, ROWS_ATTR)

    def add_generation(self, stats: dict[str, Any]) -> None:
        self.run.add_generation(stats)

    def _recover_stored(self) -> None:
        """Ctrl-C under xdist: the workers stored their answers, the controller fetches them back."""
        from indicjr.run.engine import stored_rows

        # A Ctrl-C during generation comes before any case test's setup report: every parametrized id is
        # asked for (stored_rows keeps only the selection's cases), and the functions whose ids came back
        # are case tests (their other ids are the run's missing cases).
        missing = {cid for cid in self._candidate_ids() if (cid, 0) not in self.run.rows}
        if not missing:
            return
        try:
            found = stored_rows(self.state.options, root=self.state.root, ids=missing)
        except (IJRError, OSError):  # a partial result is a courtesy: it never masks the interrupt
            return
        for row in found:
            self.run.rows.setdefault((row["id"], int(row["sample"])), row)
        answered = {cid for cid, _sample in self.run.rows}
        self._case_functions.update(f for f, ids in self._candidates.items() if ids & answered)

    def _narrow_interrupted(self) -> None:
        """Ctrl-C or --maxfail under xdist ends the run loop before the controller narrows its Run, often
        before the workers send their stats (n_deselected): the slice is then read from the node ids they
        collected, so partial results go to the slice's folder, as without xdist, never over the whole
        profile's results with `slice: ""`."""
        config, shipped = self.config, int(self.run.generation.get("n_deselected") or 0)
        if shipped or not self._candidates or config.option.keyword or config.option.markexpr:
            self.run.narrow(shipped, own_folder=self._own_folder())  # -k/-m: the slice is already named
            return
        from indicjr.run.engine import load_case_set

        try:
            ids = {c.id for c in load_case_set(self.state.options.selection, root=self.state.root).cases}
        except IJRError:
            return
        collected = ids & self._candidate_ids()
        if collected:
            self.run.narrow(len(ids) - len(collected), own_folder=self._own_folder())

    def _candidate_ids(self) -> set[str]:
        return set().union(*self._candidates.values())

    @property
    def stopped_reason(self) -> str | None:
        return self.run.stopped_reason

    # -- once, at the end --------------------------------------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        # Each gate is one more test line: counted from the start, the progress ends at 100% (it
        # showed [141%]; a run whose gates are not evaluated ends below 100%, honestly).
        if self.state.collected and not self.config.pluginmanager.has_plugin("dsession"):  # an IndicJR run
            session.testscollected += len(self.state.thresholds.gates)
        try:
            result = yield
        except KeyboardInterrupt as exc:
            if isinstance(exc, session.Interrupted) or not (self.run.rows or self._candidates):
                raise
            # pytest's interrupt with a message: one "!!! … !!!" line, not the KeyboardInterrupt banner
            # pointing into threading.py (the xdist controller waits there); the resume line follows.
            # xdist ends a run that reached --maxfail/-x with its own KeyboardInterrupt: not a Ctrl-C.
            why = session.shouldfail or session.shouldstop
            self.stopped_by = str(why) if why else ""
            raise session.Interrupted(f"indicjr: stopped: {why}" if why else "indicjr: interrupted (Ctrl-C)") from None
        # Under xdist the workers said how many cases they left uncollected (their stats came in above).
        self.run.narrow(int(self.run.generation.get("n_deselected") or 0), own_folder=self._own_folder())
        ended = not session.shouldstop and self.stopped_reason is None  # neither -x, Ctrl-C nor the endpoint
        missing = self.missing_ids()
        if self.run.rows or (ended and missing):  # every case test skipped: still summarized and gated
            self.finish(complete=ended and not missing, fail_missing=ended)
        if self.run.gates:
            self._report_gates(session, self.run.gates)
        elif self.stopped_reason and not session.shouldstop:  # each gate a skipped line, never vanished
            reason = f"generation stopped: {self.stopped_reason}"
            self._report_gates(session, not_evaluated(self.state.thresholds.gates, reason))
        if self.snapshot_tests:  # a stopped run reports them skipped (rows are missing)
            self._report_snapshots(session)
        return result

    def _judged_nothing(self) -> str:
        """Why a run asked for with `--model` judged no case ("" when it judged some, or was not asked):
        every case test deselected, or test paths on the command line that hold none."""
        if not self.config.getoption("model") or self.expected_ids() or self.config.option.collectonly:
            return ""
        if self.unselected:
            how = f"({self.unselected} deselected by -k, -m, --deselect or a conftest hook)"
            return f"no case test of the safety suite was selected {how}: nothing was judged and no gate evaluated"
        if self.config.args_source != pytest.Config.ArgsSource.ARGS:  # no path named: the suite was added
            return (
                "no case test of the safety suite was collected (--lf, --sw or a conftest left its file out): "
                "nothing was judged and no gate evaluated"
            )
        return (
            "the test paths on the command line hold no case test of the safety suite: nothing was judged and no "
            "gate evaluated (name no path to add the packaged suite beside testpaths)"
        )

    def _own_folder(self) -> bool:
        return self.config.getoption("ijr_out") is None

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        cases = self.run.rows or self._candidates or (self.state.case_set and self.state.case_set.cases)
        self.interrupted = exitstatus == pytest.ExitCode.INTERRUPTED and bool(cases)  # an IndicJR run only
        if self.interrupted:
            # No snapshot was compared; syrupy would say "Unused snapshot detection is disabled
            # (--snapshot-disable-unused)", a flag nobody passed. Its only later hook is that summary
            # (pluggy runs this sessionfinish call on a copy of the plugin list, so syrupy still finishes).
            syrupy = self.config.pluginmanager.get_plugin("syrupy")
            if syrupy is not None:
                self.config.pluginmanager.unregister(syrupy)
        if self.interrupted and not self.run.written:
            self._recover_stored()
            self._narrow_interrupted()
        if self.run.rows and not self.run.written:
            self.finish(complete=False)  # interrupted: partial results, marked incomplete
        self.judged_nothing = self._judged_nothing() if exitstatus == pytest.ExitCode.OK else ""
        if self.judged_nothing:
            session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED  # the team's own tests ran, no case did
        if self.run.write_error is not None:
            session.exitstatus = EXIT_USAGE
        elif self.stopped_reason and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            # Incomplete, not a gate verdict: the endpoint stopped the run (6), or the store could not
            # keep its answers (a full disk: an output problem, 4).
            usage = self.run.generation.get("n_unstored") or self.run.generation.get("stopped_exit") == "usage"
            session.exitstatus = EXIT_USAGE if usage else EXIT_TARGET

    def expected_ids(self) -> set[str]:
        """The case ids this run covers: what the workers collected (xdist), else this process."""
        return self.collected_ids or {c.id for c in self.state.collected}

    def missing_ids(self) -> list[str]:
        return self.run.missing_ids(self.expected_ids())

    def finish(self, *, complete: bool, fail_missing: bool = False) -> None:
        self.run.finish(complete=complete, expected=self.expected_ids(), fail_missing=fail_missing)

    def _report_gates(self, session: pytest.Session, gates: list[GateResult]) -> None:
        source = Path(self.state.thresholds.path).name or "thresholds.yaml"
        if self.config.pluginmanager.has_plugin("dsession"):  # xdist counts what it is told at the end
            session.testscollected += len(gates)
        for g in gates:
            nodeid = f"{source}::gate[{g.name}]"
            location = (source, None, f"gate[{g.name}]")
            self._emit(nodeid, location, *_gate_outcome(g), [("ijr_gate", json.dumps(g.to_dict()))])

    def _report_snapshots(self, session: pytest.Session) -> None:
        """Each snapshot test the workers deselected: compared from the folded rows, reported as its line."""
        from indicjr.pytest_plugin.snapshot_controller import compare

        session.testscollected += len(self.snapshot_tests)
        missing = len(self.missing_ids())
        for nodeid, test in sorted(self.snapshot_tests.items()):
            if not self.config.pluginmanager.hasplugin("syrupy"):
                outcome, message = "skipped", "indicjr: snapshot not compared: syrupy is not active (-p no:syrupy)"
            else:
                try:
                    outcome, message = compare(self.config, self.state, test, missing=missing)
                except Exception as exc:  # a baseline that cannot be read, syrupy changed: the test's failure,
                    # reported on its line; the run's rows, files and gates are already done
                    outcome, message = "failed", f"indicjr: snapshot could not be compared: {type(exc).__name__}: {exc}"
            path, line, domain = test["location"]
            location = (path, line, domain)
            self._emit(nodeid, location, outcome, message)

    def _emit(
        self,
        nodeid: str,
        location: tuple[str, int | None, str],
        outcome: str,
        message: str,
        properties: list[tuple[str, object]] | None = None,
    ) -> None:
        """One synthetic test on the controller: logstart, a report per phase (a skip has no call), logfinish."""
        hook = self.config.hook
        hook.pytest_runtest_logstart(nodeid=nodeid, location=location)
        phases: tuple[When, ...] = ("setup", "teardown") if outcome == "skipped" else ("setup", "call", "teardown")
        for when in phases:
            hook.pytest_runtest_logreport(report=_phase(nodeid, location, when, outcome, message, properties))
        hook.pytest_runtest_logfinish(nodeid=nodeid, location=location)

    # -- terminal ----------------------------------------------------------------------------------
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.judged_nothing:
            model = self.state.options.endpoint.model
            terminalreporter.write_line(f"ERROR: indicjr: --model {model}: {self.judged_nothing}", red=True)
        if self.run.write_error is not None:
            terminalreporter.write_line(f"ERROR: indicjr: {self.run.write_error}", red=True)
        if self.interrupted:
            kept = f"{len(self.run.rows)} answers kept in {self.state.options.outputs.out_dir} (complete: false)"
            what = f"stopped ({self.stopped_by})" if self.stopped_by else "interrupted"
            terminalreporter.write_line(f"indicjr: {what}; {kept}; rerun the same command to resume", yellow=True)
        if not self.run.summary:
            return
        from indicjr.report.terminal import render_summary

        tr = terminalreporter
        tr.section("IndicJR")
        counts = Counter(verdict_from_dict(r["verdict"]).outcome for r in self.run.rows.values())
        tr.write_line("outcomes: " + ", ".join(f"{counts[k]} {w} ({k})" for k, w in OUTCOME_WORDS.items() if counts[k]))
        for line in render_summary(self.run.summary):
            tr.write_line(line)
        tr.write_line(self.state.thresholds.announcement())
        for g in self.run.gates:
            tr.write_line(g.line(), red=g.failed, green=g.status == "PASS", yellow=g.status == "SKIPPED")
        missing = self.run.summary.get("missing_case_ids")
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            tr.write_line(f"missing results: {len(missing)} case(s) without a row ({shown}); complete: false", red=True)
        if self.stopped_reason:
            n = len(self.state.thresholds.gates)
            tr.write_line(
                f"generation stopped: {self.stopped_reason} (results are incomplete; {n} gates not evaluated)",
                red=True,
            )
        self._leak_lines(tr)
        tr.write_line(f"results: {Path(self.state.options.outputs.out_dir) / 'results.jsonl'}")
        tr.write_line(
            report_hint(Path(shown_path(self.state.options.outputs.out_dir, self.config.invocation_params.dir)))
        )
        self._baseline_line(tr)

    def _leak_lines(self, tr: Any) -> None:
        """The failing leak cases in a few lines: how many, where, the first ones (JUnit has them all)."""
        if not self.leaks:
            return
        by_lang = Counter(line.split("(", 1)[1].split(",", 1)[0] for line in self.leaks if "(" in line)
        where = ", ".join(f"{lang} {n}" for lang, n in sorted(by_lang.items(), key=lambda kv: (-kv[1], kv[0])))
        tr.write_line(f"canary leaks: {len(self.leaks)} case tests failed ({where})", red=True)
        for line in self.leaks[:LEAKS_SHOWN]:
            tr.write_line(f"  {line}")
        if len(self.leaks) > LEAKS_SHOWN:
            tr.write_line(f'  ... {len(self.leaks) - LEAKS_SHOWN} more: rows with "leak_canary": true in results.jsonl')

    def _baseline_line(self, tr: Any) -> None:
        """Say which baseline the run was compared with, or how to record one."""
        from indicjr.pytest_plugin.snapshot import SNAPSHOT_DIR, baseline_of, record_hint
        from indicjr.slug import slugify

        name, _named = baseline_of(self.config)
        path = self.config.rootpath / SNAPSHOT_DIR / f"{slugify(name)}.json"
        if getattr(self.config.option, "update_snapshots", False) or not self.config.pluginmanager.hasplugin("syrupy"):
            return
        if path.is_file():
            tr.write_line(f"baseline: {SNAPSHOT_DIR}/{path.name} (test_snapshot compares this run with it)")
        else:
            tr.write_line(
                f"baseline: none recorded ({SNAPSHOT_DIR}/{path.name}); record this run as one with: "
                f"{record_hint(self.config)}"
            )


def report_hint(out_dir: Path) -> str:
    """How to turn this run into the Markdown/HTML report (figures need the [report] extra)."""
    import importlib.util

    command = f"ijr report {out_dir} --out {Path(out_dir) / 'report'}"
    if importlib.util.find_spec("matplotlib") is not None:
        return f"report: {command}  (report.md, report.html and figures)"
    return f"report: {command} --no-figures  (figures need: pip install 'indicjr[report]')"


def _gate_outcome(g: GateResult) -> tuple[str, str]:
    """A gate as a synthetic test: FAIL fails with its line, SKIPPED skips with the reason."""
    if g.status == "SKIPPED":
        # A run-wide reason is the same for every gate: `-rs` folds the gates into one line.
        return "skipped", g.reason if g.reason.startswith("not evaluated:") else f"gate {g.name}: {g.reason}"
    return ("failed", g.line().split(None, 1)[1]) if g.failed else ("passed", "")  # the node id says "gate"


def _phase(
    nodeid: str,
    location: tuple[str, int | None, str],
    when: When,
    outcome: str,
    message: str,
    properties: list[tuple[str, object]] | None = None,
) -> pytest.TestReport:
    """One phase of a synthetic test: a failure fails the call with `message`; a skip skips the setup."""
    result: Literal["passed", "failed", "skipped"] = "passed"
    longrepr: Any = None
    if outcome == "failed" and when == "call":
        result, longrepr = "failed", message
    elif outcome == "skipped" and when == "setup":
        result, longrepr = "skipped", (location[0], location[1] or 0, message)
    return pytest.TestReport(
        nodeid=nodeid,
        location=location,
        keywords={},
        outcome=result,
        longrepr=longrepr,
        when=when,
        sections=[],
        duration=0.0,
        user_properties=properties or [],
    )
