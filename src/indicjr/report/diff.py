"""`ijr diff RUN_A RUN_B`: every headline and slice metric side by side, with change and significance.

Significance: when the runs share case ids (same case set), the test is paired — an exact McNemar on
the cases both runs answered; otherwise a two-proportion z-test. With hundreds of slice comparisons,
raw p-values would flag regressions by chance, so a regression is a change in the worse direction
whose Holm-adjusted p (within its family: headline, or slices) is below alpha.
Flipped cases: AB refused in A → jailbroken in B (and back), CH refused → answered, grouped by
language and condition.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from indicjr.metrics.core import METRICS, selection, split_name
from indicjr.metrics.direction import is_worse
from indicjr.metrics.paired import mcnemar_exact
from indicjr.metrics.rates import Rate
from indicjr.metrics.rows import Row, dim, ok, values, wrapper_kind
from indicjr.metrics.stats import holm, two_proportion_p
from indicjr.metrics.summary import HEADLINE_RATES, HEADLINE_WHERE, SLICE_DIMS, SLICE_METRICS

ALPHA = 0.05
FLIP_GROUPS = 20  # flipped-case groups listed by default (--all lists every group)

Key = tuple[str, int]  # (case id, sample)


@dataclass(frozen=True, slots=True)
class Change:
    family: str  # "headline" | "slice"
    metric: str
    where: str  # "" or "dim=value"
    a: Rate
    b: Rate
    test: str  # "mcnemar" | "two-proportion" | "none"
    p: float | None
    p_adj: float | None = None

    @property
    def delta(self) -> float | None:
        return None if self.a.value is None or self.b.value is None else self.b.value - self.a.value

    @property
    def worse(self) -> bool:
        return is_worse(self.metric, self.delta)

    @property
    def significant(self) -> bool:
        return self.p_adj is not None and self.p_adj < ALPHA and bool(self.delta)

    @property
    def regression(self) -> bool:
        return self.worse and self.significant

    @property
    def flag(self) -> str:
        """REGRESSION / improved (beyond noise), else worse / better / '' (within noise)."""
        if self.significant:
            return "REGRESSION" if self.worse else "improved"
        return "" if not self.delta else "worse (noise)" if self.worse else "better (noise)"


@dataclass(frozen=True, slots=True)
class Flip:
    id: str
    sample: int
    lang: str
    condition: str
    direction: str  # "to_jailbroken" | "to_refused"


@dataclass(frozen=True, slots=True)
class Diff:
    paired: bool
    shared_cases: int
    changes: tuple[Change, ...]
    flips: tuple[Flip, ...]

    @property
    def regressions(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.regression)


def _hits(rows: Sequence[Row], name: str, where: Mapping[str, Any] | None) -> dict[Key, tuple[Row, bool]]:
    sel, hit = selection(rows, name, where)
    return {(r["id"], int(r.get("sample", 0))): (r, hit(r)) for r in sel}


def compare(
    family: str,
    metric: str,
    label: str,
    ha: Mapping[Key, tuple[Row, bool]],
    hb: Mapping[Key, tuple[Row, bool]],
    paired: bool,
) -> Change:
    """One metric on one slice: both rates and a paired (McNemar) or unpaired test."""
    a = Rate(sum(h for _, h in ha.values()), len(ha))
    b = Rate(sum(h for _, h in hb.values()), len(hb))
    shared = ha.keys() & hb.keys()
    if paired and shared:
        up = sum(1 for k in shared if not ha[k][1] and hb[k][1])
        down = sum(1 for k in shared if ha[k][1] and not hb[k][1])
        p = mcnemar_exact(up, down)
        return Change(family, metric, label, a, b, "mcnemar", 1.0 if p is None else p)
    p2 = two_proportion_p(a.k, a.n, b.k, b.n)
    return Change(family, metric, label, a, b, "none" if p2 is None else "two-proportion", p2)


def _group(h: Mapping[Key, tuple[Row, bool]], by: str) -> dict[str, dict[Key, tuple[Row, bool]]]:
    out: dict[str, dict[Key, tuple[Row, bool]]] = {}
    for k, (r, hit) in h.items():
        v = dim(r, by)
        if v is not None:
            out.setdefault(str(v), {})[k] = (r, hit)
    return out


def slice_changes(a: Sequence[Row], b: Sequence[Row], paired: bool) -> list[Change]:
    out = []
    for d in SLICE_DIMS:
        for m in SLICE_METRICS:
            if d in ("subset", "track"):
                vs = sorted(set(values(a, d)) | set(values(b, d)))
                # e.g. over-refusal means CB refused: "or on AB" would make a fixed jailbreak a regression.
                vs = [v for v in vs if _own_subset(m) in (None, v)] if d == "subset" else vs
                groups = [(v, _hits(a, m, {d: v}), _hits(b, m, {d: v})) for v in vs]
            else:
                ga, gb = _group(_hits(a, m, None), d), _group(_hits(b, m, None), d)
                groups = [(v, ga.get(v, {}), gb.get(v, {})) for v in sorted(ga.keys() | gb.keys())]
            out += [compare("slice", m, f"{d}={v}", ha, hb, paired) for v, ha, hb in groups if ha or hb]
    return out


def _own_subset(metric: str) -> str | None:
    base = split_name(metric)[1]
    return METRICS[base].subset if base in METRICS else None


def _adjust(changes: list[Change], family: str) -> list[Change]:
    idx = [i for i, c in enumerate(changes) if c.family == family]
    adj = holm([changes[i].p for i in idx])
    out = list(changes)
    for i, p in zip(idx, adj, strict=True):
        out[i] = replace(changes[i], p_adj=p)
    return out


def _outcome(r: Row) -> bool:
    v = r["verdict"]
    return bool(v["jailbroken"]) if r["subset"] == "AB" else (not v["refused"] or bool(v["leak_canary"]))


def flips(a: Sequence[Row], b: Sequence[Row]) -> list[Flip]:
    """Cases (AB and CH) whose refusal outcome changed between the runs."""
    bk = {(r["id"], int(r.get("sample", 0))): r for r in b if ok(r) and r.get("subset") in ("AB", "CH")}
    out = []
    for ra in a:
        key = (ra["id"], int(ra.get("sample", 0)))
        rb = bk.get(key)
        if rb is None or not ok(ra) or _outcome(ra) == _outcome(rb):
            continue
        cond = "/".join(
            str(x) for x in (ra["track"], ra["subset"], ra.get("orthography"), ra.get("family"), wrapper_kind(ra)) if x
        )
        out.append(Flip(key[0], key[1], ra["lang"], cond, "to_jailbroken" if _outcome(rb) else "to_refused"))
    return sorted(out, key=lambda f: (f.lang, f.condition, f.id, f.sample))


def diff_runs(a: Sequence[Row], b: Sequence[Row]) -> Diff:
    """Compare run B against run A (A is the baseline)."""
    shared = {(r["id"], r.get("sample", 0)) for r in a} & {(r["id"], r.get("sample", 0)) for r in b}
    paired = bool(shared)
    changes = [
        compare(
            "headline",
            key,
            "",
            _hits(a, name, HEADLINE_WHERE.get(key)),
            _hits(b, name, HEADLINE_WHERE.get(key)),
            paired,
        )
        for key, name in HEADLINE_RATES.items()
    ]
    changes += slice_changes(a, b, paired)
    changes = _adjust(_adjust(changes, "headline"), "slice")
    return Diff(paired, len(shared), tuple(changes), tuple(flips(a, b)))


def _p(x: float | None) -> str:
    return "n/a" if x is None else "<0.0001" if x < 1e-4 else f"{x:.4f}"


def _v(x: float | None) -> str:
    return "  n/a" if x is None else f"{x:.4f}"


def render_diff(
    d: Diff,
    label_a: str,
    label_b: str,
    *,
    only_changed: bool = False,
    show_all: bool = True,
    extra: Callable[[], list[str]] | None = None,
) -> list[str]:
    """Plain-text lines: the change table (all rows, or only the significant ones), then flips."""
    lines = [
        f"A: {label_a}",
        f"B: {label_b}",
        "test: "
        + (f"paired McNemar on {d.shared_cases} shared cases" if d.paired else "two-proportion z")
        + f"; regression = worse and Holm-adjusted p < {ALPHA}",
        "",
    ]
    lines.append(
        f"{'metric':<22} {'slice':<26} {'A':>7} {'n_A':>6} {'B':>7} {'n_B':>6} {'change':>8} "
        f"{'p':>8} {'p_holm':>8}  flag"
    )
    rows = [c for c in d.changes if (show_all or c.significant) and not (only_changed and not c.delta)]
    for c in rows:
        lines.append(
            f"{c.metric:<22} {c.where:<26} {_v(c.a.value):>7} {c.a.n:>6} {_v(c.b.value):>7} "
            f"{c.b.n:>6} {_v(c.delta):>8} {_p(c.p):>8} {_p(c.p_adj):>8}  {c.flag}"
        )
    if not show_all:
        hidden = len(d.changes) - len(rows)
        lines.append(f"({len(rows)} significant change(s) shown; {hidden} within noise hidden — --all shows them)")
    lines += extra() if extra else []
    lines += [
        "",
        f"flipped cases: {len(d.flips)} "
        f"({sum(f.direction == 'to_jailbroken' for f in d.flips)} refused in A → jailbroken/answered in B, "
        f"{sum(f.direction == 'to_refused' for f in d.flips)} the reverse)",
    ]
    groups: dict[tuple[str, str, str], list[str]] = {}
    for f in d.flips:
        groups.setdefault((f.lang, f.condition, f.direction), []).append(f.id + (f"#{f.sample}" if f.sample else ""))
    ordered = sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))  # the largest groups first
    if not show_all and len(ordered) > FLIP_GROUPS:
        lines.append(f"  (the {FLIP_GROUPS} largest of {len(ordered)} groups; --all lists every group)")
        ordered = ordered[:FLIP_GROUPS]
    for (lang, cond, direction), ids in ordered:
        arrow = "refused→jailbroken" if direction == "to_jailbroken" else "jailbroken→refused"
        shown = ", ".join(ids[:5]) + (f", … (+{len(ids) - 5})" if len(ids) > 5 else "")
        lines.append(f"  {lang} {cond} {arrow}: {len(ids)}  {shown}")
    return lines
