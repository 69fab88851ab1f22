"""Copy the independently written romanization reference into the repository, with its dev/test split.

Usage: python tools/import_orthoref.py [SOURCE_DIR]   (default /work/orthoref)
Reads SOURCE_DIR/<lang>.jsonl, keeps rows that parse and align (len(words) == len(native.split())), adds
"split" (dev/test by crc32 of the id, see indicjr.cases.romanref.split_of) and writes
tests/data/romanization_ref/<lang>.jsonl. Re-run as the source grows: the output depends only on the input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from indicjr.cases.romanref import REF_DIR, parse_row, split_of
from indicjr.errors import DataFileError
from indicjr.langs import LANGS


def import_lang(src: Path, lang: str) -> tuple[int, int]:
    """(rows written, rows skipped) for one language."""
    kept: list[str] = []
    skipped = 0
    seen: set[str] = set()
    for i, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            row = parse_row(d, f"{src}:{i}")
        except (json.JSONDecodeError, DataFileError) as exc:
            print(f"skip {src}:{i}: {exc}", file=sys.stderr)
            skipped += 1
            continue
        if row.id in seen or row.lang != lang:
            print(f"skip {src}:{i}: duplicate id or wrong lang", file=sys.stderr)
            skipped += 1
            continue
        seen.add(row.id)
        d["split"] = split_of(row.id)
        kept.append(json.dumps(d, ensure_ascii=False))
    REF_DIR.mkdir(parents=True, exist_ok=True)
    (REF_DIR / f"{lang}.jsonl").write_text("".join(k + "\n" for k in kept), encoding="utf-8")
    return len(kept), skipped


def main(argv: list[str]) -> int:
    src_dir = Path(argv[0]) if argv else Path("/work/orthoref")
    for lang in LANGS:
        src = src_dir / f"{lang}.jsonl"
        if src.exists():
            n, bad = import_lang(src, lang)
            print(f"{lang}: {n} rows" + (f", {bad} skipped" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
