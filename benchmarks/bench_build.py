"""Case-build time by phase: engine load, a cold full build, a warm rebuild (issue 8, target 7: <= 60 s).

    .venv/bin/python benchmarks/bench_build.py [--profile full]

Measured 2026-11-30 on 2 shared vCPUs (load ~5), CPU seconds of `ijr build --profile full`:
before 16.1-17.1 s (real 17.0 s on a quiet box), after 10.3-10.5 s. The gain is compute_features
(one str.translate pass over a cached per-code-point script table instead of script_of_char per
character: ~18 M calls) and a cached NFC of the recurring prompt lines; output is byte-identical.
Since 2026-12 the romanizer reads its own rule tables (cases/data/romanize/, loaded once per language)
instead of uroman/aksharamukha; what remains is ~1,400 distinct lines romanized once each (cached),
then noise and features per case.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="full", choices=["lite", "full"])
    args = parser.parse_args()
    t0 = time.perf_counter()
    from indicjr.cases.build import build_profile
    from indicjr.cases.chatroman import rules_for
    from indicjr.cases.noise import noise_rules
    from indicjr.langs import LANGS

    for lang in LANGS:
        rules_for(lang)
        noise_rules(lang)
    t1 = time.perf_counter()
    cases = build_profile(args.profile)
    t2 = time.perf_counter()
    build_profile(args.profile)
    t3 = time.perf_counter()
    print(
        f"rule tables load {t1 - t0:.1f} s; {args.profile} ({len(cases)} cases): cold {t2 - t1:.1f} s, "
        f"warm (transliteration cached) {t3 - t2:.1f} s"
    )


if __name__ == "__main__":
    main()
