"""How many E2 cases change when a 13th language is added: the stable hash (cases/build.py `_e2_lang`)
against the former draw by list position (a seeded `choice` over the other languages, kept here only to
compare). Prints a Markdown table; benchmarks/e2_partner_movement.md holds its output.

Usage: python tools/e2_movement.py [CODE ...]   (default: as kok mai sat sd si — codes a 13th might take)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from indicjr.cases import build


def _by_position(core_id: str, lang: str, langs: Sequence[str]) -> str:
    others = [x for x in langs if x != lang]
    return build._rng("e2", core_id).choice(others)


def main(extra: Sequence[str]) -> None:
    langs = build.available_langs()
    print("| profile | added | E2 cases | moved (list position) | moved (stable hash) |")
    print("|---|---|---|---|---|")
    for profile in ("lite", "full"):
        e2 = [c for c in build.build_profile(profile) if c.subset == "AB" and c.wrapper_lang not in (c.lang, "en")]
        for code in extra:
            more = tuple(sorted((*langs, code)))
            pos = sum(_by_position(c.core_id, c.lang, langs) != _by_position(c.core_id, c.lang, more) for c in e2)
            hsh = sum(build._e2_lang(c.core_id, c.lang, langs) != build._e2_lang(c.core_id, c.lang, more) for c in e2)
            n = len(e2)
            print(f"| {profile} | {code} | {n} | {pos} ({pos / n:.1%}) | {hsh} ({hsh / n:.1%}) |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["as", "kok", "mai", "sat", "sd", "si"])
