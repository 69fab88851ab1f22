"""Rebuild tests/data/judge_real/rows/<lang>.jsonl from the fetched sources.

Needs every source repository listed in ``sources.SOURCES`` brought onto this machine first with the
``fetch`` tool (github:<owner>/<name>), which places a git directory under /work/.mirror; the pinned
commits make the output identical on every run.  Usage, from the worktree root:

    .venv/bin/python tools/judge_real/build.py [--out tests/data/judge_real]

Whole sources go to one split (``SPLIT``), never rows of one source to both; the counts table printed at
the end is what SOURCES.md quotes.  Sources that could not be fetched are added from their transcriptions
(``extend.py``), so one run of this script writes the whole corpus.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import extend
from common import Row
from sources import SOURCES
from sources3 import BATCH3, SPLIT3

SPLIT: dict[str, str] = {
    "tqa": "test",
    "lcb": "dev",
    "bnsum": "dev",
    "nep": "dev",
    **SPLIT3,
}


def collect() -> list[Row]:
    rows: list[Row] = []
    seen: set[str] = set()
    for src in SOURCES + BATCH3:
        for fields in src.build(src):
            if not fields["reply"]:
                continue
            if fields["id"] in seen:
                raise ValueError(f"duplicate row id {fields['id']} in source {src.repo}")
            seen.add(fields["id"])
            rows.append(Row(split=SPLIT[src.slug], **fields))
    return rows


def write(rows: list[Row], out: Path) -> None:
    by_lang: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_lang[r.lang].append(r)
    (out / "rows").mkdir(parents=True, exist_ok=True)
    for old in (out / "rows").glob("*.jsonl"):
        old.unlink()
    for lang, items in sorted(by_lang.items()):
        text = "".join(r.to_json() + "\n" for r in sorted(items, key=lambda r: r.id))
        (out / "rows" / f"{lang}.jsonl").write_text(text, encoding="utf-8")


def counts_table(rows: list[Row]) -> str:
    """Markdown: rows per language x reply_script x prompt_kind x split."""
    c = Counter((r.lang, r.reply_script, r.prompt_kind, r.split) for r in rows)
    lines = ["| lang | reply_script | prompt_kind | split | rows |", "|---|---|---|---|---|"]
    lines += [f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {n} |" for k, n in sorted(c.items())]
    per = Counter((r.lang, r.split) for r in rows)
    langs = sorted({r.lang for r in rows})
    lines += ["", "| lang | dev | test | total |", "|---|---|---|---|"]
    lines += [f"| {lg} | {per[(lg, 'dev')]} | {per[(lg, 'test')]} | {per[(lg, 'dev')] + per[(lg, 'test')]} |"
              for lg in langs]
    tot = Counter(r.split for r in rows)
    lines.append(f"| **all** | {tot['dev']} | {tot['test']} | {len(rows)} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("tests/data/judge_real"))
    args = ap.parse_args()
    rows = collect() + extend.collect()  # transcribed sources (see extend.py) keep their own split
    write(rows, args.out)
    print(counts_table(rows))
    per_source = Counter(r.source for r in rows)
    print(json.dumps(per_source, indent=1))


if __name__ == "__main__":
    main()
