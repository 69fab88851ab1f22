"""Evaluate gates over result rows: value, interval, threshold, PASS / FAIL / SKIPPED (n = 0, with why).

n = 0 has two causes that a release gate must keep apart: the run has no case in the gate's slice (a
slice of the profile: SKIPPED, the gate was not asked), or it has cases there and none was judged —
every answer an inference error or a context overflow. The second is a FAIL: the build must not go green
on a gate that compared nothing the model said — unless every one was a provider block the user left out
with --ijr-provider-block exclude (SKIPPED, saying so).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from indicjr.gates.thresholds import DELTA_PREFIX, Gate
from indicjr.metrics.core import METRICS, metric_slice, outside_denominator, rate, split_name
from indicjr.metrics.paired import EFFECTS, effect
from indicjr.metrics.rates import SMALL_N
from indicjr.metrics.rows import Row, matcher, ok

EXCLUDED_BLOCK = "provider_block"  # a row's `excluded` under --ijr-provider-block exclude (metrics/rows.py)


@dataclass(frozen=True, slots=True)
class GateResult:
    name: str
    metric: str
    value: float | None
    lo: float | None
    hi: float | None
    n: int
    min: float | None
    max: float | None
    rule: str
    status: str  # PASS | FAIL | SKIPPED
    reason: str = ""  # why a gate was SKIPPED (no data is never a PASS)
    bounds: tuple[float, float] | None = None  # [favourable, unfavourable] from low-confidence verdicts
    not_judged: int = 0  # cases of the slice in no denominator (inference error, context overflow, excluded)

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    @property
    def threshold(self) -> str:
        """'<= 0.65', '>= 0.8' or '>= 0.1 and <= 0.9'."""
        parts = (f">= {self.min:g}" if self.min is not None else "", f"<= {self.max:g}" if self.max is not None else "")
        return " and ".join(x for x in parts if x)

    @property
    def interval(self) -> str:
        return "" if self.lo is None or self.hi is None else f"[{self.lo:.3f}, {self.hi:.3f}]"

    def line(self) -> str:
        """One line for the terminal: status, name, value, interval, threshold (never truncated)."""
        if self.value is None:
            return f"{self.status:7} {self.name}  ({self.reason}; must be {self.threshold})"
        iv = f" {self.interval}" if self.interval else ""
        worst = f" bounds [{self.bounds[0]:.3f}, {self.bounds[1]:.3f}]" if self.bounds else ""
        rate_gate = not self.metric.startswith(DELTA_PREFIX)  # a paired effect's n counts cores, not cases
        small = f" (small n: fewer than {SMALL_N})" if rate_gate and self.n < SMALL_N else ""  # the table's `*`
        unjudged = f" ({self.not_judged} more in the slice not judged)" if self.not_judged else ""
        value = f"{self.value:.3f}{iv}{worst} n={self.n}{small}{unjudged}"
        return f"{self.status:7} {self.name} = {value}  (must be {self.threshold}, {self.rule})"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _status(
    gate: Gate, value: float | None, lo: float | None, hi: float | None, bounds: tuple[float, float] | None = None
) -> str:
    """FAIL when the rule's number is beyond the threshold: the point; the whole interval (bound); the
    pessimistic side of the confidence bounds (worst_case: the larger value against a max, the smaller
    against a min)."""
    if value is None:
        return "SKIPPED"
    # (the number compared with a max, the number compared with a min)
    if gate.rule == "worst_case":
        vs_max, vs_min = (max(bounds), min(bounds)) if bounds else (value, value)
    elif gate.rule == "point" or lo is None or hi is None:
        vs_max, vs_min = value, value
    else:
        vs_max, vs_min = lo, hi  # bound: only a whole interval beyond the threshold fails
    if gate.max is not None and vs_max > gate.max:
        return "FAIL"
    if gate.min is not None and vs_min < gate.min:
        return "FAIL"
    return "PASS"


def evaluate_gate(gate: Gate, rows: Sequence[Row]) -> GateResult:
    where = dict(gate.where)
    if gate.metric.startswith(DELTA_PREFIX):
        d = effect(rows, gate.metric[len(DELTA_PREFIX) :], where)
        value, lo, hi, n = d.value, d.lo, d.hi, d.n_pairs
    else:
        r = rate(rows, gate.metric, where)
        iv, bounds = r.interval, r.bounds
        value, n = r.value, r.n
        lo, hi = iv if iv else (None, None)
    status = _status(gate, value, lo, hi, bounds if gate.rule == "worst_case" else None)
    why = unjudged(gate, rows)
    reason = _skip_reason(gate, status)
    if status == "SKIPPED" and why:  # cases were there, none was judged: never a green build ...
        # ... unless the user asked for exactly that: every one a provider block left out by
        # --ijr-provider-block exclude (still a SKIPPED line saying so)
        status = "SKIPPED" if set(why) == {EXCLUDED_BLOCK} else "FAIL"
        reason = _unjudged_reason(gate, why)
    elif status == "SKIPPED" and not gate.is_delta and (left := outside_denominator(rows, gate.metric, where)):
        # judged, yet none in the metric's own denominator (jsr_valid with every contract invalid): the
        # cases are there, the gate compared nothing; not "no case in the slice" (unreachable below)
        status, reason = "FAIL", _outside_reason(gate, left)
    return GateResult(
        gate.name,
        gate.metric,
        value,
        lo,
        hi,
        n,
        gate.min,
        gate.max,
        gate.rule,
        status,
        reason,
        bounds if gate.rule == "worst_case" and not gate.is_delta else None,
        sum(why.values()),
    )


def unjudged(gate: Gate, rows: Sequence[Row]) -> Counter[str]:
    """The gate's slice's rows that count in no denominator, by why: `inference error`, or what left the
    row out (`context_overflow`, `provider_block` under --ijr-provider-block exclude)."""
    if gate.is_delta:
        vary, variant, reference = EFFECTS[gate.metric[len(DELTA_PREFIX) :]]
        cond: dict[str, Any] = {"subset": "AB", **({} if vary == "track" else {"track": "json"}), **dict(gate.where)}
        cond[vary] = [variant, reference]
    else:
        cond = metric_slice(gate.metric, dict(gate.where))
    pick = matcher(cond)
    return Counter(str(r.get("excluded") or "inference error") for r in rows if not ok(r) and pick(r))


def _unjudged_reason(gate: Gate, why: Counter[str]) -> str:
    where = ", ".join(f"{k}={v}" for k, v in gate.where) or "the run"
    causes = ", ".join(f"{n} {cause}" for cause, n in sorted(why.items()))
    asked = " by --ijr-provider-block exclude" if set(why) == {EXCLUDED_BLOCK} else ""
    n = sum(why.values())
    return f"none of the {n} cases for {gate.metric} in {where} was judged ({causes}{asked}): not evaluated"


def _outside_reason(gate: Gate, left: int) -> str:
    where = ", ".join(f"{k}={v}" for k, v in gate.where) or "the run"
    describe = METRICS[split_name(gate.metric)[1]].describe
    what = f"none of the {left} judged cases for {gate.metric} in {where}"
    return f"{what} is in its denominator ({describe}): not evaluated"


def _skip_reason(gate: Gate, status: str) -> str:
    if status != "SKIPPED":
        return ""
    where = ", ".join(f"{k}={v}" for k, v in gate.where) or "the run"
    what = "no paired cores" if gate.is_delta else "no cases"
    return f"{what} for {gate.metric} in {where} (n = 0): not evaluated"


def evaluate_gates(gates: Sequence[Gate], rows: Sequence[Row]) -> list[GateResult]:
    return [evaluate_gate(g, rows) for g in gates]


def not_evaluated(gates: Sequence[Gate], why: str, *, status: str = "SKIPPED") -> list[GateResult]:
    """Every gate with one shared reason: a run that stopped early (an endpoint that failed every
    request) reports its gates as SKIPPED, not evaluated, instead of dropping them (its exit status says it
    stopped); a run whose case tests left cases without a verdict (skipped by a conftest, a lost worker)
    FAILS them — nothing else would keep that build from going green (a gate never passes unseen)."""
    reason = f"not evaluated: {why}"
    return [GateResult(g.name, g.metric, None, None, None, 0, g.min, g.max, g.rule, status, reason) for g in gates]


def unreachable(gates: Sequence[Gate], results: Sequence[GateResult]) -> list[GateResult]:
    """In a run of its whole case set, a gate the project's file wrote for one slice (not a `for_each`
    variant) with no case there can never be evaluated — a `where` the profile lacks, a combination no
    case has: it FAILS saying so, instead of a SKIPPED line in every run of a green build."""
    out = []
    for gate, result in zip(gates, results, strict=True):
        if result.status == "SKIPPED" and not result.not_judged and not gate.expanded:
            where = ", ".join(f"{k}={v}" for k, v in gate.where) or "the run"
            why = f"no case of this run's case set is in {where} for {gate.metric}: it can never be evaluated; "
            result = replace(result, status="FAIL", reason=why + "fix its `where` or metric, or the profile")
        out.append(result)
    return out
