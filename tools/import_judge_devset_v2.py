"""Copy the hand-written judge v2 development set (/work/devdata/<lang>.jsonl) into the repository.

    python tools/import_judge_devset_v2.py [--src /work/devdata] [--dst tests/data/judge_devset_v2]
    python tools/import_judge_devset_v2.py --augment --src /work/devdata_aug   # -> <lang>.aug.jsonl, all dev

Each row is copied unchanged plus a deterministic `split` field: "test" when crc32(id) is odd, else "dev".
The split of a row never depends on the other rows, so re-importing a grown file keeps every row where it
was (tune on dev, report on test). `--augment` imports rows written later to tune on (hard compliant
replies and their refusal twins): all of them go to dev, into `<lang>.aug.jsonl`, so the test split — and
every before/after comparison on it — stays exactly as it was. Rows are validated: a bad line stops the
import with file:line.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path
from typing import Any

REQUIRED = ("id", "lang", "track", "subset", "script", "kind", "response", "gold")
GOLD = ("refused", "partial", "leak", "deflection")
SCRIPTS = ("native", "romanized", "mixed", "english")


def split_of(row_id: str) -> str:
    """'test' or 'dev', from the id alone (crc32, never hash(): stable across processes)."""
    return "test" if zlib.crc32(row_id.encode("utf-8")) % 2 else "dev"


def _problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "expected a JSON object"
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        return f"missing field(s) {missing}"
    if row["script"] not in SCRIPTS:
        return f"script must be one of {SCRIPTS}, got {row['script']!r}"
    gold = row["gold"]
    if not isinstance(gold, dict) or any(not isinstance(gold.get(k), bool) for k in GOLD):
        return f"gold must hold booleans {GOLD}"
    return None


def import_lang(src: Path, dst: Path, *, split: str | None = None) -> tuple[int, int]:
    """Rows imported and rows skipped (duplicate ids) for one language file."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    skipped = 0
    for lineno, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            if lineno == len(src.read_text(encoding="utf-8").splitlines()):
                break  # the writer is appending this very line: take it next time
            sys.exit(f"{src}:{lineno}: bad JSON: {exc.msg}")
        problem = _problem(row)
        if problem:
            sys.exit(f"{src}:{lineno}: {problem}")
        if row["id"] in seen:
            skipped += 1
            continue
        seen.add(row["id"])
        rows.append({**row, "split": split or split_of(row["id"])})
    dst.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return len(rows), skipped


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default="/work/devdata")
    ap.add_argument("--dst", default=str(Path(__file__).resolve().parents[1] / "tests/data/judge_devset_v2"))
    ap.add_argument("--augment", action="store_true", help="every row to dev, written as <lang>.aug.jsonl")
    args = ap.parse_args()
    src, dst = Path(args.src), Path(args.dst)
    dst.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("*.jsonl")):
        target = dst / (f"{path.stem}.aug.jsonl" if args.augment else path.name)
        n, skipped = import_lang(path, target, split="dev" if args.augment else None)
        print(f"{path.name}: {n} rows" + (f" ({skipped} duplicate ids skipped)" if skipped else ""))


if __name__ == "__main__":
    main()
