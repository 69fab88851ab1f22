"""The IndicJR pytest plugin (entry point `pytest11: indicjr`): thin hooks over the core.

Flow in every process: options (run/option_table.py) -> the core's Run (run/run.py) -> the case set ->
one parametrized test per case (collection) -> generation for the collected cases ahead of the tests ->
each case test judges its case once (the Run's verdict cache) and ships its rows on its call report ->
the controller folds them into the Run, which summarizes, gates and writes (controller.py); under xdist
the controller also compares the snapshot from those rows (snapshot_controller.py).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Generator
from typing import Any

import pytest

from indicjr.cases.model import Case
from indicjr.errors import EXIT_USAGE, IJRError
from indicjr.gates.thresholds import load_or_default
from indicjr.pytest_plugin import sigterm
from indicjr.pytest_plugin.collection import params, register_markers
from indicjr.pytest_plugin.controller import ResultsCollector
from indicjr.pytest_plugin.deselection import (
    COLLECTOR,
    UNSELECTED,
    count_deselected,
    deselected_cases,
    nothing_selected,
)
from indicjr.pytest_plugin.fixtures import (
    CASE_TEST_ATTR,
    OUTCOME_ATTR,
    ROWS_ATTR,
    case,
    case_rows,
    ijr_state,
    judge,
    response,
    target,
    verdict,
)
from indicjr.pytest_plugin.options import add_options, read_options, usage_error
from indicjr.pytest_plugin.scale import pytest_sessionstart
from indicjr.pytest_plugin.snapshot import ijr_aggregates, ijr_snapshot
from indicjr.pytest_plugin.state import STATE, RunState, get_state, is_worker, shown_path, worker_count, worker_id
from indicjr.pytest_plugin.suite import add_packaged_suite, drop_duplicate_suite, is_case_test, pytest_ignore_collect
from indicjr.run.engine import CaseSet, Generation, GenerationInterrupted
from indicjr.run.run import Run

__all__ = [
    "case",
    "ijr_aggregates",
    "ijr_check",
    "ijr_snapshot",
    "ijr_state",
    "judge",
    "pytest_ignore_collect",
    "pytest_sessionstart",
    "response",
    "target",
    "verdict",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """`--ijr-out DIR` as two words: the root pytest chose as if DIR were a test path is put right."""
    from indicjr.pytest_plugin.rootdir import restore_rootdir

    restore_rootdir(early_config, args)


def pytest_configure(config: pytest.Config) -> None:
    sigterm.install(config)  # SIGTERM (a CI timeout) takes the Ctrl-C path below: answers and partial results kept
    register_markers(config)
    add_packaged_suite(config)
    # After Ctrl-C under xdist syrupy warns that workers sent no snapshot reports (it then skips its
    # unused-snapshot check, which is right); with warnings as errors that became a traceback.
    config.addinivalue_line("filterwarnings", "ignore:syrupy. received .* xdist worker snapshot reports:UserWarning")
    if not is_worker(config):
        from indicjr.pytest_plugin.project_root import check_root

        check_root(config)  # before the shipped defaults stand in for a project's gates unseen
    options = read_options(config)
    try:
        run = Run.create(options, load_or_default(options.scoring.thresholds), config.rootpath)
        if config.getoption("model") and not is_worker(config):
            _check_target(run)
        if not is_worker(config) and not getattr(config.option, "update_snapshots", False):
            from indicjr.pytest_plugin.snapshot import SNAPSHOT_DIR, check_snapshot_file

            check_snapshot_file(
                config.rootpath / SNAPSHOT_DIR, config.getoption("ijr_baseline") or options.endpoint.model
            )
    except IJRError as exc:
        raise usage_error(exc, options.outputs.debug) from None
    state = RunState(run=run)
    config.stash[STATE] = state
    if is_worker(config):
        from indicjr.pytest_plugin.orphan import watch_controller

        watch_controller()  # a SIGKILLed controller must not leave its workers paying for answers
    else:
        collector = ResultsCollector(config, state)
        config.pluginmanager.register(collector, COLLECTOR)
        if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "numprocesses", None):
            from indicjr.pytest_plugin.xdist_progress import StoreProgress

            progress = StoreProgress(options=options, root=config.rootpath, started=collector.run.started)
            config.pluginmanager.register(progress, "indicjr-progress")
            config.pluginmanager.register(_XdistHooks(collector, progress), "indicjr-xdist")


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = get_state(config)
    if state is None or is_worker(config):
        return []
    return [f"indicjr: model {state.options.endpoint.model}; {state.thresholds.announcement()}"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    drop_duplicate_suite(config, items)


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_last(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist a worker ships its snapshot tests to the controller (compared there, from the rows it
    folds). Last, so only the tests that survived `-k`, `-m` and `--deselect` are shipped."""
    if is_worker(config) and get_state(config) is not None:
        from indicjr.pytest_plugin.snapshot_controller import defer

        defer(config, items)


