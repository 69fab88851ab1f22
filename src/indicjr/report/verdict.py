"""What a reviewer reads first: the release verdict of each run, and how two runs compare.

The verdict comes from the gates recorded in summary.json (evaluated once, by the run that wrote it);
the comparison puts two runs' headline values side by side with the change and its direction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from indicjr.metrics.direction import is_worse
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
    note = next((str(g.get("reason")) for g in gates if g.get("status") == "SKIPPED" and g.get("reason")), "")
    return Table(f"Release verdict — {run.label}: {verdict(run)}", GATE_HEADER, rows, note)


def comparison_table(a: Run, b: Run) -> Table:
    """Headline values of run A and run B side by side, with B − A and whether that is better or worse."""
    rows = []
    for key in COMPARED:
        va, vb = a.headline.get(key), b.headline.get(key)
        delta = None if va is None or vb is None else vb - va
        direction = "" if not delta else "worse" if is_worse(key, delta) else "better"
        rows.append((key, _num(va), _num(vb), "n/a" if delta is None else f"{delta:+.3f}", direction))
    gates_a, gates_b = _statuses(a), _statuses(b)
    for name in sorted(gates_a.keys() | gates_b.keys()):
        sa, sb = gates_a.get(name, "—"), gates_b.get(name, "—")
        if sa != sb:
            rows.append((f"gate {name}", sa, sb, "", "worse" if sb == "FAIL" else "better" if sa == "FAIL" else ""))
    note = "B − A; better/worse follow each metric's direction (schema validity up, every other rate down)"
    return Table(
        f"Comparison: {b.label} (B) against {a.label} (A)", ("metric", "A", "B", "change", ""), tuple(rows), note
    )


def _statuses(run: Run) -> dict[str, str]:
    return {str(g["name"]): str(g["status"]) for g in run.summary.get("gates") or []}


def warnings_of(runs: Sequence[Run]) -> list[str]:
    return [w for r in runs for w in r.warnings()]
