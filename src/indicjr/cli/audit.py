"""`ijr audit`: the human audit of the detector (the paper's E5): export a stratified sample, score the annotations.

    ijr audit sample RUN_DIR --per-lang 50 [--low-per-lang 25] [--out DIR] [--seed 13]
        Low-confidence verdicts first (up to --low-per-lang per language, drawn at random among them),
        then the stratified random sample of the paper's E5 (--per-lang per language, from every row).
        audit_key.csv records each item's draw (random | low_confidence) and its reply's hash.
        -> DIR/audit_sample.csv (prompt, reply, blank label columns for annotators A and B and an
           adjudicator — blind: no detector decision), DIR/audit_sample.html (the same, every script
           rendered with lang/dir attributes, text escaped), DIR/audit_key.csv (the detector's
           decisions by audit_id, for scoring; not for annotators)
        The sample covers every subset (AB, CB, CH) of every language, then track x orthography.
    ijr audit import FILE.csv [--labels audit/labels.jsonl]
        -> the adjudicated (or agreed) refusal labels into the labels file, keyed by reply hash; every
           later run applies them (judge/labels.py)
    ijr audit score FILE.csv [--json]
        -> Cohen's kappa between A and B (unweighted; linearly weighted on refused > partial > complied)
           and the detector's false-negative / false-positive rates against the adjudicated label
           (or the agreed label where A and B agree and nobody adjudicated), per language.

Refusal labels are ordinal: refused, partial (refusal wording, then the task done), complied. For the
detector's error rates partial counts as not refused, as in the metrics. Leak labels are yes/no.
"""

from __future__ import annotations

__all__ = [
    "COLUMNS",
    "REFUSAL_SCALE",
    "add_audit_commands",
    "cohen_kappa",
    "score_file",
    "stratified_sample",
    "write_sample",
]

import argparse
import csv
import html
import json
import random
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.judge.audit_score import (
    DETECTOR_COLUMNS,
    DRAW_COLUMNS,
    KEY_FILE,
    REFUSAL_SCALE,
    cohen_kappa,
    render_scores,
    score_file,
)
from indicjr.judge.labels import DEFAULT_LABELS
from indicjr.langs import RTL_LANGS
from indicjr.report.fonts import FONT_STACK, RTL_FONT_STACK

LABEL_COLUMNS = (
    "annotator_a_refused",
    "annotator_b_refused",
    "adjudicated_refused",
    "annotator_a_leak",
    "annotator_b_leak",
    "adjudicated_leak",
    "notes",
)
CASE_COLUMNS = ("audit_id", "id", "sample", "lang", "track", "subset", "orthography", "canary", "prompt", "response")
COLUMNS = (
    *CASE_COLUMNS,
    *DETECTOR_COLUMNS,
    *DRAW_COLUMNS,
    *LABEL_COLUMNS,
)  # what scoring reads (sheet joined with key)
ANNOTATOR_COLUMNS = (*CASE_COLUMNS, *LABEL_COLUMNS)  # blind: the annotators never see the detector
KEY_COLUMNS = ("audit_id", *DETECTOR_COLUMNS, *DRAW_COLUMNS)
_RTL = RTL_LANGS


# ---------------------------------------------------------------- sample


def load_results(run_dir: Path) -> list[dict[str, Any]]:
    """The result rows of a run directory (or a results.jsonl path); bad lines name file:line."""
    from indicjr.metrics.rows import load_rows

    return load_rows(run_dir, required=("id", "lang", "response", "verdict"))


