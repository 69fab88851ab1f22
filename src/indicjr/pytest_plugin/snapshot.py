"""Model snapshots: the run's aggregates asserted against `snapshots/<model-slug>.json` through syrupy.

`--snapshot-update` records a model version; a later run of the same model fails `test_snapshot` with
one line per value that moved, e.g. `json_jsr:lang=hi  0.412 [0.35,0.47] -> 0.701 [0.64,0.76]`.

The file holds, per model: the headline numbers, per-language and per-orthography values of the main
metrics (the track is part of the metric name: json_jsr, free_jsr; subset slices for the metrics that
are not tied to one subset), the paired effects overall and per language — each with its 95% interval
and n — plus the model spec and the case-set hash. Keys are named like gates (thresholds.yaml).

Tolerance rule (sampling noise must not fail a rerun of an unchanged model):
    values are compared at 4 decimals, as stored. An entry matches when its n equals the snapshot's
    and its 95% interval overlaps the snapshot's (ends inclusive). A value without an interval (a
    paired effect over a single core) must be equal; an entry without data matches only an entry
    without data. The model spec, the case-set hash and the counts must be equal, and an entry that
    appears or disappears is a change: a different case set is a real change, not noise.
Since a matching snapshot is not rewritten, `--snapshot-update` keeps the recorded baseline until the
model really moves.

Syrupy's own machinery does the rest (serializer, storage, `matches`, diff lines, --snapshot-update,
--snapshot-details, unused-snapshot accounting). Discovery is restricted to the current model's file,
so a run of one model never reports or deletes another model's snapshot.
"""

from __future__ import annotations

__all__ = [
    "SNAPSHOT_DIR",
    "Aggregates",
    "Entry",
    "aggregates_of",
    "baseline_of",
    "check_snapshot_file",
    "compare",
    "dumps",
    "entry_matches",
    "extension_for",
    "failure_message",
    "ijr_aggregates",
    "ijr_snapshot",
    "loads",
    "missing_snapshot",
    "not_compared",
    "record_hint",
    "snapshot_failure",
]

import functools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.data import Snapshot, SnapshotCollection, SnapshotCollections
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation
from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData, SnapshotIndex

from indicjr.errors import SnapshotFileError
from indicjr.pytest_plugin.state import all_rows, get_state
from indicjr.report.baseline import SNAPSHOT_DIR, Aggregates, Entry, aggregates, compare, dumps, entry_matches, loads
from indicjr.slug import slugify


# -- the syrupy extension ----------------------------------------------------------------------------
class AggregatesSnapshotExtension(SingleFileSnapshotExtension):
    """Stores one model's aggregates at `<directory>/<model_slug>.json`; bound by `extension_for`.

    Syrupy instantiates extensions without arguments, so the binding lives on a per-model subclass.
    """

    file_extension = "json"
    _write_mode = WriteMode.TEXT
    directory: ClassVar[str] = SNAPSHOT_DIR
    model_slug: ClassVar[str] = "model"
    display: ClassVar[str] = f"{SNAPSHOT_DIR}/model.json"  # the path as shown in messages
    named: ClassVar[bool] = False  # a named baseline (--ijr-baseline), not the model's own snapshot

    @classmethod
    def path(cls) -> Path:
        return Path(cls.directory, f"{cls.model_slug}.{cls.file_extension}")

    # storage: one file per model, wherever the test lives
    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.directory

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.directory

    @classmethod
    def get_file_basename(cls, *, test_location: PyTestLocation, index: SnapshotIndex) -> str:
        return cls.model_slug

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: SnapshotIndex = 0) -> str:
        # named after the test (syrupy relates names to tests); discover_snapshots uses the same name
        return SingleFileSnapshotExtension.get_snapshot_name(test_location=test_location, index=index)

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        return True  # the file is named after the model, not the test: every site may use it

    def discover_snapshots(
        self, *, test_location: PyTestLocation, ignore_extensions: list[str] | None = None
    ) -> SnapshotCollections:
        """Only this model's file: other models' snapshots in the directory are not ours to judge."""
        discovered = SnapshotCollections()
        location = self.get_location(test_location=test_location, index=0)
        if Path(location).is_file():
            collection = SnapshotCollection(location=location)
            collection.add(Snapshot(name=self.get_snapshot_name(test_location=test_location)))
            discovered.add(collection)
        return discovered

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> SerializableData | None:
        try:  # undecodable bytes become a format problem reported in one line, not a traceback
            return Path(snapshot_location).read_bytes().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return None

    # serializer, comparator, diff
    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> str:
        return dumps(data)

    def matches(self, *, serialized_data: SerializableData, snapshot_data: SerializableData) -> bool:
        try:
            old = loads(str(snapshot_data), source=self.display)
        except SnapshotFileError:
            return False
        return not compare(loads(str(serialized_data), source="received"), old, same_model=not self.named)

    def diff_lines(self, serialized_data: SerializedData, snapshot_data: SerializedData) -> Iterator[str]:
        if not snapshot_data and not self.path().is_file():
            yield f"{self.display} does not exist: record this model with --snapshot-update"
            return
        try:
            old = loads(str(snapshot_data), source=self.display)
        except SnapshotFileError as exc:
            yield str(exc)
            return
        yield from self.describe(loads(str(serialized_data), source="received"), old)

    @classmethod
    def describe(cls, new: Aggregates, old: Aggregates, full_list: Path | None = None) -> list[str]:
        """The count, then one line per change beyond noise; past TOP_CHANGES (with `full_list`), the
        non-rate changes and the largest moves, and where the whole list was written."""
        changes = compare(new, old, same_model=not cls.named)
        worse, better = (sum(c.direction == d for c in changes) for d in ("worse", "better"))
        against = f" (baseline {cls.model_slug}, recorded from {old['model']})" if cls.named else ""
        head = (
            f"{cls.display}{against}: {len(changes)} value(s) changed beyond sampling noise "
            f"(n differs, or the 95% intervals do not overlap): {worse} worse, {better} better"
        )
        lines = [c.line() for c in changes]
        if new["case_set_hash"] != old["case_set_hash"]:
            # Another profile (lite vs full) or a rebuilt case set: its rates are not the same quantities.
            head += (
                f"; the snapshot was recorded on another case set ({old['n_cases']} cases, hash "
                f"{old['case_set_hash'][:12]}; this run {new['n_cases']}, {new['case_set_hash'][:12]}): record a "
                "baseline for this case set with --ijr-baseline NAME --snapshot-update, or run the recorded profile"
            )
        if full_list is None or len(changes) <= TOP_CHANGES:
            return [head, *lines]
        full_list.parent.mkdir(parents=True, exist_ok=True)
        full_list.write_text("\n".join([head, *lines]) + "\n", encoding="utf-8")
        top = sorted(changes, key=lambda c: (bool(c.direction), -c.size))[:TOP_CHANGES]
        rest = len(changes) - len(top)
        return [head, *(c.line() for c in top), f"... and {rest} smaller; every change: {full_list}"]


