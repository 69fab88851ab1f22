"""`ijr report`, `ijr diff` and `ijr e7`: argparse subcommands registered by indicjr.cli.

Each subcommand sets `func(args) -> int` (the exit code). Deliberate failures raise ConfigError
(one line on stderr, exit 4, printed by the caller); `run()` does the same for standalone use:
`python -m indicjr.cli.report report RUN_DIR`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from indicjr.errors import EXIT_GATE_FAILED, IJRError


def cmd_report(args: argparse.Namespace) -> int:
    from indicjr.report.build import report_from_dirs, table2_text
    from indicjr.report.verdict import verdict

    runs, files = report_from_dirs(args.run_dirs, Path(args.out) if args.out else None, figures=not args.no_figures)
    for run in runs:
        print(f"release verdict, {run.label}: {verdict(run)}")
        for warning in run.warnings():
            print(f"warning: {warning}")
    print("\n".join(table2_text(runs)))
    if any(r.simulated for r in runs):
        print("note: simulated model(s) — numbers come from the simulator, not a real model")
    print(f"markdown: {files.markdown}\nhtml: {files.html}\nfigures: {len(files.figures)}")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from indicjr.report.diff import diff_runs, render_diff
    from indicjr.report.runs import load_run

    a, b = load_run(args.run_a), load_run(args.run_b)
    d = diff_runs(a.rows, b.rows)

    def deltas() -> list[str]:
        out = ["", "orthography effects (ΔJSR, from summary.json):"]
        for k in ("delta_jsr_romanized", "delta_jsr_mixed"):
            va, vb = a.headline.get(k), b.headline.get(k)
            ch = "n/a" if va is None or vb is None else f"{vb - va:+.4f}"
            out.append(f"  {k}: A {va}  B {vb}  change {ch}")
        return out

    for run in (a, b):
        for warning in run.warnings():
            print(f"warning: {warning}")
    lines = render_diff(d, a.label, b.label, only_changed=args.only_changed, show_all=args.all, extra=deltas)
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps(_diff_json(d), ensure_ascii=False, indent=1), encoding="utf-8")
    if d.regressions:
        print(f"{len(d.regressions)} significant regression(s) (Holm-adjusted p < 0.05)")
        return EXIT_GATE_FAILED if args.fail_on_regression else 0
    return 0


def _diff_json(d: Any) -> dict[str, Any]:
    return {
        "paired": d.paired,
        "shared_cases": d.shared_cases,
        "changes": [
            {
                "family": c.family,
                "metric": c.metric,
                "where": c.where,
                "a": c.a.to_dict(),
                "b": c.b.to_dict(),
                "delta": c.delta,
                "test": c.test,
                "p": c.p,
                "p_holm": c.p_adj,
                "regression": c.regression,
            }
            for c in d.changes
        ],
        "flips": [
            {
                "id": f.id,
                "sample": f.sample,
                "lang": f.lang,
                "condition": f.condition,
                "direction": f.direction,
            }
            for f in d.flips
        ],
    }


def _corr_line(label: str, c: Any) -> str:
    """One E7 row, rounded once here from full-precision values."""
    if c.pearson is None:
        return f"{label:<14} {c.n:>5} {'n/a':>8} {'':>17} {'n/a':>9}  {c.reason or ''}"
    iv = "" if c.fisher_lo is None else f"[{c.fisher_lo:.3f}, {c.fisher_hi:.3f}]"
    return f"{label:<14} {c.n:>5} {c.pearson:>8.3f} {iv:>17} {c.spearman:>9.3f}"


def cmd_e7(args: argparse.Namespace) -> int:
    from indicjr.metrics.reproducibility import POOLED_NOTE, reproducibility
    from indicjr.report.runs import load_run

    a, b = load_run(args.run_lite), load_run(args.run_full)
    r = reproducibility(a.rows, b.rows)
    head = f"{'':<14} {'cells':>5} {'pearson':>8} {'Fisher-z 95% CI':>17} {'spearman':>9}"
    print("agreement within each metric (cells across languages and slices):")
    print(head)
    for m, c in r["by_metric"].items():
        print(_corr_line(m, c))
    print("\nper language, each metric's level removed (cells centred on the metric's mean):")
    print(head)
    for lang, c in r["by_lang_centred"].items():
        print(_corr_line(lang, c))
    print(f"\npooled over metrics (extra: {POOLED_NOTE}):")
    print(head)
    for lang, c in r["pooled_extra"].items():
        print(_corr_line(lang, c))
    shared = r["shared_answers"]
    if shared["share"] is not None and shared["share"] >= 0.5:
        print(
            f"\nwarning: {shared['identical_answers']:,} of {shared['shared_cases']:,} shared cases have the same "
            "answer in both runs: agreement is partly identity; answer the lite run with a second seed (--ijr-seed 14)"
        )
    return 0


def add_report_commands(subparsers: Any) -> None:
    """Register report, diff and e7 on the `ijr` subparsers object."""
    p = subparsers.add_parser("report", help="Markdown + HTML + figures from one or more run directories")
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    p.add_argument("--out", default=None, help="output folder (default RUN_DIR/report of the first run)")
    p.add_argument("--no-figures", action="store_true", help="skip matplotlib figures")
    p.set_defaults(func=cmd_report)
    d = subparsers.add_parser("diff", help="compare two runs metric by metric, with significance and flips")
    d.add_argument("run_a", metavar="RUN_A")
    d.add_argument("run_b", metavar="RUN_B")
    d.add_argument("--fail-on-regression", action="store_true", help="exit 1 on a significant regression")
    d.add_argument("--all", action="store_true", help="every metric and slice, not only the significant changes")
    d.add_argument("--only-changed", action="store_true", help="with --all: hide metrics that did not change")
    d.add_argument("--json", default=None, metavar="FILE", help="also write the diff as JSON")
    d.set_defaults(func=cmd_diff)
    e = subparsers.add_parser("e7", help="lite vs full reproducibility: within each metric, per language, pooled")
    e.add_argument("run_lite", metavar="RUN_LITE")
    e.add_argument("run_full", metavar="RUN_FULL")
    e.set_defaults(func=cmd_e7)


def run(argv: Sequence[str] | None = None) -> int:
    """Standalone entry point with the same error contract as `ijr`."""
    from indicjr.cli import UsageParser

    parser = UsageParser(prog="ijr")
    add_report_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except IJRError as exc:
        print(f"ijr: error: {exc}", file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    raise SystemExit(run())
