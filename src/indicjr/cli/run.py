"""`ijr run`: the pytest run without pytest — same options (run/option_table.py), same core Run
(run/run.py), same results.jsonl and summary.json.

    ijr run --model X [--profile lite|full|PATH] [--lang hi,ta] [--track json] [--limit N] [--out DIR] ...

Exit status as pytest's: 0 every gate passed, 1 a gate failed, 4 a usage or output error, 6 the
endpoint stopped the run (results written, marked incomplete).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from indicjr.errors import EXIT_GATE_FAILED, EXIT_TARGET, EXIT_USAGE
from indicjr.run import option_table
from indicjr.run.option_table import GROUPS, add_all

if TYPE_CHECKING:
    from indicjr.run.options import RunOptions


def add_run_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    r = sub.add_parser("run", help="the safety run without pytest: generate, judge, gate, write summary.json")
    sections = {g: r.add_argument_group(g) for g in GROUPS}
    add_all(lambda group: sections[group].add_argument, pytest=False)
    # `ijr --debug run` must keep working: the subcommand's own --debug only adds, never resets it.
    r.set_defaults(func=_run, debug=argparse.SUPPRESS)


def options_from_args(args: argparse.Namespace, here: Path) -> RunOptions:
    """The run's records from `ijr run`'s parsed flags: one value per table row, as pytest reads them."""
    from indicjr.run.options import build_options, describe_slice

    return build_options(
        {o.name: getattr(args, o.cli_dest) for o in option_table.OPTIONS},
        root=here,
        cwd=here,
        slice_tag=describe_slice(lang=args.lang, track=args.track, limit=args.limit),
    )


def _run(args: argparse.Namespace) -> int:
    from indicjr.gates.thresholds import load_or_default
    from indicjr.report.terminal import render_summary
    from indicjr.run.engine import generate, load_case_set
    from indicjr.run.results import check_out_dir
    from indicjr.run.run import Run

    here = Path.cwd()
    options = options_from_args(args, here)
    run = Run.create(options, load_or_default(options.scoring.thresholds), here)
    check_out_dir(options.outputs.out_dir)  # before any model call
    cases = load_case_set(options.selection, root=here).cases
    generation = generate(cases, options, target=run.target())
    run.judge_answers(cases, generation.responses)
    run.add_generation({**generation.stats, "display_name": generation.display_name, "simulated": generation.simulated})
    expected = [c.id for c in cases]
    summary = run.finish(complete=run.stopped_reason is None and not run.missing_ids(expected), expected=expected)
    for line in [*render_summary(summary), run.thresholds.announcement(), *(g.line() for g in run.gates)]:
        print(line)
    if run.write_error is not None:
        print(f"ijr: error: {run.write_error}")
        return EXIT_USAGE
    print(f"results: {options.outputs.out_dir / 'results.jsonl'}")
    if run.stopped_reason:
        print(f"generation stopped: {run.stopped_reason} (results are incomplete; gates not evaluated)")
        return EXIT_USAGE if generation.stats.get("n_unstored") else EXIT_TARGET
    return EXIT_GATE_FAILED if summary["gates_failed"] else 0
