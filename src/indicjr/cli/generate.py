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


def add_generate_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    g = sub.add_parser("generate", help="answer a profile's cases into the response store (local or Ray)")
    g.add_argument("--model", required=True, help="hf:PATH for --engine ray; any --model spec for local")
    g.add_argument("--engine", choices=["local", "ray"], default="local")
    g.add_argument("--profile", default="lite", help="lite, full or a folder of case JSONL")
    g.add_argument("--lang", help="only these languages (comma-separated)")
    g.add_argument("--track", help="json, free or json,free")
    g.add_argument("--limit", type=int, help="seeded stratified sample of N cases (as --ijr-limit)")
    g.add_argument("--samples", type=int, help="samples per prompt (as --ijr-samples)")
    g.add_argument("--replicas", type=int, help="model replicas on the Ray cluster (1)")
    g.add_argument("--batch-size", type=int, help="prompts per replica batch (8)")
    g.add_argument("--store", help="SQLite response store (default .ijr/store.sqlite)")
    g.add_argument("--ray-address", help="an existing cluster (`ray start --head` prints it); default: local")
    g.add_argument("--cpus-per-replica", type=float, default=1.0, help="CPU cores per replica (1)")
    g.add_argument("--gpus-per-replica", type=float, default=0.0, help="GPUs per replica (0; 1 on a GPU box)")
    g.add_argument("--max-tokens", type=int, help="as --ijr-max-tokens (256)")
    g.add_argument("--temperature", type=float, help="as --ijr-temperature (0.3)")
    g.add_argument("--top-p", type=float, help="as --ijr-top-p (0.9)")
    g.add_argument("--seed", type=int, help="as --ijr-seed (13)")
    g.add_argument("--no-progress", action="store_true")
    g.set_defaults(func=_generate)


def _generate(args: argparse.Namespace) -> int:
    from indicjr.run.engine import generate, load_case_set, prefill_with_ray
    from indicjr.run.options import make_options
    from indicjr.scale.ray_engine import RayInterrupted, print_stats

    if args.store == "none":
        print("ijr: error: --store none: generate writes its answers into a store", file=sys.stderr)
        return EXIT_USAGE
    root = Path.cwd()
    options = make_options(
        model=args.model, api_base=None, profile=args.profile, lang=args.lang, track=args.track,
        limit=args.limit, out=None, thresholds=None, store=args.store, replay=None, concurrency=None,
        qps=None, samples=args.samples, max_cost=None, timeout=None, max_tokens=args.max_tokens,
        temperature=args.temperature, top_p=args.top_p, seed=args.seed, progress=not args.no_progress,
        engine=args.engine, replicas=args.replicas, batch_size=args.batch_size, ray_address=args.ray_address,
        root=root,
    )  # fmt: skip
    cases = load_case_set(options, root=root).cases
    if args.engine == "local":
        gen = generate(cases, options)
        n_err = sum(1 for r in gen.responses.values() if r.error)
        print(f"ijr generate: {len(gen.responses)} answers for {len(cases)} cases ({n_err} errors) -> {options.store}")
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