def _check_target(run: Run) -> None:
    """Fail before any test when the model cannot be used (bad spec, missing key, unreachable) or its
    answers cannot be kept (an output folder or a response store that cannot be written)."""
    import asyncio

    options, t = run.options, run.target()
    try:
        t.check()
    finally:
        asyncio.run(t.aclose())
    # The controller checks the outputs too: under xdist it never generates, and a worker's error
    # would be an INTERNALERROR after (or instead of) every model call.
    from indicjr.run.results import check_out_dir

    check_out_dir(options.outputs.out_dir)
    if options.outputs.store is not None and options.endpoint.replay is None and not t.simulated:
        from indicjr.targets.store import check_store

        check_store(options.outputs.store)


class _XdistHooks:
    """Registered only with pytest-xdist present: receives each worker's generation stats."""

    def __init__(self, collector: ResultsCollector, progress: Any) -> None:
        self.collector = collector
        self.progress = progress
        self.generation_started: float | None = None

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Which cases the run covers (the controller collects nothing itself under xdist)."""
        candidates = self.collector.add_candidates(ids)
        if candidates:
            self.progress.start(candidates)

    def pytest_configure_node(self, node: Any) -> None:
        """Tell each worker when the run began: answers another worker stores after it are new."""
        # The workers' generation begins now (after any Ray prefill of the session start): one time for
        # all of them, so a worker starting late does not count another's fresh answers as stored.
        self.generation_started = self.generation_started or time.time()
        node.workerinput["ijr_run_started"] = self.generation_started

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        from indicjr.pytest_plugin.snapshot_controller import shipped

        output = getattr(node, "workeroutput", {})
        raw = output.get("ijr_generation")
        if raw:
            self.collector.add_generation(json.loads(raw))
        self.collector.unselected = max(self.collector.unselected, int(output.get(UNSELECTED, 0)))
        for test in shipped(output):
            self.collector.snapshot_tests.setdefault(test["nodeid"], test)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if not is_case_test(metafunc.fixturenames, metafunc.definition):
        return
    state = get_state(metafunc.config)
    assert state is not None
    if state.case_set is None:
        from indicjr.run.engine import load_case_set

        try:
            state.case_set = load_case_set(state.options.selection, root=state.root)
        except IJRError as exc:
            # Raised here, pytest would report a collection error with a traceback (exit 2); the
            # one-line usage error (exit 4) is raised once collection is over.
            state.config_error = exc
            state.case_set = CaseSet((), state.options.selection.profile, "", "")
        state.by_id = {c.id: c for c in state.case_set.cases}
    metafunc.parametrize("case", list(params(state.case_set.cases)))


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Generate and judge every collected case before the first test runs."""
    state = get_state(session.config)
    if state is None:
        return
    if state.config_error is not None:
        raise usage_error(state.config_error, state.options.outputs.debug)
    cases = _collected_cases(session.items)
    config = session.config
    if not cases and state.deselected_cases and config.getoption("model") and not config.option.collectonly:
        nothing_selected(config, state.deselected_cases)
    if not cases or session.config.option.collectonly:
        return  # --collect-only lists tests: it must not call (or pay for) the model
    from indicjr.run.engine import generate
    from indicjr.run.results import check_out_dir

    deselected = deselected_cases(config, state, cases)
    if not is_worker(config):  # under xdist the controller learns it from the workers' stats
        state.run.narrow(deselected, own_folder=config.getoption("ijr_out") is None)
    stats: dict[str, Any] = {}
    try:
        if not is_worker(config):
            check_out_dir(state.options.outputs.out_dir)  # before any model call, not after the whole run
        # Under xdist the controller draws the one progress line (xdist_progress.py): workers stay quiet.
        outputs = dataclasses.replace(
            state.options.outputs, progress=state.options.outputs.progress and not is_worker(config)
        )
        options = dataclasses.replace(state.options, outputs=outputs)
        state.generation = generate(
            cases,
            options,
            owner=worker_id(config),
            share=worker_count(config),
            target=state.run.target(),  # the one the pre-run check used
            run_started=_run_started(config),
        )
        stats = dict(state.generation.stats)
        stats["display_name"] = state.generation.display_name
        stats["simulated"] = state.generation.simulated
    except IJRError as exc:
        # A bad option, store or output folder is a usage error (exit 4), not a model failure. Raised
        # in an xdist worker it would be an INTERNALERROR: the worker reports it as its stop reason.
        if exc.exit_code == EXIT_USAGE and not is_worker(config):
            raise usage_error(exc, state.options.outputs.debug) from None
        state.error = str(exc)
        stats = {"stopped_reason": str(exc), "stopped_exit": "usage" if exc.exit_code == EXIT_USAGE else "target"}
    except GenerationInterrupted as exc:
        _keep_partial(config, cases, exc.generation)
        # pytest's own interrupt, with a message: one "!!! … !!!" line instead of the KeyboardInterrupt
        # banner pointing into this file (the IndicJR section says what was kept and how to resume).
        raise session.Interrupted("indicjr: interrupted (Ctrl-C) during generation") from None
    state.collected = cases
    if deselected:  # the controller's Run.narrow under xdist (absent otherwise: `ijr run` writes the same)
        stats["n_deselected"] = deselected
    if is_worker(config):
        config.workeroutput["ijr_generation"] = json.dumps(stats)  # type: ignore[attr-defined]
    else:
        collector = config.pluginmanager.get_plugin(COLLECTOR)
        if collector is not None:
            collector.add_generation(stats)


