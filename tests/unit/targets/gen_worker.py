"""A generation run in its own process, for the crash, interrupt and shared-store tests.

usage: gen_worker.py --base URL --store PATH --args JSON   (args: n, prefix, and generate_all options)
Prints the run's stats as one JSON line.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from indicjr.targets.base import Request, Settings
from indicjr.targets.registry import make_target
from indicjr.targets.runner import generate_all
from indicjr.targets.store import Store
from indicjr.testing.plans import plan_of


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--args", default="{}")
    ns = ap.parse_args()
    args = json.loads(ns.args)
    n, prefix = args.pop("n"), args.pop("prefix", "prompt")
    settings = Settings(max_tokens=16)
    requests = [
        Request(
            case_id=f"case-{i:04d}",
            messages=(("system", "be brief"), ("user", f"{prefix} {i}")),
            settings=settings,
        )
        for i in range(n)
    ]
    target = make_target("openai:fake", settings=settings, api_base=ns.base, env={})
    with Store(ns.store) as store:
        result = generate_all(requests, target=target, store=store, model="openai:fake", plan=plan_of(**args))
    print(json.dumps(asdict(result.stats)), flush=True)


if __name__ == "__main__":
    main()
