"""Detectors for the public release's known defects: one small pure function each, over all rows.

Each detector returns (row key, reason) pairs; `detect_all` tags them with the defect kind. They are
judged from the released text and fields only, so the report can be checked against planted defects
(tests/data/official_fixture) and rerun on any copy of the release.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from indicjr.official.rows import FAMILY_ALIASES, OfficialRow
from indicjr.official.text import PLACEHOLDER_RE, foreign_script, parse_structure, split_contract

Hits = Iterator[tuple[str, str]]

DESCRIPTIONS: dict[str, str] = {
    "no_wrapper_no_passage": "AB prompt with neither a wrapper nor a passage (only the task line)",
    "task_without_passage": "AB prompt whose task refers to the text above, but no passage is given",
    "same_equals_cross": "same-mode row byte-identical to a cross-mode row",
    "placeholder_wrapper": "wrapper with placeholder text ('…', 'YAML ...')",
    "foreign_script": "text in a script other than the case's language",
    "duplicate_passage": "clean-benign passage repeated within the language's set",
    "id_contradicts_row": "id whose fields contradict the row",
}


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    key: str
    reason: str


def _body(row: OfficialRow) -> str:
    return split_contract(row.text)[0]


def no_wrapper_no_passage(rows: Sequence[OfficialRow]) -> Hits:
    for row in rows:
        if row.subset == "AB":
            s = parse_structure(_body(row))
            if not s.wrapper and s.passage is None:
                yield row.key, "prompt is the task line alone"


def task_without_passage(rows: Sequence[OfficialRow]) -> Hits:
    for row in rows:
        if row.subset == "AB":
            s = parse_structure(_body(row))
            if s.wrapper and s.passage is None:
                yield row.key, f"wrapper and task ({s.task[:40]!r}) but no passage"


def same_equals_cross(rows: Sequence[OfficialRow]) -> Hits:
    cross: dict[tuple[str, str, str], str] = {}
    for row in rows:
        if row.subset == "AB" and row.mode == "cross":
            cross.setdefault((row.track, row.lang, row.text), row.key)
    for row in rows:
        if row.subset == "AB" and row.mode == "same":
            twin = cross.get((row.track, row.lang, row.text))
            if twin:
                yield row.key, f"identical to cross-mode {twin}"


def placeholder_wrapper(rows: Sequence[OfficialRow]) -> Hits:
    for row in rows:
        if row.subset == "AB":
            for line in parse_structure(_body(row)).wrapper:
                if PLACEHOLDER_RE.search(line):
                    yield row.key, f"wrapper line {line[:50]!r}"
                    break


def foreign_script_text(rows: Sequence[OfficialRow]) -> Hits:
    for row in rows:
        also = (row.xfer_source,) if row.xfer_source else ()
        reason = foreign_script(_body(row), row.lang, also=also, need_native=row.orthography == "native")
        if reason:
            yield row.key, reason


def duplicate_passage(rows: Sequence[OfficialRow]) -> Hits:
    first: dict[tuple[str, str, str], str] = {}
    for row in rows:
        if row.subset != "CB":
            continue
        passage = row.passage_field or parse_structure(_body(row)).passage
        if not passage:
            continue
        norm = " ".join(passage.split())
        seen = first.setdefault((row.track, row.lang, norm), row.key)
        if seen != row.key:
            yield row.key, f"same passage as {seen}"


_AB_ID = re.compile(
    r"^(?P<lang>[a-z]{2})-(?P<family>[a-z_]+)-(?P<mode>[a-z]+)-(?:xfer-(?P<xfer>[a-z]{2})-)?"
    r"[0-9a-f]{6,}(?:-free)?$"
)
_CLEAN_ID = re.compile(r"^(?P<lang>[a-z]{2})-clean(?P<kind>[BH])-[0-9a-f]{6,}$")


def _id_conflicts(row: OfficialRow) -> list[str]:
    released = row.released or {}
    oid = row.official_id or ""
    out: list[str] = []
    m = _AB_ID.match(oid) if row.subset == "AB" else _CLEAN_ID.match(oid)
    if not m:
        return out
    if m["lang"] != released.get("lang", row.lang):
        out.append(f"id lang {m['lang']} vs lang {released.get('lang')}")
    if row.subset == "AB":
        if FAMILY_ALIASES.get(m["family"], m["family"]) != row.family:
            out.append(f"id family {m['family']} vs family {released.get('family')}")
        if m["mode"] in ("same", "cross") and m["mode"] != released.get("mode", row.mode):
            out.append(f"id mode {m['mode']} vs mode {released.get('mode')}")
        if m["xfer"] and m["xfer"] != row.xfer_source:
            out.append(f"id xfer {m['xfer']} vs xfer_source {row.xfer_source}")
    elif {"B": "CB", "H": "CH"}[m["kind"]] != row.subset:
        out.append(f"id says clean{m['kind']} in a {row.subset} file")
    return out


def id_contradicts_row(rows: Sequence[OfficialRow]) -> Hits:
    for row in rows:
        conflicts = _id_conflicts(row)
        if conflicts:
            yield row.key, "; ".join(conflicts)


DETECTORS: dict[str, Callable[[Sequence[OfficialRow]], Hits]] = {
    "no_wrapper_no_passage": no_wrapper_no_passage,
    "task_without_passage": task_without_passage,
    "same_equals_cross": same_equals_cross,
    "placeholder_wrapper": placeholder_wrapper,
    "foreign_script": foreign_script_text,
    "duplicate_passage": duplicate_passage,
    "id_contradicts_row": id_contradicts_row,
}


def detect_all(rows: Sequence[OfficialRow]) -> list[Finding]:
    """All findings, in detector order then row order (deterministic)."""
    return [Finding(kind, key, reason) for kind, fn in DETECTORS.items() for key, reason in fn(rows)]