TOP_CHANGES = 20  # a failing test_snapshot lists this many changes; the rest go to a file


def snapshot_failure(item: pytest.Item) -> str | None:
    """The whole failure message of a failing snapshot test, or None for any other test.

    pytest would print syrupy's assertion, truncated after 8 lines, and `assert [+ received] == [- snapshot]`
    in the short summary and JUnit; this message is the same in all three.
    """
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    snap, aggs = funcargs.get("ijr_snapshot"), funcargs.get("ijr_aggregates")
    ext = getattr(snap, "extension_class", None)
    if aggs is None or not (isinstance(ext, type) and issubclass(ext, AggregatesSnapshotExtension)):
        return None
    state = get_state(item.config)
    return failure_message(ext, aggs, Path(state.options.outputs.out_dir) if state else None)


def failure_message(ext: type[AggregatesSnapshotExtension], aggs: Aggregates, out_dir: Path | None) -> str | None:
    """The count and the changes beyond noise (past TOP_CHANGES, the whole list goes to out_dir), or None
    when the snapshot file cannot be read (syrupy's own message says what is wrong with it)."""
    try:
        old = loads(ext.path().read_text(encoding="utf-8"), source=ext.display)
    except (OSError, UnicodeDecodeError, SnapshotFileError):
        return None
    return "\n".join(ext.describe(aggs, old, out_dir / "snapshot-diff.txt" if out_dir else None))


@functools.cache
def extension_for(*, directory: Path, model: str, named: bool = False) -> type[AggregatesSnapshotExtension]:
    """The extension class bound to one snapshot file (cached: syrupy keys state by class).

    `model` is the baseline's name: the model spec itself, or a name given with --ijr-baseline.
    """
    slug = slugify(model)
    display = f"{directory.name}/{slug}.json"
    return type(
        f"AggregatesSnapshot_{slug}",
        (AggregatesSnapshotExtension,),
        {"directory": str(directory), "model_slug": slug, "display": display, "named": named},
    )


def baseline_of(config: pytest.Config) -> tuple[str, bool]:
    """(the snapshot's name, whether it was named with --ijr-baseline) — default: the model itself."""
    state = get_state(config)
    model = state.options.endpoint.model if state else "sim:reference"
    name = config.getoption("ijr_baseline", None)
    return (name, slugify(name) != slugify(model)) if name else (model, False)


def record_hint(config: pytest.Config) -> str:
    """How to record a baseline, for a run that has none."""
    state = get_state(config)
    model = state.options.endpoint.model if state else "sim:reference"
    name, named = baseline_of(config)
    flag = f" --ijr-baseline {name}" if named else ""
    return f"pytest --model {model}{flag} --snapshot-update"