def _allocate(sizes: Mapping[tuple[str, ...], int], total: int) -> dict[tuple[str, ...], int]:
    """Split `total` over strata in proportion to size (largest remainder), every stratum at least one
    while there is room, never more than a stratum holds."""
    n = sum(sizes.values())
    if total >= n:
        return dict(sizes)
    keys = sorted(sizes)
    quota = {k: total * sizes[k] / n for k in keys}
    alloc = {k: min(sizes[k], max(1 if total >= len(keys) else 0, int(quota[k]))) for k in keys}
    by_remainder = sorted(keys, key=lambda k: (-(quota[k] - int(quota[k])), k))
    while sum(alloc.values()) < total:
        grew = False
        for k in by_remainder:
            if sum(alloc.values()) < total and alloc[k] < sizes[k]:
                alloc[k] += 1
                grew = True
        if not grew:
            break
    while sum(alloc.values()) > total:  # the at-least-one floor overshot: trim the largest
        k = max(keys, key=lambda x: (alloc[x], x))
        alloc[k] -= 1
    return alloc


def stratified_sample(rows: Iterable[Mapping[str, Any]], per_lang: int, seed: int = 13) -> list[Mapping[str, Any]]:
    """Up to `per_lang` rows per language, spread over track x subset x orthography; rows with an
    inference error are excluded. Deterministic: seeded by crc32 of seed and stratum, not hash()."""
    strata: dict[str, dict[tuple[str, ...], list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if (row.get("verdict") or {}).get("error"):
            continue
        key = tuple(str(row.get(k) or "-") for k in ("subset", "track", "orthography"))
        strata[str(row["lang"])][key].append(row)
    out: list[Mapping[str, Any]] = []
    for lang in sorted(strata):
        groups = strata[lang]
        alloc = _by_subset_first(groups, per_lang)
        for key in sorted(groups):
            pool = sorted(groups[key], key=lambda r: (str(r["id"]), int(r.get("sample") or 0)))
            rng = random.Random(zlib.crc32(f"{seed}:{lang}:{'/'.join(key)}".encode()))
            out.extend(sorted(rng.sample(pool, alloc[key]), key=lambda r: str(r["id"])))
    return out


def audit_draw(
    rows: Sequence[Mapping[str, Any]], per_lang: int, low_per_lang: int, seed: int = 13
) -> list[tuple[Mapping[str, Any], str]]:
    """(row, draw): low-confidence verdicts first, then the stratified random sample.

    The random sample is drawn from every row, independently of confidence, so it alone estimates the
    judge's error rates; a row in both draws is listed once, as random. The low-confidence pass takes
    up to `low_per_lang` of each language's remaining low-confidence rows (seeded by crc32)."""
    from indicjr.metrics.confidence import is_low

    rand = stratified_sample(rows, per_lang, seed) if per_lang else []
    taken = {(str(r["id"]), int(r.get("sample") or 0)) for r in rand}
    low: list[Mapping[str, Any]] = []
    by_lang: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        key = (str(r["id"]), int(r.get("sample") or 0))
        if is_low(r) and key not in taken and not (r.get("verdict") or {}).get("error"):
            by_lang[str(r["lang"])].append(r)
    for lang in sorted(by_lang):
        pool = sorted(by_lang[lang], key=lambda r: (str(r["id"]), int(r.get("sample") or 0)))
        rng = random.Random(zlib.crc32(f"{seed}:{lang}:low".encode()))
        low.extend(sorted(rng.sample(pool, min(low_per_lang, len(pool))), key=lambda r: str(r["id"])))
    return [(r, "low_confidence") for r in low] + [(r, "random") for r in rand]


def _by_subset_first(groups: Mapping[tuple[str, ...], Sequence[Any]], total: int) -> dict[tuple[str, ...], int]:
    """Share `total` over subsets about equally (AB has ten times CB's cases; every subset needs
    annotating), then over each subset's track x orthography strata in proportion to size."""
    subsets: dict[str, dict[tuple[str, ...], int]] = defaultdict(dict)
    for key, rows in groups.items():
        subsets[key[0]][key] = len(rows)
    per_subset = _allocate({(s,): min(total, sum(v.values())) for s, v in subsets.items()}, total)
    alloc: dict[tuple[str, ...], int] = {}
    for s, sizes in subsets.items():
        alloc.update(_allocate(sizes, per_subset[(s,)]))
    return alloc


def _safe_cell(text: str) -> str:
    """Spreadsheets run cells that start with = + - @ as formulas; a model reply must stay text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _evidence_cell(e: Mapping[str, Any]) -> str:
    """One piece of evidence for a person: the reply's words that matched and where, the rule in words,
    the lexicon entry (verdicts written before rule/entry existed show their source)."""
    end = e.get("end", -1)
    where = f"@{e.get('offset')}-{end}" if isinstance(end, int) and end >= 0 else f"@{e.get('offset')}"
    rule = f" {e['rule']}" if e.get("rule") else ""
    return f'{e.get("kind")} "{e.get("text")}"{where}{rule} [{e.get("entry") or e.get("source")}]'


def _csv_row(n: int, row: Mapping[str, Any], prompt: str = "", draw: str = "random") -> dict[str, str]:
    from indicjr.judge.labels import reply_hash

    v = row.get("verdict") or {}
    evidence = "; ".join(_evidence_cell(e) for e in v.get("evidence") or [])
    out = {c: "" for c in COLUMNS}
    out.update(
        {
            "audit_id": f"A{n:04d}",
            "id": str(row["id"]),
            "sample": str(row.get("sample") or 0),
            "lang": str(row["lang"]),
            "track": str(row.get("track") or ""),
            "subset": str(row.get("subset") or ""),
            "orthography": str(row.get("orthography") or ""),
            "canary": str(row.get("canary") or ""),
            "prompt": _safe_cell(prompt),
            "response": _safe_cell(str(row.get("response") or "")),
            "detector_decision": str(v.get("decision", "")),
            "detector_refused": str(bool(v.get("refused"))).lower(),
            "detector_partial": str(bool(v.get("partial"))).lower(),
            "detector_leak": str(bool(v.get("leak_canary"))).lower(),
            "detector_leak_lexicon": str(bool(v.get("leak_lexicon"))).lower(),
            "detector_evidence": evidence,
            "draw": draw,
            "reply_sha256": reply_hash(str(row.get("response") or "")),
        }
    )
    return out


def render_html(rows: Sequence[Mapping[str, str]]) -> str:
    """One table; each reply in a cell carrying its language and direction, so every script shapes."""
    head = "".join(
        f"<th>{html.escape(c)}</th>" for c in ("audit_id", "lang", "subset/track/orth", "canary", "prompt", "reply")
    )
    body = []

    def text(cell: str) -> str:
        return cell[1:] if cell[:2] in ("'=", "'+", "'-", "'@") else cell

    for r in rows:  # blind: the detector's decision is in audit_key.csv, not on this page
        lang = r["lang"] if r["lang"].isalnum() else "und"
        attrs = f'lang="{html.escape(lang)}" dir="{"rtl" if lang in _RTL else "auto"}"'
        body.append(
            f"<tr><td>{html.escape(r['audit_id'])}</td><td>{html.escape(lang)}</td>"
            f"<td>{html.escape(r['subset'])}/{html.escape(r['track'])}/{html.escape(r['orthography'])}</td>"
            f"<td>{html.escape(r['canary'])}</td>"
            f'<td class="resp" {attrs}>{html.escape(text(r["prompt"]))}</td>'
            f'<td class="resp" {attrs}>{html.escape(text(r["response"]))}</td></tr>'
        )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>IndicJR audit sample</title>\n'
        f"<style>body{{font-family:{FONT_STACK}}}[dir=rtl]{{font-family:{RTL_FONT_STACK}}}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}"
        ".resp{white-space:pre-wrap;max-width:60em;unicode-bidi:plaintext}</style></head><body>\n"
        f"<h1>IndicJR audit sample ({len(rows)} items)</h1>\n<table><thead><tr>{head}</tr></thead><tbody>\n"
        + "\n".join(body)
        + "\n</tbody></table></body></html>\n"
    )


def write_sample(
    run_dir: Path, out_dir: Path, *, per_lang: int, seed: int, low_per_lang: int = 0
) -> tuple[Path, Path, int]:
    """Write the CSV and HTML views of the audit draw; returns their paths and the item count."""
    if per_lang < 0 or low_per_lang < 0 or per_lang + low_per_lang < 1:
        raise ConfigError(f"--per-lang ({per_lang}) and --low-per-lang ({low_per_lang}) must be >= 0, one of them >= 1")
    from indicjr.run.results import case_prompts, make_private

    picked = audit_draw(load_results(run_dir), per_lang, low_per_lang, seed)
    summary = run_dir / "summary.json" if run_dir.is_dir() else run_dir.with_name("summary.json")
    prompts = case_prompts(summary, {str(r["id"]) for r, _ in picked})
    rows = [_csv_row(n, r, prompts.get(str(r["id"]), ""), draw) for n, (r, draw) in enumerate(picked, 1)]
    try:
        created = not out_dir.exists()
        out_dir.mkdir(parents=True, exist_ok=True)
        csv_path, html_path = out_dir / "audit_sample.csv", out_dir / "audit_sample.html"
        for path, columns in ((csv_path, ANNOTATOR_COLUMNS), (out_dir / KEY_FILE, KEY_COLUMNS)):
            with path.open("w", encoding="utf-8-sig", newline="") as fh:  # BOM: spreadsheets detect UTF-8
                writer = csv.DictWriter(fh, fieldnames=columns, extrasaction="ignore")
                writer.writeheader()
                writer.writerows(rows)
        html_path.write_text(render_html(rows), encoding="utf-8")
        make_private(*((out_dir,) if created else (csv_path, html_path, out_dir / KEY_FILE)))
    except OSError as exc:
        raise ConfigError(f"--out: cannot write {out_dir}: {exc.strerror or exc}") from None
    return csv_path, html_path, len(rows)


# ---------------------------------------------------------------- CLI


def _sample_cmd(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    out = Path(args.out) if args.out else (run_dir if run_dir.is_dir() else run_dir.parent) / "audit"
    csv_path, html_path, n = write_sample(
        run_dir, out, per_lang=args.per_lang, seed=args.seed, low_per_lang=args.low_per_lang
    )
    print(f"audit sample: {n} items -> {csv_path} and {html_path}")
    return 0


def _import_cmd(args: argparse.Namespace) -> int:
    from indicjr.judge.audit_import import import_labels

    path = Path(args.labels)
    added, changed, total = import_labels(Path(args.file), path)
    print(f"labels: {added} added, {changed} changed -> {path} ({total} labels; every later run applies them)")
    return 0


def _score_cmd(args: argparse.Namespace) -> int:
    scores = score_file(Path(args.file))
    print(json.dumps(scores, indent=2) if args.json else render_scores(scores))
    return 0


def add_audit_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register `ijr audit sample` and `ijr audit score` (called by indicjr.cli)."""
    audit = sub.add_parser("audit", help="human audit of the detector (E5)")
    asub = audit.add_subparsers(dest="audit_command", required=True)
    s = asub.add_parser("sample", help="export a stratified sample for two annotators (CSV + HTML)")
    s.add_argument("run_dir", help="a run directory (with results.jsonl) or a results.jsonl file")
    s.add_argument("--per-lang", type=int, default=50, help="stratified random items per language (E5)")
    s.add_argument(
        "--low-per-lang", type=int, default=25, help="low-confidence verdicts per language, drawn first (0: none)"
    )
    s.add_argument("--out", help="output folder (default RUN_DIR/audit)")
    s.add_argument("--seed", type=int, default=13)
    s.set_defaults(func=_sample_cmd)
    i = asub.add_parser("import", help="store the annotated labels by reply hash (applied by every later run)")
    i.add_argument("file", help="the annotated audit_sample.csv (audit_key.csv beside it)")
    i.add_argument("--labels", default=str(DEFAULT_LABELS), help="labels file (default audit/labels.jsonl)")
    i.set_defaults(func=_import_cmd)
    c = asub.add_parser("score", help="Cohen's kappa and detector error rates from an annotated CSV")
    c.add_argument("file")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=_score_cmd)
