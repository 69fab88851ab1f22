"""Under pytest-xdist the snapshot is compared on the controller, from the rows it folded.

A worker holds only its own cases' verdicts. Compared in a worker, `test_snapshot` judged every other
worker's cases again for its aggregates (each case judged twice per run on two workers). So each worker
deselects the tests that ask for `ijr_snapshot` and ships what syrupy needs to name them (`shipped`);
once every case report is folded into the Run, the controller asserts `aggregates == snapshot` through
syrupy's session (recording, "1 snapshot passed", unused-snapshot accounting all as usual) and reports
each such test as its own line, like the gates. Without xdist the test runs in-process as written: the
process is the controller and its verdict cache is the folded rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from indicjr.pytest_plugin.snapshot import (
    SNAPSHOT_DIR,
    aggregates_of,
    baseline_of,
    extension_for,
    failure_message,
    missing_snapshot,
    not_compared,
)
from indicjr.pytest_plugin.state import RunState

if TYPE_CHECKING:
    from syrupy.session import SnapshotSession

SHIPPED = "ijr_snapshot_tests"  # workeroutput key: the snapshot tests a worker deselected (JSON)


def defer(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker: deselect the snapshot tests, and ship their names to the controller."""
    deferred = [item for item in items if "ijr_snapshot" in getattr(item, "fixturenames", ())]
    if not deferred:
        return
    items[:] = [item for item in items if item not in deferred]
    config.hook.pytest_deselected(items=deferred)
    config.workeroutput[SHIPPED] = json.dumps([_describe(item) for item in deferred])  # type: ignore[attr-defined]


def shipped(workeroutput: dict[str, Any]) -> list[dict[str, Any]]:
    """The snapshot tests one worker deselected (every worker ships the same)."""
    raw = workeroutput.get(SHIPPED)
    return list(json.loads(raw)) if raw else []


def _describe(item: pytest.Item) -> dict[str, Any]:
    obj = getattr(item, "obj", None)
    path, line, domain = item.location
    return {
        "nodeid": item.nodeid,
        "name": item.name,
        "path": str(item.path),
        "module": getattr(obj, "__module__", ""),
        "function": getattr(obj, "__name__", item.name),
        "location": [path, line, domain],
    }


@dataclass(frozen=True, eq=False)  # hashed by identity, like a pytest item (syrupy keys locations by it)
class ShippedItem:
    """What syrupy's PyTestLocation reads of a test item, rebuilt from a worker's description."""

    nodeid: str
    name: str
    path: Path
    obj: Any
    stash: pytest.Stash = field(default_factory=pytest.Stash)  # a failing snapshot: syrupy looks for xfail

    @classmethod
    def of(cls, test: dict[str, Any]) -> ShippedItem:
        obj = SimpleNamespace(__module__=test["module"], __name__=test["function"])
        return cls(nodeid=test["nodeid"], name=test["name"], path=Path(test["path"]), obj=obj)


def syrupy_session(config: pytest.Config) -> SnapshotSession:
    """syrupy's session of this pytest run, which records the snapshot and counts it in syrupy's summary.

    syrupy (7.x) keeps it only on the private `config._syrupy` (set in its pytest_sessionstart; its own
    `snapshot` fixture reads it there) and has no public accessor, while the controller compares a snapshot
    outside any test, with no `snapshot` fixture to ask. The private read lives here alone; if syrupy stops
    setting it, this raises naming the version, and the snapshot test fails with that line
    (tests/plugin/test_syrupy_session.py fails first on a syrupy upgrade)."""
    from syrupy.session import SnapshotSession

    found = getattr(config, "_syrupy", None)
    if not isinstance(found, SnapshotSession):
        from importlib.metadata import version

        raise RuntimeError(
            f"syrupy {version('syrupy')} keeps no SnapshotSession on config._syrupy (found {type(found).__name__}):"
            " indicjr.pytest_plugin.snapshot_controller.syrupy_session needs its new place"
        )
    return found


def compare(config: pytest.Config, state: RunState, test: dict[str, Any], *, missing: int) -> tuple[str, str]:
    """(outcome, message) of one snapshot test compared from the Run's folded rows: passed (message
    ""), failed with the list of changes, or skipped with the reason (incomplete, a slice, no baseline)."""
    from syrupy.assertion import SnapshotAssertion
    from syrupy.location import PyTestLocation

    run = state.run
    why = not_compared(config, state.options, stopped=run.stopped_reason, answered=bool(run.rows))
    if not why and missing:
        why = f"indicjr: snapshot not evaluated, the run is incomplete: {missing} case(s) without a row"
    name, named = baseline_of(config)
    ext = extension_for(directory=config.rootpath / SNAPSHOT_DIR, model=name, named=named)
    why = why or missing_snapshot(config, ext, name, named)
    if why:
        return "skipped", why
    options = state.options
    aggs = aggregates_of(
        run.rows.values(), model=options.endpoint.model, root=state.root, profile=options.selection.profile
    )
    assertion = SnapshotAssertion(
        session=syrupy_session(config),
        extension_class=ext,
        test_location=PyTestLocation(ShippedItem.of(test)),  # type: ignore[arg-type]
        update_snapshots=config.option.update_snapshots,
        update_new_snapshots_only=getattr(config.option, "update_new_snapshots_only", False),
    )
    if assertion == aggs:
        return "passed", ""
    message = failure_message(ext, aggs, Path(options.outputs.out_dir))
    return "failed", message or "\n".join(assertion.get_assert_diff())
