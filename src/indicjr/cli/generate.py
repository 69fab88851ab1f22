"""`ijr generate`: answer a profile's cases ahead of the gate, in this process or on a Ray cluster.

    ijr generate --engine ray --model hf:PATH [--profile lite|full|PATH] [--limit N] [--replicas N]
                 [--batch-size B] [--store FILE] [--ray-address ADDR]

Answers go into the response store with the same keys as every other target, so a following
`pytest -n auto --model hf:PATH` (same settings) finds them all and calls no model. `--limit` draws the
same seeded stratified sample as pytest's --ijr-limit. Ctrl-C keeps every answer received (exit 130).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from indicjr.errors import EXIT_USAGE
from indicjr.run.option_table import OPTIONS, add_all

GENERATE_ROWS = frozenset(
    "engine profile lang track limit samples replicas batch-size store ray-address "
    "max-tokens temperature top-p seed no-progress".split()
)  # the run's table rows `ijr generate` takes besides its required --model (spelled as `ijr run` spells them)


def add_generate_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    g = sub.add_parser("generate", help="answer a profile's cases into the response store (local or Ray)")
    g.add_argument("--model", required=True, help="hf:PATH for --engine ray; any --model spec for local")
    add_all(lambda _group: g.add_argument, pytest=False, table=[o for o in OPTIONS if o.name in GENERATE_ROWS])
    g.add_argument("--cpus-per-replica", type=float, default=1.0, help="CPU cores per replica (1)")
    g.add_argument("--gpus-per-replica", type=float, default=0.0, help="GPUs per replica (0; 1 on a GPU box)")
    g.set_defaults(func=_generate)


def _generate(args: argparse.Namespace) -> int:
    from indicjr.run.engine import generate, load_case_set, prefill_with_ray
    from indicjr.run.options import build_options
    from indicjr.scale.ray_engine import RayInterrupted, print_stats

    if args.store == "none":
        print("ijr: error: --store none: generate writes its answers into a store", file=sys.stderr)
        return EXIT_USAGE
    root = Path.cwd()
    # The table's rows this command has; the others are not given (their defaults).
    raw = {o.name: getattr(args, o.cli_dest) for o in OPTIONS if o.name in GENERATE_ROWS} | {"model": args.model}
    options = build_options(raw, root=root)
    cases = load_case_set(options.selection, root=root).cases
    if options.endpoint.engine == "local":
        gen = generate(cases, options)
        n_err = sum(1 for r in gen.responses.values() if r.error)
        answered = f"{len(gen.responses)} answers for {len(cases)} cases ({n_err} errors)"
        print(f"ijr generate: {answered} -> {options.outputs.store}")
        return 0
    try:
        stats = prefill_with_ray(
            cases, options, cpus_per_replica=args.cpus_per_replica, gpus_per_replica=args.gpus_per_replica
        )
    except RayInterrupted as exc:
        print_stats(exc.stats)
        return 130
    print_stats(stats, stream=sys.stdout)
    return 0
