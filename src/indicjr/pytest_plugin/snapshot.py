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

import functools
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypedDict

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.data import Snapshot, SnapshotCollection, SnapshotCollections
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation
from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData, SnapshotIndex

from indicjr.errors import SnapshotFileError
from indicjr.pytest_plugin.state import all_rows, get_state
from indicjr.slug import slugify

FORMAT = 1
DIGITS = 4  # the precision of the stored values, and of the comparison
SNAPSHOT_DIR = "snapshots"
SNAPSHOT_METRICS = (
    "json_jsr",
    "json_sv",
    "json_leak",
    "json_or",
    "json_ur",
    "json_abstain",
    "free_jsr",
    "free_leak",
    "free_or",
    "free_ur",
)
SUBSET_METRICS = ("json_sv", "json_abstain")  # defined on every subset, so a subset slice means something
SLICE_DIMS = ("lang", "orthography")
SECTIONS = ("headline", "effects", "slices")  # also the order of diff lines: most important first


class Entry(TypedDict):
    value: float | None
    lo: float | None
    hi: float | None
    n: int


class Aggregates(TypedDict):
    format: int
    model: str
    case_set_hash: str
    n_cases: int
    n_inference_errors: int
    headline: dict[str, Entry]
    effects: dict[str, Entry]
    slices: dict[str, Entry]


# -- content -----------------------------------------------------------------------------------------
def _entry(d: Mapping[str, Any]) -> Entry:
    return {"value": d["value"], "lo": d["lo"], "hi": d["hi"], "n": int(d.get("n", d.get("n_pairs", 0)))}


def aggregates(summary: Mapping[str, Any], *, model: str, case_set_hash: str) -> Aggregates:
    """Reduce summarize()'s output to what a snapshot holds (entries without data are left out)."""
    from indicjr.metrics.summary import HEADLINE_RATES, HEADLINE_WHERE

    metrics, slices = summary["metrics"], summary["slices"]
    # summarize() stores a slice-restricted headline rate (json_sv_ab) under its headline key.
    headline = {k: _entry(metrics[k if k in HEADLINE_WHERE else m]) for k, m in HEADLINE_RATES.items()}
    deltas = [k.removeprefix("delta_jsr_") for k in summary["headline"] if k.startswith("delta_jsr_")]
    headline.update({f"delta_jsr_{e}": _entry(summary["effects"][e]) for e in deltas})
    effects = {f"delta_jsr_{e}": _entry(d) for e, d in summary["effects"].items() if e not in deltas}
    effects.update(
        {
            f"delta_jsr_{e}:lang={lang}": _entry(d)
            for e, by_lang in summary["effects_by_lang"].items()
            for lang, d in by_lang.items()
        }
    )
    cells = {
        f"{m}:{dim}={v}": _entry(d) for dim in SLICE_DIMS for m in SNAPSHOT_METRICS for v, d in slices[dim][m].items()
    }
    cells.update({f"{m}:subset={v}": _entry(d) for m in SUBSET_METRICS for v, d in slices["subset"][m].items()})
    return {
        "format": FORMAT,
        "model": model,
        "case_set_hash": case_set_hash,
        "n_cases": int(summary["headline"]["n_cases"]),
        "n_inference_errors": int(summary["headline"]["n_inference_errors"]),
        "headline": headline,
        "effects": {k: e for k, e in effects.items() if e["n"]},
        "slices": {k: e for k, e in cells.items() if e["n"]},
    }


