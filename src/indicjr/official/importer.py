"""The import pipeline: discover -> parse -> join -> detect -> convert -> write cases and the quality report.

Deterministic by construction: files in a fixed family/language order, rows in file order, ids from
the release or from position and content hash, no timestamps or absolute paths in any output.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicjr.cases.io import check_canary_hygiene, write_cases
from indicjr.cases.model import Case
from indicjr.official.convert import to_case
from indicjr.official.detectors import Finding, detect_all
from indicjr.official.layout import Layout, discover
from indicjr.official.report import build_report, render_markdown
from indicjr.official.rows import OfficialRow, Skipped, read_file

PROFILE = "official"


@dataclass(slots=True)
class FileStats:
    """Per-file accounting for the report (mutable while the file is read)."""

    file: str
    family: str
    track: str
    subset: str
    lang: str
    rows_read: int = 0
    imported: int = 0
    excluded: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "family": self.family,
            "track": self.track,
            "subset": self.subset,
            "lang": self.lang,
            "rows_read": self.rows_read,
            "imported": self.imported,
            "excluded": self.excluded,
            "skipped": dict(sorted(self.skipped.items())),
        }


@dataclass(frozen=True, slots=True)
class ImportResult:
    cases: tuple[Case, ...]
    findings: tuple[Finding, ...]
    report: dict[str, Any]
    out_dir: Path


def _free_canary(canary: str, lang: str) -> str:
    return f"KAN-{hashlib.sha256(f'ijr-free:{canary}'.encode()).hexdigest()[:8]}-{lang}"


def _read(layout: Layout) -> tuple[list[OfficialRow], dict[str, FileStats]]:
    rows: list[OfficialRow] = []
    stats: dict[str, FileStats] = {}
    first_key: dict[str, str] = {}
    first_canary: dict[tuple[str, str], str] = {}
    for spec in layout.files:
        st = stats[spec.rel] = FileStats(spec.rel, spec.family.name, spec.family.track, spec.family.subset, spec.lang)
        for item in read_file(spec):
            st.rows_read += 1
            if isinstance(item, Skipped):
                st.skipped[item.reason] += 1
                continue
            where = f"{item.file}:{item.line}"
            if item.key in first_key:
                st.skipped[f"duplicate id (first at {first_key[item.key]})"] += 1
                continue
            if item.canary and (item.track, item.canary) in first_canary:
                st.skipped[f"canary reused (first at {first_canary[item.track, item.canary]})"] += 1
                continue
            first_key[item.key] = where
            if item.canary:
                first_canary[item.track, item.canary] = where
            rows.append(item)
    return rows, stats


def _join_free_ch(
    rows: list[OfficialRow],
) -> tuple[list[OfficialRow], dict[str, dict[str, Any]], Counter[str]]:
    """FREE CH rows carry no intent: recover it from the JSON CH row with the same canary.

    The release reuses each canary across tracks; our case sets need canaries unique, so the FREE copy
    gets a derived canary (the released one stays in meta.official_canary).
    """
    json_ch = {r.canary: r for r in rows if r.track == "json" and r.subset == "CH" and r.canary}
    extra: dict[str, dict[str, Any]] = defaultdict(dict)
    notes: Counter[str] = Counter()
    out: list[OfficialRow] = []
    for r in rows:
        if r.track == "free" and r.subset == "CH" and r.canary:
            twin = json_ch.get(r.canary)
            if twin is None:
                notes["free_ch_intent_unrecovered"] += 1
            else:
                new = _free_canary(r.canary, r.lang)
                extra[r.key]["official_canary"] = r.canary
                r = dataclasses.replace(r, intent=twin.intent, canary=new, text=r.text.replace(r.canary, new))
                notes["free_ch_intent_recovered"] += 1
                notes["free_ch_canary_rewritten"] += 1
        out.append(r)
    return out, extra, notes


def _clear_previous_import(out_dir: Path) -> None:
    """A rerun into the same folder must not leave a language file the new import no longer writes."""
    if (out_dir / "quality.json").is_file():
        for stale in out_dir.glob("*.jsonl"):
            stale.unlink()


def import_release(
    root: Path, out_dir: Path, *, exclude_defective: bool = False, strip_contract: bool = False
) -> ImportResult:
    """Convert a release checkout at `root` into case files and a quality report under `out_dir`."""
    layout = discover(root)
    rows, stats = _read(layout)
    rows, extra, notes = _join_free_ch(rows)
    findings = detect_all(rows)
    defects: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        defects[f.key].append(f.kind)
    cases: list[Case] = []
    for r in rows:
        st = stats[r.file]
        st.imported += 1
        if exclude_defective and defects.get(r.key):
            st.excluded += 1
            continue
        cases.append(
            to_case(r, defects=defects.get(r.key, ()), strip_contract=strip_contract, extra_meta=extra.get(r.key))
        )
    check_canary_hygiene(cases)
    _clear_previous_import(out_dir)
    manifest = write_cases(cases, out_dir, profile=PROFILE)
    report = build_report(
        layout=layout,
        stats=[s.as_dict() for s in stats.values()],
        findings=findings,
        cases=cases,
        notes=dict(notes),
        content_hash=manifest["content_hash"],
        options={"exclude_defective": exclude_defective, "strip_contract": strip_contract},
    )
    (out_dir / "quality.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out_dir / "quality.md").write_text(render_markdown(report), encoding="utf-8")
    return ImportResult(cases=tuple(cases), findings=tuple(findings), report=report, out_dir=out_dir)
