"""thresholds.yaml: which metric, on which slice, may not exceed (or fall below) what, by which rule.

Rules: `point` fails when the point estimate is beyond the threshold; `bound` fails only when the whole
95% interval lies beyond it (stable in CI where sampling noise would make point gates flaky);
`worst_case` fails when the pessimistic confidence bound is beyond it — the rate with every
low-confidence verdict counted against the model (metrics/confidence.py; rates only, not paired effects).
Paired effects are gated as `delta_jsr_<romanized|mixed|noisy|free_json|cross_same|e2_same>`.
Every problem is a ThresholdsError naming the file, the key path and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from indicjr.errors import ConfigError, ThresholdsError
from indicjr.langs import LANGS, Family, Intent, Mode, Orthography, Subset, Task, Track
from indicjr.metrics.core import metric_slice, split_name
from indicjr.metrics.paired import EFFECTS
from indicjr.yamlio import load_yaml

RULES = ("point", "bound", "worst_case")
SLICE_VALUES: dict[str, frozenset[str]] = {
    "lang": frozenset(LANGS),
    "track": frozenset(t.value for t in Track),
    "subset": frozenset(s.value for s in Subset),
    "family": frozenset(f.value for f in Family),
    "mode": frozenset(m.value for m in Mode),
    "wrapper": frozenset({"same", "en", "e2"}),
    "wrapper_lang": frozenset((*LANGS, "en")),
    "orthography": frozenset(o.value for o in Orthography),
    "intent": frozenset(i.value for i in Intent),
    "task": frozenset(t.value for t in Task),
}
DELTA_PREFIX = "delta_jsr_"
# Used when the project has no thresholds.yaml: a release gate never gates nothing.
DEFAULT_THRESHOLDS = Path(__file__).with_name("default_thresholds.yaml")


@dataclass(frozen=True, slots=True)
class Gate:
    name: str
    metric: str
    where: tuple[tuple[str, str], ...]
    min: float | None
    max: float | None
    rule: str
    expanded: bool = False  # one of a `for_each` gate's variants (a language the case set may lack)

    @property
    def is_delta(self) -> bool:
        return self.metric.startswith(DELTA_PREFIX)


@dataclass(frozen=True, slots=True)
class Thresholds:
    gates: tuple[Gate, ...]
    hard_fail_canary_subsets: frozenset[str] = frozenset({"CH"})
    path: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    shipped: bool = False  # the package's default gates (no thresholds.yaml in the project)

    def announcement(self) -> str:
        """One line saying which gates a run uses (printed in the run's header)."""
        if self.shipped:
            return (
                f"gates: the shipped defaults ({len(self.gates)} gates; no thresholds.yaml in the project — "
                "`ijr thresholds > thresholds.yaml` copies them to edit)"
            )
        return f"gates: {self.path} ({len(self.gates)} gates)"


TOP_KEYS = ("rule", "hard_fail", "gates")


def gate_name(metric: str, where: Mapping[str, str]) -> str:
    if not where:
        return metric
    return metric + ":" + ",".join(f"{k}={v}" for k, v in sorted(where.items()))


def _fail(path: Path, key: str, problem: str) -> ThresholdsError:
    return ThresholdsError(f"{path}: {key}: {problem}")


def _number(path: Path, key: str, value: Any, lo: float, hi: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(path, key, f"must be a number, got {value!r}")
    if not lo <= float(value) <= hi:
        raise _fail(path, key, f"{value} is out of range [{lo}, {hi}]")
    return float(value)


def _check_metric(path: Path, key: str, metric: Any) -> str:
    if not isinstance(metric, str):
        raise _fail(path, key, f"must be a metric name, got {metric!r}")
    if metric.startswith(DELTA_PREFIX):
        if metric[len(DELTA_PREFIX) :] not in EFFECTS:
            raise _fail(
                path,
                key,
                f"unknown paired effect {metric!r} (known: " + ", ".join(DELTA_PREFIX + e for e in EFFECTS) + ")",
            )
        return metric
    try:
        split_name(metric)
    except ConfigError as exc:
        raise _fail(path, key, str(exc)) from None
    return metric


def _check_where(path: Path, key: str, where: Any) -> dict[str, str]:
    if where is None:
        return {}
    if not isinstance(where, dict):
        raise _fail(path, key, "must be a mapping of slice dimension -> value")
    out = {}
    for dim, value in where.items():
        if dim not in SLICE_VALUES:
            raise _fail(path, f"{key}.{dim}", f"unknown slice dimension (known: {', '.join(SLICE_VALUES)})")
        if str(value) not in SLICE_VALUES[dim]:
            raise _fail(
                path, f"{key}.{dim}", f"unknown value {value!r} (allowed: " + ", ".join(sorted(SLICE_VALUES[dim])) + ")"
            )
        out[dim] = str(value)
    return out


def _check_track(path: Path, key: str, metric: str, where: Mapping[str, str]) -> None:
    """A `where.track` other than the metric's own (json_jsr on track free) selects no case, ever."""
    if metric.startswith(DELTA_PREFIX) or "track" not in where:
        return
    own = metric_slice(metric, {}).get("track")
    if own is not None and where["track"] != own:
        raise _fail(path, f"{key}.where.track", f"{where['track']} contradicts the metric {metric!r} (track {own})")


def _duplicate_key(text: str) -> tuple[int, str] | None:
    """(line, key) of the first key given twice in one mapping, or None."""
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    stack, seen_nodes = [yaml.compose(text, Loader=loader)], set()
    while stack:
        node = stack.pop()
        if id(node) in seen_nodes:  # an alias is the same node: visit once (`&g [*g]` would loop forever)
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    if k.value in seen:
                        return k.start_mark.line + 1, str(k.value)
                    seen.add(k.value)
                stack.append(v)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return None


def _parse_gate(path: Path, i: int, raw: Any, default_rule: str) -> list[Gate]:
    key = f"gates[{i}]"
    if not isinstance(raw, dict):
        raise _fail(path, key, "each gate must be a mapping with at least `metric` and `max` or `min`")
    unknown = set(raw) - {"metric", "where", "for_each", "min", "max", "rule", "name", "note"}
    if unknown:
        raise _fail(
            path,
            f"{key}.{sorted(unknown)[0]}",
            "unknown key (allowed: metric, where, for_each, min, max, rule, name, note)",
        )
    metric = _check_metric(path, f"{key}.metric", raw.get("metric"))
    lo_range = -1.0 if metric.startswith(DELTA_PREFIX) else 0.0
    gmin = _number(path, f"{key}.min", raw.get("min"), lo_range, 1.0)
    gmax = _number(path, f"{key}.max", raw.get("max"), lo_range, 1.0)
    if gmin is None and gmax is None:
        raise _fail(path, key, "needs `max` and/or `min`")
    if gmin is not None and gmax is not None and gmin > gmax:
        raise _fail(path, key, f"min {gmin} is above max {gmax}")
    rule = raw.get("rule", default_rule)
    if rule not in RULES:
        raise _fail(path, f"{key}.rule", f"unknown rule {rule!r} (use point, bound or worst_case)")
    if rule == "worst_case" and metric.startswith(DELTA_PREFIX):
        raise _fail(
            path,
            f"{key}.rule",
            "worst_case gates a rate's confidence bounds; a paired effect has none (use point or bound)",
        )
    where = _check_where(path, f"{key}.where", raw.get("where"))
    _check_track(path, key, metric, where)
    each = raw.get("for_each")
    if each is not None and each not in SLICE_VALUES:
        raise _fail(path, f"{key}.for_each", f"unknown slice dimension {each!r}")
    if each is not None and each in where:
        raise _fail(path, f"{key}.for_each", f"{each} is also fixed in `where` ({each}={where[each]}); keep one")
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise _fail(path, f"{key}.name", f"must be a non-empty text, got {name!r}")
    variants = [where] if each is None else [{**where, each: v} for v in sorted(SLICE_VALUES[each])]
    return [
        Gate(
            name=name or gate_name(metric, w),
            metric=metric,
            where=tuple(sorted(w.items())),
            min=gmin,
            max=gmax,
            rule=rule,
            expanded=each is not None,
        )
        for w in variants
    ]


def load_thresholds(path: Path) -> Thresholds:
    """Parse and validate thresholds.yaml; every error names file, key and problem."""
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThresholdsError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise ThresholdsError(f"{path}:{line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise ThresholdsError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(raw, dict):
        raise ThresholdsError(f"{path}: top level must be a mapping with a `gates` list")
    duplicate = _duplicate_key(path.read_text(encoding="utf-8"))
    if duplicate:  # YAML keeps the last one silently: `max: 0.1` then `max: 0.9` gated at 0.9
        line, key = duplicate
        raise ThresholdsError(f"{path}:{line}: {key}: given twice in one mapping (YAML keeps only the last)")
    unknown = sorted(str(k) for k in raw if k not in TOP_KEYS)
    if unknown:  # `gatez:` would otherwise be a run with no gates that passes
        raise _fail(path, unknown[0], "unknown top-level key (allowed: " + ", ".join(TOP_KEYS) + ")")
    rule = raw.get("rule", "bound")
    if rule not in RULES:
        raise _fail(path, "rule", f"unknown rule {rule!r} (use point, bound or worst_case)")
    gates_raw = raw.get("gates")
    if not isinstance(gates_raw, list):
        raise _fail(path, "gates", "must be a list of gates" if "gates" in raw else "missing: the list of gates")
    if not gates_raw:
        raise _fail(
            path, "gates", "is empty: a release gate that gates nothing always passes (no file: shipped defaults)"
        )
    gates = [g for i, item in enumerate(gates_raw) for g in _parse_gate(path, i, item, rule)]
    names = [g.name for g in gates]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup:
        raise _fail(path, "gates", f"two gates share the name {dup!r}; give one a `name`")
    hard = raw.get("hard_fail", {}) or {}
    if isinstance(hard, dict) and set(hard) - {"canary_leak"}:  # a typo would keep the default unseen
        unknown_key = sorted(map(str, set(hard) - {"canary_leak"}))[0]  # not the allowed one beside it
        raise _fail(path, f"hard_fail.{unknown_key}", "unknown key (allowed: canary_leak)")
    subsets = hard.get("canary_leak", ["CH"]) if isinstance(hard, dict) else None
    if not isinstance(subsets, list) or not all(s in SLICE_VALUES["subset"] for s in subsets):
        raise _fail(path, "hard_fail.canary_leak", "must be a list of subsets (AB, CB, CH)")
    return Thresholds(gates=tuple(gates), hard_fail_canary_subsets=frozenset(subsets), path=str(path))


def load_or_default(path: Path) -> Thresholds:
    """The project's thresholds file, or the shipped defaults when it does not exist."""
    if path.is_file():
        return load_thresholds(path)
    shipped = load_thresholds(DEFAULT_THRESHOLDS)
    return Thresholds(shipped.gates, shipped.hard_fail_canary_subsets, str(DEFAULT_THRESHOLDS), shipped=True)
