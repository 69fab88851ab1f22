"""Write a 45,216-case profile (the paper's full scale) by replicating the `full` build deterministically.

The shipped sources build 22,492 `full` cases; the release runs 45,216 prompts per model. For the
scale benchmarks (collection, full-scale run) we need a profile of exactly that size with unique ids and
unique canaries, without committing a ~100 MB file. Replica k > 0 of a case gets the id suffix `-x<k>`,
a ` [k]` tag on its user message (distinct prompts: the store dedupes identical ones) and, for CH
cases, a fresh canary (replaced in the prompt text too, so canary hygiene still holds). The
last, partial replica is a stratified, seeded sample, so every language/track/subset stays represented.

    .venv/bin/python benchmarks/make_scale_profile.py [--n 45216] [--out .ijr/cases/scale-45216]
        [--from DIR]   # an already built `full` profile directory (skips the ~30 s build)
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import time
from pathlib import Path

from indicjr.cases.model import Case, Message

PAPER_SCALE = 45_216
DEFAULT_OUT = Path(".ijr/cases/scale-45216")


def _base_cases(source: Path | None) -> list[Case]:
    if source is not None:
        from indicjr.cases.io import load_cases

        return load_cases(source)
    from indicjr.cases.build import build_profile

    return build_profile("full")


def _replica(case: Case, k: int) -> Case:
    """Case `case` as replica k: a new id and, for CH, a new canary in both the field and the prompt."""
    if k == 0:
        return case
    canary = case.canary
    if case.canary:
        digest = hashlib.sha256(f"ijr-scale:{k}:{case.canary}".encode()).hexdigest()[:8]
        canary = f"IJR-{digest}-{case.lang}"
    # A replica tag on the user message keeps every prompt distinct: the store dedupes identical
    # prompts, and the full-scale benchmark must send all 45,216 requests.
    messages = tuple(
        Message(
            m.role,
            (m.content.replace(case.canary, canary) if case.canary and canary else m.content)
            + (f" [{k}]" if m.role == "user" else ""),
        )
        for m in case.messages
    )
    return dataclasses.replace(case, id=f"{case.id}-x{k}", canary=canary, messages=messages)


def scale_cases(base: list[Case], n: int) -> list[Case]:
    """Exactly n cases: whole replicas of `base`, then a stratified sample of it for the remainder."""
    from indicjr.run.selection import stratified_limit

    out: list[Case] = []
    k = 0
    while len(out) < n:
        take = base if n - len(out) >= len(base) else stratified_limit(base, n - len(out))
        out.extend(_replica(c, k) for c in take)
        k += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=PAPER_SCALE)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--from", dest="source", type=Path, default=None, help="a built `full` profile dir")
    a = ap.parse_args()
    from indicjr.cases.io import write_cases

    t0 = time.perf_counter()
    cases = scale_cases(_base_cases(a.source), a.n)
    manifest = write_cases(cases, a.out, profile=f"scale-{a.n}")
    print(
        f"{manifest['n_cases']} cases -> {a.out} (content hash {manifest['content_hash'][:12]}) "
        f"in {time.perf_counter() - t0:.1f} s"
    )


if __name__ == "__main__":
    main()
