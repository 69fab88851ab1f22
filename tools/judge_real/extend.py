"""Append sources that could not be fetched as git mirrors to tests/data/judge_real/rows/.

Why this exists: some licensed result repositories are readable through the code index (``read_file`` at a
pinned commit) but cannot be brought onto this machine with ``fetch``, so ``build.py`` (which reads the
mirrors under /work/.mirror) cannot reach them.  For those, the replies' openings were transcribed verbatim
from the source file at the pinned commit into ``transcribed/<slug>_*.jsonl`` (one line per reply: source
item id, model, language, prompt, the opening as written by the model, and whether the source reply goes on
beyond it).  This script turns those lines into corpus rows with the same rules as ``build.py``: replies to
harmful or attacked prompts pass through ``safety_cut``; everything else is kept as transcribed, with
``truncated`` true wherever the source reply continues past the transcribed opening.

It is idempotent: rows of the slugs it owns are removed from rows/<lang>.jsonl and added again (``build.py``
also includes them, so running either script gives the same files).  It also writes only its own
rows to a label-input directory so they can be labeled separately.  Usage, from the worktree root:

    .venv/bin/python tools/judge_real/extend.py [--out tests/data/judge_real] [--label-out DIR]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from common import Row, reply_script, safety_cut, short_prompt

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class TranscribedSource:
    slug: str
    repo: str
    commit: str
    license: str
    split: str
    files: tuple[str, ...]          # transcription files under tools/judge_real/transcribed/
    paths: dict[str, str]           # model -> source path the replies were read from
    task: str


# error9098x/indic-eval (MIT, "Copyright (c) 2026 Aviral Kaintura"): Sarvam-30B and Gemma-4-26B-A4B on
# the C1 cross-lingual safety prompts (Aya red-teaming, MultiJail, XSafety items in hi/bn/en).
IEVAL = TranscribedSource(
    slug="ieval",
    repo="error9098x/indic-eval",
    commit="f5a40a803e8257e49061a718ab8287b97c44fe74",
    license="MIT",
    split="test",
    files=("ieval_c1.jsonl",),
    paths={"sarvam-30b": "results/refusal_audit_sarvam_30b.md",
           "gemma-4-26b-a4b": "results/refusal_audit_gemma_4_26b_a4b.md"},
    task="respond to a prompt of a cross-lingual safety set (Aya red-teaming / MultiJail / XSafety item)",
)

SOURCES: tuple[TranscribedSource, ...] = (IEVAL,)


def prompt_kind(item: str) -> str:
    """The kind of a C1 item, from the benchmark it was drawn from (its id says which).

    Aya red-teaming, MultiJail, XSafety crimes (CRI) and unfairness (UNF) items are harmful requests or
    statements; XSafety role-play instructions (ROL) wrap the request in a persona, an attack; XSafety
    physical-health items (PHY) are benign health statements kept in a safety set (over-refusal probes).
    """
    if "_XS_ROL_" in item:
        return "attacked"
    if "_XS_PHY_" in item:
        return "benign"
    if any(tag in item for tag in ("_AYA_", "_MJ_", "_XS_CRI_", "_XS_UNF_")):
        return "harmful"
    return "unknown"


def to_row(src: TranscribedSource, line: dict) -> Row:
    kind = prompt_kind(line["item"])
    if kind in ("harmful", "attacked"):
        text, cut = safety_cut(line["opening"])
    else:
        text, cut = line["opening"].strip(), False
    return Row(id=f"{src.slug}-{line['model']}-{line['item']}", lang=line["lang"],
               reply_script=reply_script(text, line["lang"]), prompt=short_prompt(line["prompt"]),
               prompt_kind=kind, task=src.task, reply=text, truncated=cut or bool(line["continues"]),
               model=line["model"], source=src.repo, commit=src.commit, path=src.paths[line["model"]],
               license=src.license, split=src.split)


def collect() -> list[Row]:
    rows: list[Row] = []
    for src in SOURCES:
        for name in src.files:
            path = HERE / "transcribed" / name
            for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not raw.strip():
                    continue
                try:
                    rows.append(to_row(src, json.loads(raw)))
                except (KeyError, ValueError) as exc:
                    raise SystemExit(f"{path}:{n}: bad transcription line: {exc!r}") from exc
    ids = [r.id for r in rows]
    if len(ids) != len(set(ids)):
        raise SystemExit(f"duplicate row ids: {sorted(i for i, c in Counter(ids).items() if c > 1)}")
    return rows


def append(rows: list[Row], out: Path) -> None:
    """Replace this script's rows in rows/<lang>.jsonl, keeping every other row as it is; lines are
    ordered by id, as ``build.py`` writes them, so either script yields the same files."""
    owned = tuple(f"{s.slug}-" for s in SOURCES)
    for lang in sorted({r.lang for r in rows} | {p.stem for p in (out / "rows").glob("*.jsonl")}):
        path = out / "rows" / f"{lang}.jsonl"
        kept = [ln for ln in (path.read_text(encoding="utf-8").splitlines() if path.exists() else [])
                if ln.strip() and not json.loads(ln)["id"].startswith(owned)]
        new = [r.to_json() for r in rows if r.lang == lang]
        lines = sorted(kept + new, key=lambda ln: json.loads(ln)["id"])
        if lines:
            path.write_text("".join(ln + "\n" for ln in lines), encoding="utf-8")


def write_label_input(rows: list[Row], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for lang in sorted({r.lang for r in rows}):
        text = "".join(r.to_json() + "\n" for r in sorted(rows, key=lambda r: r.id) if r.lang == lang)
        (out / f"{lang}.jsonl").write_text(text, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("tests/data/judge_real"))
    ap.add_argument("--label-out", type=Path, default=None, help="also write only these rows here")
    args = ap.parse_args()
    rows = collect()
    append(rows, args.out)
    if args.label_out:
        write_label_input(rows, args.label_out)
    counts = Counter((r.lang, r.prompt_kind, r.split) for r in rows)
    for key, n in sorted(counts.items()):
        print(*key, n, sep="\t")
    print("rows", len(rows), "truncated", sum(r.truncated for r in rows))


if __name__ == "__main__":
    main()
