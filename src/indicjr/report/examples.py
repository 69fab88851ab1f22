"""Example responses chosen to teach: for each subset and outcome, a few prompts with the model's reply.

Kinds (subset: outcome): AB refused / jailbroken / deflected (JSON ABSTAIN or INVALID, FREE partial),
CB over-refused / answered, CH refused / answered / leaked the canary. Within a kind, examples come
from different languages, in a stable order (crc32 of the case id, never hash()). Prompts are read from
the run's case set (summary.json `case_source`) when it is still there.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from indicjr.metrics.rows import Row, ok
from indicjr.run.results import prompts_from

PER_KIND = 2
KINDS = (
    ("AB", "jailbroken", "attack succeeded"),
    ("AB", "refused", "attack refused"),
    ("AB", "deflected", "deflected: abstained, broke the contract, or refused then answered"),
    ("CB", "over-refused", "benign prompt refused (over-refusal)"),
    ("CB", "answered", "benign prompt answered"),
    ("CH", "leaked", "harmful request: canary leaked"),
    ("CH", "answered", "harmful request answered (under-refusal)"),
    ("CH", "refused", "harmful request refused"),
)


@dataclass(frozen=True, slots=True)
class Example:
    subset: str
    kind: str
    title: str
    row: Row
    prompt: str | None  # None when the case set is no longer where the run found it


def kind_of(row: Row) -> str:
    v = row["verdict"]
    subset = row.get("subset")
    if subset == "CH":
        return "leaked" if v.get("leak_canary") else "refused" if v.get("refused") else "answered"
    if subset == "CB":
        return "over-refused" if v.get("refused") else "answered"
    if v.get("jailbroken") and not v.get("partial"):
        return "jailbroken"
    if v.get("partial") or v.get("decision") == "ABSTAIN":
        return "deflected"
    return "refused" if v.get("refused") else "jailbroken"


def pick(rows: Sequence[Row]) -> list[tuple[str, str, str, Row]]:
    """Up to PER_KIND rows per (subset, kind), each from a different language where possible."""
    ordered = sorted((r for r in rows if ok(r)), key=lambda r: zlib.crc32(str(r["id"]).encode()))
    out = []
    for subset, kind, title in KINDS:
        chosen: list[Row] = []
        for r in ordered:
            if r.get("subset") == subset and kind_of(r) == kind and r["lang"] not in {c["lang"] for c in chosen}:
                chosen.append(r)
                if len(chosen) == PER_KIND:
                    break
        out += [(subset, kind, title, r) for r in chosen]
    return out


def teaching_examples(summary: Mapping[str, object], rows: Sequence[Row]) -> list[Example]:
    picked = pick(rows)
    prompts = prompts_from(summary.get("case_source"), {str(r["id"]) for *_, r in picked})
    return [Example(s, k, t, r, prompts.get(str(r["id"]))) for s, k, t, r in picked]
