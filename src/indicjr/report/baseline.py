"""A model's baseline values — what a snapshot file holds — and how two of them compare.

Pure data and functions (no pytest, no syrupy): the run's aggregates (headline numbers, per-language and
per-orthography slices of the main metrics, paired effects, each with its 95% interval and n), their
file format (sorted, one line per key, values at DIGITS decimals), the tolerance rule (an entry matches
when n is equal and the intervals overlap) and the changes between two, with their direction. The
pytest plugin's snapshot.py binds them to syrupy; `ijr` can use them without pytest.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from indicjr.errors import SnapshotFileError

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
    """Reduce summarize()'s or rate_tables()' output (headline, metrics, slices, effects, effects_by_lang) to
    what a snapshot holds (entries without data are left out)."""
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
    size: float = 0.0  # |new - old| when both have a value: what "the largest changes" are ranked by

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
                size = (
                    abs(eb["value"] - ea["value"])
                    if ea and eb and ea["value"] is not None and eb["value"] is not None
                    else 0.0
                )
                changes.append(Change(key, _show(ea, with_n=with_n), _show(eb, with_n=with_n), direction, size))
    order = {"": 0, "worse": 1, "better": 2}
    return sorted(changes, key=lambda c: order[c.direction])  # stable: sections keep their order
