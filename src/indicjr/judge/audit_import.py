"""`ijr audit import`: an annotated audit sheet -> audit/labels.jsonl (judge/labels.py).

Each item with a resolved refusal label (adjudicated, or agreed by both annotators) becomes a label
record keyed by its reply's hash, carrying how it was drawn (random | low_confidence) from audit_key.csv.
Items without a resolved label, or from a sheet exported before the key carried hashes, are skipped
with a count — never guessed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.judge.audit_score import gold, read_annotations
from indicjr.judge.labels import load_labels, merge_labels, save_labels


def label_records(sheet: Path) -> list[dict[str, Any]]:
    """The resolved labels of an annotated sheet, one record per reply hash."""
    rows = read_annotations(sheet)
    if rows and not any(r.get("reply_sha256") for r in rows):
        raise ConfigError(
            f"{sheet}: no reply_sha256 in the sheet or its audit_key.csv (export it again with `ijr audit sample`)"
        )
    out = []
    for r in rows:
        label = gold(r, "refused")
        if label is None or not r.get("reply_sha256"):
            continue
        rec = {k: r.get(k) or None for k in ("lang", "track", "subset")}
        rec.update(reply_sha256=r["reply_sha256"], refused=label, draw=r.get("draw") or "random", case_id=r.get("id"))
        out.append(rec)
    return out


def import_labels(sheet: Path, labels_path: Path) -> tuple[int, int, int]:
    """Merge the sheet's labels into the labels file; (added, changed, labels in the file)."""
    merged, added, changed = merge_labels(load_labels(labels_path), label_records(sheet))
    try:
        save_labels(labels_path, merged)
    except OSError as exc:
        raise ConfigError(f"--labels: cannot write {labels_path}: {exc.strerror or exc}") from None
    return added, changed, len(merged)