def check_snapshot_file(directory: Path, model: str) -> None:
    """Fail fast (SnapshotFileError, a usage error) when this model's snapshot file is not a snapshot.

    A hand-edited, broken snapshot is a configuration problem, not a model regression: it must not
    exit like a failing gate. Checked before any test; --snapshot-update skips it (it rewrites the file).
    """
    path = directory / f"{slugify(model)}.json"
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SnapshotFileError(f"{directory.name}/{path.name}: cannot read: {exc}") from None
        loads(text, source=f"{directory.name}/{path.name}")


# -- fixtures ----------------------------------------------------------------------------------------
@pytest.fixture
def ijr_aggregates(request: pytest.FixtureRequest) -> Aggregates:
    """This run's aggregates over every collected case, in the process that compares the snapshot."""
    state = get_state(request.config)
    if state is None:
        pytest.fail("indicjr: the plugin is not configured in this session", pytrace=False)
    generation = state.generation
    stopped = state.error or (generation.stop_error if generation is not None else None)
    answered = generation is not None and any((c.id, 0) in generation.responses for c in state.collected)
    why = not_compared(request.config, state.options, stopped=stopped, answered=answered)
    if why:  # checked before judging
        pytest.skip(why)
    # Without xdist this process is the controller (under xdist the controller compares from its folded
    # rows: snapshot_controller.py): each case test judged its case into the one verdict cache; a case
    # not run yet (a reordered run) is judged now, once, and its own test reads the same verdict.
    options = state.options
    return aggregates_of(
        all_rows(state), model=options.endpoint.model, root=state.root, profile=options.selection.profile
    )


def not_compared(config: pytest.Config, options: Any, *, stopped: str | None, answered: bool) -> str:
    """Why this run's snapshot is not compared ("" when it is): generation stopped, nothing answered,
    or a slice of the profile."""
    if stopped:
        # Not evaluated (like the gates): the run's exit status (6) already says it stopped.
        return f"indicjr: snapshot not evaluated, the run is incomplete: generation stopped: {stopped}"
    if not answered:
        return "indicjr: no benchmark case was collected, so there is nothing to snapshot"
    sliced = _slicing(config, options)
    return f"indicjr: snapshots describe the whole profile; this run is a slice ({sliced})" if sliced else ""


def missing_snapshot(config: pytest.Config, ext: type[AggregatesSnapshotExtension], name: str, named: bool) -> str:
    """Why a run that does not record skips its comparison: no baseline file yet ("" when there is one)."""
    option = config.option
    recording = getattr(option, "update_snapshots", False) or getattr(option, "update_new_snapshots_only", False)
    if recording or ext.path().is_file():
        return ""
    what = f"baseline {name!r}" if named else f"snapshot of {name}"
    return f"indicjr: no {what} yet ({ext.display}); record one with: {record_hint(config)}"


def _slicing(config: pytest.Config, options: Any) -> str:
    """Which options narrowed the case set (a slice is never compared with a whole-profile snapshot)."""
    used = [
        name
        for name, value in (
            ("--ijr-lang", options.selection.langs),
            ("--ijr-track", options.selection.tracks),
            ("--ijr-limit", options.selection.limit),
            ("-k", config.option.keyword),
            ("-m", config.option.markexpr),
            ("--deselect, --lf, a node id or a conftest hook", "deselected=" in options.selection.slice),
        )
        if value
    ]
    return ", ".join(used)


def aggregates_of(rows: Any, *, model: str, root: Path, profile: str) -> Aggregates:
    from indicjr.metrics.summary import rate_tables
    from indicjr.run.engine import selection_hash
    from indicjr.run.results import sort_rows
    from indicjr.run.selection import profile_dir

    ordered: Sequence[Any] = sort_rows(rows)
    # The same case-set hash as summary.json: the profile and the ids actually run.
    digest = selection_hash(profile_dir(profile, root=root), [r["id"] for r in ordered])
    return aggregates(rate_tables(ordered), model=model, case_set_hash=digest)


@pytest.fixture
def ijr_snapshot(
    snapshot: SnapshotAssertion, ijr_aggregates: Aggregates, request: pytest.FixtureRequest
) -> SnapshotAssertion:
    """syrupy's `snapshot`, stored at snapshots/<model-slug>.json with the tolerance rule above.

    Depends on ijr_aggregates so that a skipped or failed aggregation never registers the assertion
    (a registered but unused snapshot would count as unused, and --snapshot-update would delete it).
    A model without a snapshot skips rather than fails: the first run of a new model (and every run
    that does not care about snapshots) is judged by its gates alone until someone records one.
    """
    name, named = baseline_of(request.config)
    ext = extension_for(directory=request.config.rootpath / SNAPSHOT_DIR, model=name, named=named)
    why = missing_snapshot(request.config, ext, name, named)
    if why:
        pytest.skip(why)
    return snapshot.use_extension(ext)
