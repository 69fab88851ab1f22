"""What a reviewer reads first: the release verdict of each run, and how two runs compare.

The verdict comes from the gates recorded in summary.json (evaluated once, by the run that wrote it);
the comparison puts two runs' headline values side by side with the change and its direction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.metrics.direction import is_worse
from indicjr.report.baseline import Entry, aggregates, entry_matches
from indicjr.report.runs import Run
from indicjr.report.tables import Table
from indicjr.report.terminal import HEADLINE_ORDER as COMPARED  # the headline, in the terminal's order

GATE_HEADER = ("gate", "status", "value", "95% interval", "threshold", "rule", "n")


def _threshold(g: Mapping[str, Any]) -> str:
    parts = (
        f">= {g['min']:g}" if g.get("min") is not None else "",
        f"<= {g['max']:g}" if g.get("max") is not None else "",
    )
    return " and ".join(p for p in parts if p)


def _num(x: Any) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def verdict(run: Run) -> str:
    """'PASS', 'FAIL (3 of 25 gates)', or why there is no verdict."""
    gates = run.summary.get("gates") or []
    if run.summary.get("complete") is False:
        return "NO VERDICT: the run is incomplete, so its gates were not evaluated"
    if not gates:
        return "NO VERDICT: no gate was evaluated for this run"
    failed = [g for g in gates if g.get("status") == "FAIL"]
    skipped = sum(1 for g in gates if g.get("status") == "SKIPPED")
    more = f", {skipped} skipped for lack of data" if skipped else ""
    if failed:
        return f"FAIL: {len(failed)} of {len(gates)} gates failed ({', '.join(g['name'] for g in failed)}){more}"
    return f"PASS: every gate passed ({len(gates) - skipped} of {len(gates)}{more})"


def verdict_table(run: Run) -> Table:
    """Every gate with status, value, interval and threshold; failures first."""
    order = {"FAIL": 0, "SKIPPED": 1, "PASS": 2}
    gates = sorted(run.summary.get("gates") or [], key=lambda g: order.get(str(g.get("status")), 3))
    rows = tuple(
        (
            str(g["name"]),
            str(g["status"]),
            _num(g.get("value")),
            "" if g.get("lo") is None else f"[{g['lo']:.3f}, {g['hi']:.3f}]",
            _threshold(g),
            str(g.get("rule", "")),
            str(g.get("n", "")),
        )
        for g in gates
    )
    skipped = next((str(g.get("reason")) for g in gates if g.get("status") == "SKIPPED" and g.get("reason")), "")
    note = " ".join(x for x in (worst_callout(run), gate_legend(gates), skipped) if x)
    return Table(f"Release verdict — {run.label}: {verdict(run)}", GATE_HEADER, rows, note)


def gate_legend(gates: Sequence[Mapping[str, Any]]) -> str:
    """How to read a gate name such as `json_sv:subset=AB` or `free_ur`, for the metrics these gates use."""
    from indicjr.errors import ConfigError
    from indicjr.metrics.core import METRICS, split_name

    seen: dict[str, str] = {}
    for g in gates:
        metric = str(g.get("metric") or str(g.get("name", "")).split(":")[0])
        if metric.startswith("delta_jsr_"):
            seen.setdefault("delta_jsr_X", "change in JSR of variant X against its paired native/same cases")
            continue
        try:
            _track, base = split_name(metric)
        except ConfigError:  # a gate of an older or newer metric set: no legend entry, never an error
            continue
        if base in METRICS:
            seen.setdefault(base, METRICS[base].describe)
    if not seen:
        return ""
    parts = "; ".join(f"{k} {v}" for k, v in seen.items())
    return (
        f"Gate names: [json_|free_]<metric>[:<slice>=<value>] — the track, the metric ({parts}), and the slice it "
        "is restricted to (e.g. subset=AB, lang=hi); a gate with `for_each` is one gate per value."
    )


def worst_callout(run: Run) -> str:
    """The language and the script form (orthography) where the model is jailbroken most (JSON JSR)."""
    slices = run.summary.get("slices") or {}
    parts = []
    for dim, label in (("lang", "language"), ("orthography", "script form")):
        cells = {k: c for k, c in ((slices.get(dim) or {}).get("json_jsr") or {}).items() if c.get("value") is not None}
        if len(cells) < 2:
            continue
        key, cell = max(cells.items(), key=lambda kv: (kv[1]["value"], kv[0]))
        iv = "" if cell.get("lo") is None else f" [{cell['lo']:.3f}, {cell['hi']:.3f}]"
        parts.append(f"{label} {key}: {cell['value']:.3f}{iv}, n={cell.get('n')}")
    return f"Worst JSON jailbreak success — {'; '.join(parts)}." if parts else ""


def comparison_table(a: Run, b: Run) -> Table:
    """Headline values of run A and run B side by side, with B − A and whether that is better or worse."""
    rows = []
    entries_a, entries_b = _entries(a), _entries(b)
    for key in COMPARED:
        va, vb = a.headline.get(key), b.headline.get(key)
        delta = None if va is None or vb is None else vb - va
        direction = "" if not delta else "worse" if is_worse(key, delta) else "better"
        ea, eb = entries_a.get(key), entries_b.get(key)
        if direction and ea is not None and eb is not None and entry_matches(eb, ea):
            direction = "within noise"  # as `ijr diff` and the snapshots judge it
        rows.append((key, _num(va), _num(vb), "n/a" if delta is None else f"{delta:+.3f}", direction))
    gates_a, gates_b = _statuses(a), _statuses(b)
    for name in sorted(gates_a.keys() | gates_b.keys()):
        sa, sb = gates_a.get(name, "—"), gates_b.get(name, "—")
        if sa != sb:
            rows.append((f"gate {name}", sa, sb, "", "worse" if sb == "FAIL" else "better" if sa == "FAIL" else ""))
    note = (
        "B − A; better/worse follow each metric's direction (schema validity up, every other rate down); "
        "within noise: the same n and overlapping 95% intervals (the rule of `ijr diff` and the snapshots)"
    )
    return Table(
        f"Comparison: {b.label} (B) against {a.label} (A)", ("metric", "A", "B", "change", ""), tuple(rows), note
    )


def _entries(run: Run) -> dict[str, Entry]:
    """The run's headline values with their intervals and n, as `ijr diff` compares them."""
    try:
        return dict(aggregates(run.summary, model="", case_set_hash="")["headline"])
    except (KeyError, TypeError, ValueError):  # a summary without intervals: changes keep their direction
        return {}


def _statuses(run: Run) -> dict[str, str]:
    return {str(g["name"]): str(g["status"]) for g in run.summary.get("gates") or []}


def warnings_of(runs: Sequence[Run]) -> list[str]:
    return [w for r in runs for w in r.warnings()]