def dumps(agg: Aggregates) -> str:
    """Sorted JSON, one entry per line: diffs and code review read it like a table."""
    lines = []
    for key in sorted(agg):
        value: Any = agg[key]  # type: ignore[literal-required]
        if isinstance(value, dict):
            body = ",\n".join(f"    {json.dumps(k)}: {json.dumps(value[k], sort_keys=True)}" for k in sorted(value))
            lines.append(f"  {json.dumps(key)}: {{\n{body}\n  }}" if body else f"  {json.dumps(key)}: {{}}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def loads(text: str, *, source: str) -> Aggregates:
    """Parse and check a snapshot file; SnapshotFileError names the file and the first problem."""

    def bad(problem: str) -> SnapshotFileError:
        return SnapshotFileError(f"{source}: not an IndicJR snapshot ({problem}); re-record it with --snapshot-update")

    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise bad(f"invalid JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(raw, dict):
        raise bad("the top level must be an object")
    if raw.get("format") != FORMAT:
        raise bad(f"format is {raw.get('format')!r}, expected {FORMAT}")
    for key, kind in (("model", str), ("case_set_hash", str), ("n_cases", int), ("n_inference_errors", int)):
        if not isinstance(raw.get(key), kind) or isinstance(raw.get(key), bool):
            raise bad(f"{key} must be a {kind.__name__}")
    for section in SECTIONS:
        entries = raw.get(section)
        if not isinstance(entries, dict):
            raise bad(f"{section} must be an object")
        for name, e in entries.items():
            entries[name] = _checked_entry(e, f"{section}.{name}", bad)
    return raw  # type: ignore[return-value]


def _checked_entry(e: Any, where: str, bad: Any) -> Entry:
    if not isinstance(e, dict) or not isinstance(e.get("n"), int) or isinstance(e.get("n"), bool):
        raise bad(f"{where} must be an object with an integer n")
    nums = [e.get(k) for k in ("value", "lo", "hi")]
    if any(
        x is not None and (not isinstance(x, int | float) or isinstance(x, bool) or not math.isfinite(x)) for x in nums
    ):
        raise bad(f"{where}: value, lo and hi must be numbers or null")
    value, lo, hi = (None if x is None else round(float(x), DIGITS) for x in nums)
    return {"value": value, "lo": lo, "hi": hi, "n": e["n"]}


# -- comparison --------------------------------------------------------------------------------------
def entry_matches(new: Entry, old: Entry) -> bool:
    """The tolerance rule: same n, and the two 95% intervals overlap (or both have no data)."""
    if new["n"] != old["n"] or (new["value"] is None) != (old["value"] is None):
        return False
    if new["value"] is None:
        return True
    (nlo, nhi), (olo, ohi) = _interval(new), _interval(old)
    return nlo <= ohi and olo <= nhi


def _interval(e: Entry) -> tuple[float, float]:
    value = e["value"] if e["value"] is not None else 0.0
    return (value, value) if e["lo"] is None or e["hi"] is None else (e["lo"], e["hi"])


@dataclass(frozen=True, slots=True)
class Change:
    key: str
    old: str
    new: str
    direction: str = ""  # "worse" | "better" | "" (not a rate: the case set, counts, an entry (dis)appearing)

    def line(self) -> str:
        return f"{self.direction or 'changed':7} {self.key}  {self.old} -> {self.new}"


def _direction(key: str, old: Entry | None, new: Entry | None) -> str:
    from indicjr.metrics.direction import is_worse

    if old is None or new is None or old["value"] is None or new["value"] is None:
        return ""
    delta = new["value"] - old["value"]
    return "" if not delta else "worse" if is_worse(key.split(":")[0], delta) else "better"


def _num(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") or "0"


def _show(e: Entry | None, *, with_n: bool) -> str:
    if e is None:
        return "(absent)"
    if e["value"] is None:
        return f"no data (n={e['n']})"
    if e["lo"] is None or e["hi"] is None:
        return f"{_num(e['value'])} (no interval, n={e['n']})"
    text = f"{_num(e['value'])} [{_num(e['lo'])},{_num(e['hi'])}]"
    return f"{text} n={e['n']}" if with_n else text


def compare(new: Aggregates, old: Aggregates, *, same_model: bool = True) -> list[Change]:
    """Every difference beyond the tolerance rule, scalars first, then section by section, worse first.

    `same_model=False` (a named baseline such as `production`): the model spec is expected to differ.
    """
    scalars = ("model", "case_set_hash", "n_cases", "n_inference_errors")[0 if same_model else 1 :]
    old_any: dict[str, Any] = dict(old)
    new_any: dict[str, Any] = dict(new)
    changes = [Change(k, str(old_any[k]), str(new_any[k])) for k in scalars if old_any[k] != new_any[k]]
    for section in SECTIONS:
        a: dict[str, Entry] = old[section]  # type: ignore[literal-required]
        b: dict[str, Entry] = new[section]  # type: ignore[literal-required]
        for key in sorted(a.keys() | b.keys()):
            ea, eb = a.get(key), b.get(key)
            if ea is None or eb is None or not entry_matches(eb, ea):
                with_n = ea is None or eb is None or ea["n"] != eb["n"]
                direction = _direction(key, ea, eb)
                changes.append(Change(key, _show(ea, with_n=with_n), _show(eb, with_n=with_n), direction))
    order = {"": 0, "worse": 1, "better": 2}
    return sorted(changes, key=lambda c: order[c.direction])  # stable: sections keep their order


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
        new = loads(str(serialized_data), source="received")
        changes = compare(new, old, same_model=not self.named)
        worse, better = (sum(c.direction == d for c in changes) for d in ("worse", "better"))
        against = f" (baseline {self.model_slug}, recorded from {old['model']})" if self.named else ""
        yield (
            f"{self.display}{against}: {len(changes)} value(s) changed beyond sampling noise "
            f"(n differs, or the 95% intervals do not overlap): {worse} worse, {better} better"
        )
        yield from (c.line() for c in changes)


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
    model = state.options.model if state else "sim:reference"
    name = config.getoption("ijr_baseline", None)
    return (name, slugify(name) != slugify(model)) if name else (model, False)


def record_hint(config: pytest.Config) -> str:
    """How to record a baseline, for a run that has none."""
    state = get_state(config)
    model = state.options.model if state else "sim:reference"
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
    """This run's aggregates over every collected case (each process judged them all before the tests)."""
    state = get_state(request.config)
    if state is None:
        pytest.fail("indicjr: the plugin is not configured in this session", pytrace=False)
    if state.error or (state.generation is not None and state.generation.stop_error):
        why = state.error or (state.generation.stop_error if state.generation else "")
        pytest.fail(f"indicjr: no snapshot of an incomplete run: generation stopped: {why}", pytrace=False)
    rows = all_rows(state)
    if not rows:
        pytest.skip("indicjr: no benchmark case was collected, so there is nothing to snapshot")
    sliced = _slicing(request.config, state.options)
    if sliced:
        pytest.skip(f"indicjr: snapshots describe the whole profile; this run is a slice ({sliced})")
    return _aggregates_of(rows, model=state.options.model, root=state.root, profile=state.options.profile)


def _slicing(config: pytest.Config, options: Any) -> str:
    """Which options narrowed the case set (a slice is never compared with a whole-profile snapshot)."""
    used = [
        name
        for name, value in (
            ("--ijr-lang", options.langs),
            ("--ijr-track", options.tracks),
            ("--ijr-limit", options.limit),
            ("-k", config.option.keyword),
            ("-m", config.option.markexpr),
        )
        if value
    ]
    return ", ".join(used)


def _aggregates_of(rows: Any, *, model: str, root: Path, profile: str) -> Aggregates:
    from indicjr.metrics.summary import summarize
    from indicjr.run.engine import selection_hash
    from indicjr.run.results import sort_rows
    from indicjr.run.selection import profile_dir

    ordered: Sequence[Any] = sort_rows(rows)
    # The same case-set hash as summary.json: the profile and the ids actually run.
    digest = selection_hash(profile_dir(profile, root=root), [r["id"] for r in ordered])
    return aggregates(summarize(ordered, meta={}), model=model, case_set_hash=digest)


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
    option = request.config.option
    recording = option.update_snapshots or getattr(option, "update_new_snapshots_only", False)
    if not recording and not ext.path().is_file():
        what = f"baseline {name!r}" if named else f"snapshot of {name}"
        pytest.skip(f"indicjr: no {what} yet ({ext.display}); record one with: {record_hint(request.config)}")
    return snapshot.use_extension(ext)
