"""The quality report of an import: quality.json (complete), quality.md (for people), a printed summary.

It answers what a user comparing with the paper needs to know before trusting any number: which files
were read and what was skipped and why, how the totals compare with Table 5, and which of the
release's defects each case carries (counts, example ids, and every finding with its reason).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from indicjr.cases.model import Case
from indicjr.langs import LANGS
from indicjr.official.detectors import DESCRIPTIONS, Finding
from indicjr.official.layout import Layout

N_EXAMPLES = 5
# Table 5 of the paper: totals and the per-language count each subset implies.
TABLE5: dict[str, tuple[int, int]] = {
    "json/AB": (37236, 3103),
    "json/AB (E2)": (8316, 693),
    "json/CB": (3600, 300),
    "json/CH": (1800, 150),
    "free/AB": (2400, 200),
    "free/CB": (120, 10),
    "free/CH": (60, 5),
}


def _totals(stats: Sequence[dict[str, Any]], cases: Sequence[Case]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, (expected, per_lang) in TABLE5.items():
        track, subset = name.split(" ")[0].split("/")
        mine = [
            s
            for s in stats
            if s["track"] == track and s["subset"] == subset and (s["family"] == "json_e2" or "E2" not in name)
        ]
        written = Counter(
            c.lang
            for c in cases
            if c.track == track
            and c.subset == subset
            and ("E2" not in name or str(c.meta.get("official_file")).endswith(".E2xfer.jsonl"))
        )
        out[name] = {
            "expected": expected,
            "expected_per_lang": per_lang,
            "read": sum(s["rows_read"] for s in mine),
            "imported": sum(s["imported"] for s in mine),
            "written": sum(written.values()),
            "languages": sorted({s["lang"] for s in mine}, key=LANGS.index),
        }
    return out


def _defects(findings: Sequence[Finding], file_of: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, description in DESCRIPTIONS.items():
        mine = [f for f in findings if f.kind == kind]
        out[kind] = {
            "description": description,
            "count": len(mine),
            "examples": [f.key for f in mine[:N_EXAMPLES]],
            "by_file": dict(sorted(Counter(file_of.get(f.key, "?") for f in mine).items())),
        }
    return out


def build_report(
    *,
    layout: Layout,
    stats: Sequence[dict[str, Any]],
    findings: Sequence[Finding],
    cases: Sequence[Case],
    notes: dict[str, int],
    content_hash: str,
    options: dict[str, bool],
) -> dict[str, Any]:
    """The JSON-ready report (key order fixed, no paths outside the release, no timestamps)."""
    file_of = {c.id: str(c.meta.get("official_file")) for c in cases}
    defective = {f.key for f in findings}
    return {
        "options": options,
        "content_hash": content_hash,
        "files": list(stats),
        "missing_files": list(layout.missing),
        "ignored_files": list(layout.ignored),
        "totals": _totals(stats, cases),
        "rows": {
            "read": sum(s["rows_read"] for s in stats),
            "imported": sum(s["imported"] for s in stats),
            "skipped": sum(sum(s["skipped"].values()) for s in stats),
            "defective": len(defective),
            "excluded": sum(s["excluded"] for s in stats),
            "written": len(cases),
        },
        "defects": _defects(findings, file_of),
        "notes": dict(sorted(notes.items())),
        "findings": [{"kind": f.kind, "id": f.key, "reason": f.reason} for f in findings],
    }


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The few lines `ijr import-official` prints."""
    r = report["rows"]
    lines = [
        f"read {r['read']} rows from {len(report['files'])} files; imported {r['imported']}, "
        f"skipped {r['skipped']}, defective {r['defective']}, excluded {r['excluded']}, "
        f"written {r['written']}",
        f"missing files: {len(report['missing_files'])}; ignored files: {len(report['ignored_files'])}",
    ]
    for name, t in report["totals"].items():
        lines.append(f"  {name:<13} {t['written']:>6} written / {t['expected']:>6} in Table 5")
    for kind, d in report["defects"].items():
        if d["count"]:
            lines.append(f"  defect {kind}: {d['count']} (e.g. {', '.join(d['examples'][:3])})")
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    """quality.md: the same facts as quality.json, minus the per-finding list."""
    out = ["# Quality report: import of the official IJR release", ""]
    out += [
        f"Options: {', '.join(f'{k}={v}' for k, v in report['options'].items())}. "
        f"Case-set content hash `{report['content_hash'][:12]}`.",
        "",
    ]
    out += [
        "## Totals against Table 5",
        "",
        "| set | read | imported | written | Table 5 | per language |",
        "|---|---|---|---|---|---|",
    ]
    for name, t in report["totals"].items():
        out.append(
            f"| {name} | {t['read']} | {t['imported']} | {t['written']} | {t['expected']} "
            f"| {t['expected_per_lang']} x {len(t['languages'])} languages present |"
        )
    out += ["", "## Defects", "", "| defect | count | examples |", "|---|---|---|"]
    for kind, d in report["defects"].items():
        out.append(f"| {kind}: {d['description']} | {d['count']} | {', '.join(d['examples']) or '-'} |")
    out += ["", "## Files", "", "| file | read | imported | excluded | skipped |", "|---|---|---|---|---|"]
    for s in report["files"]:
        skipped = "; ".join(f"{why}: {n}" for why, n in s["skipped"].items()) or "-"
        out.append(f"| {s['file']} | {s['rows_read']} | {s['imported']} | {s['excluded']} | {skipped} |")
    if report["notes"]:
        out += ["", "## Notes", ""] + [f"- {k}: {v}" for k, v in report["notes"].items()]
    out += [
        "",
        f"Missing files ({len(report['missing_files'])}): " + (", ".join(report["missing_files"]) or "none"),
        "",
        f"Ignored files ({len(report['ignored_files'])}): " + (", ".join(report["ignored_files"]) or "none"),
        "",
    ]
    return "\n".join(out)