def pytest_deselected(items: list[pytest.Item]) -> None:
    count_deselected(items)


def _run_started(config: pytest.Config) -> float | None:
    """When generation began: under xdist the controller's clock, shipped to each worker (see
    _XdistHooks); without xdist None, the runner's own start."""
    winput = getattr(config, "workerinput", None)
    return winput.get("ijr_run_started") if winput is not None else None


def _keep_partial(config: pytest.Config, cases: list[Case], generation: Generation) -> None:
    """Ctrl-C during generation: give the controller the rows answered so far (written incomplete)."""
    from indicjr.run.engine import judge_rows

    collector = config.pluginmanager.get_plugin(COLLECTOR)
    state = get_state(config)
    if collector is None or state is None:
        return
    for row in judge_rows(
        cases, generation.responses, state.options.selection.samples, scoring=state.options.scoring.rule
    ):
        collector.run.rows[(row["id"], int(row["sample"]))] = row
    collector.add_generation({"stopped_reason": f"interrupted ({sigterm.cause(config)}) during generation"})


def _is_case_item(item: pytest.Item) -> bool:
    """Whether the plugin parametrized this item with one of the run's cases."""
    callspec = getattr(item, "callspec", None)
    return callspec is not None and isinstance(callspec.params.get("case"), Case)


def _collected_cases(items: list[pytest.Item]) -> list[Case]:
    seen: dict[str, Case] = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        c = callspec.params.get("case") if callspec else None
        if isinstance(c, Case):
            seen.setdefault(c.id, c)
    return list(seen.values())


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """Outcome letters for case tests: R J A L E O C (see controller.OUTCOME_WORDS); a failing leak is L."""
    if report.when != "call":
        return None
    letter = getattr(report, OUTCOME_ATTR, None)
    if not letter:
        return None
    if report.skipped:
        return "skipped", letter, ("SKIPPED", {"yellow": True})  # -rs shows one word for every skip
    if report.failed and letter == "L":
        # Its own category: counted as "N leaked" and listed compactly in the IndicJR section instead of a
        # failure section each (a leaking model printed 185 of them); the session still fails (exit 1)
        # and each stays a failed JUnit testcase with its message.
        return "leaked", letter, ("LEAK", {"red": True})
    if report.failed:
        return "failed", letter, ("FAILED", {"red": True})
    return "passed", letter, ("PASSED", {"green": True})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A failing snapshot test fails with the whole list of changes (terminal, short summary, JUnit alike)."""
    try:
        return (yield)
    except AssertionError:
        from indicjr.pytest_plugin.snapshot import snapshot_failure

        message = snapshot_failure(item)
        if message is None:
            raise
        raise pytest.fail.Exception(message, pytrace=False) from None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Ship a case test's rows on its call report only (one copy, not in junit properties).

    Any JSON-able attribute of a report reaches the xdist controller; user_properties would have been
    copied into the setup, call and teardown reports and written into every junit testcase.
    """
    report = yield
    if call.when == "setup" and _is_case_item(item):
        setattr(report, CASE_TEST_ATTR, True)
    if call.when == "call":
        found = case_rows(item)
        if found and found[0]:
            setattr(report, ROWS_ATTR, found[0])
            setattr(report, OUTCOME_ATTR, found[1])
            if found[1] == "E" and report.passed:  # no answer: not evaluated, never a pass
                error = found[0][0]["verdict"].get("error") or "inference error"
                path, line, _ = item.location
                report.outcome = "skipped"
                report.longrepr = (path, (line or 0) + 1, f"no answer from the model: {error}")
    return report


@pytest.fixture(scope="session")
def ijr_check(request: pytest.FixtureRequest) -> Any:
    """check(case, verdict): fails the test only for thresholds.yaml's hard per-case violations."""
    from indicjr.pytest_plugin.fixtures import check_hard_violations

    state: RunState | None = get_state(request.config)
    subsets = state.thresholds.hard_fail_canary_subsets if state else frozenset({"CH"})
    where = request.config.invocation_params.dir
    results = shown_path(state.options.outputs.out_dir / "results.jsonl", where) if state else "results.jsonl"

    def check(c: Case, v: Any) -> None:
        gen = state.generation if state else None
        reply = gen.responses.get((c.id, 0)) if gen else None
        check_hard_violations(c, v, subsets, reply=reply.text if reply else "", results=results)

    return check
