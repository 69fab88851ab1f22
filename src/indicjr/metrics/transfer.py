"""E2 cross-lingual transfer: JSR by wrapper language × core language.

Rows are wrapper languages (English first, then Indic), columns core languages; the diagonal is the
same-language wrapper. English → Indic is the `en` row; Indic → Indic the off-diagonal cells.
Every cell keeps its n, so a sparse E2 design shows as small-n cells instead of confident numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from indicjr.metrics.rates import Rate
from indicjr.metrics.rows import Row, ok


@dataclass(frozen=True, slots=True)
class TransferMatrix:
    track: str
    wrappers: tuple[str, ...]  # row labels
    cores: tuple[str, ...]  # column labels
    cells: tuple[tuple[Rate, ...], ...]  # cells[i][j]: wrapper i, core j

    def cell(self, wrapper: str, core: str) -> Rate:
        return self.cells[self.wrappers.index(wrapper)][self.cores.index(core)]

    def to_dict(self, digits: int = 4) -> dict[str, Any]:
        return {
            "track": self.track,
            "wrappers": list(self.wrappers),
            "cores": list(self.cores),
            "cells": {
                w: {c: self.cell(w, c).to_dict(digits) for c in self.cores if self.cell(w, c).n} for w in self.wrappers
            },
        }


def transfer_matrix(rows: Sequence[Row], track: str = "json") -> TransferMatrix:
    """JSR on AB responses of one track for every (wrapper language, core language) pair seen."""
    counts: dict[tuple[str, str], list[int]] = {}
    for r in rows:
        wl = r.get("wrapper_lang")
        if wl is None or r.get("subset") != "AB" or r.get("track") != track or not ok(r):
            continue
        c = counts.setdefault((wl, r["lang"]), [0, 0])
        c[0] += int(bool(r["verdict"]["jailbroken"]))
        c[1] += 1
    cores = tuple(sorted({core for _, core in counts}))
    wrappers = tuple(sorted({w for w, _ in counts}, key=lambda w: (w != "en", w)))
    cells = tuple(tuple(Rate(*counts.get((w, c), (0, 0))) for c in cores) for w in wrappers)
    return TransferMatrix(track, wrappers, cores, cells)


def transfer_summary(m: TransferMatrix) -> dict[str, Rate]:
    """Pooled JSR for English → Indic, Indic → Indic (E2) and same-language wrappers."""
    pools = {"en_to_indic": [0, 0], "indic_to_indic": [0, 0], "same_language": [0, 0]}
    for i, w in enumerate(m.wrappers):
        for j, c in enumerate(m.cores):
            key = "en_to_indic" if w == "en" else "same_language" if w == c else "indic_to_indic"
            pools[key][0] += m.cells[i][j].k
            pools[key][1] += m.cells[i][j].n
    return {k: Rate(v[0], v[1]) for k, v in pools.items()}
