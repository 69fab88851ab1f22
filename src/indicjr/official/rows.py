"""One parser per release file family: JSON Lines -> OfficialRow, with file:line kept for every row.

Field names differ between files (final_prompt / prompt / content, id / prompt_id, family aliases);
this module is the only place that knows them. A line that is not a JSON object, or a row with no prompt
text, makes the file malformed (CaseFileError naming path:line). A well-formed row that cannot become a
case (unknown family, a row of another language) is returned as `Skipped` so the report can count it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from indicjr.errors import CaseFileError
from indicjr.jsonl import read_jsonl
from indicjr.langs import Family, Intent
from indicjr.official.layout import FileSpec
from indicjr.official.text import infer_orthography, split_contract

FAMILY_ALIASES = {
    "instruction": "instruction",
    "instruction_override": "instruction",
    "translate": "translate",
    "translate_then_do": "translate",
    "roleplay": "roleplay",
    "role_play": "roleplay",
    "role-play": "roleplay",
    "format": "format",
    "format_override": "format",
}
_TASKS = {
    "summ": "summarise",
    "summarise": "summarise",
    "summarize": "summarise",
    "extract": "facts",
    "facts": "facts",
    "classify": "classify",
}
_TEXT_FIELDS = ("final_prompt", "prompt", "content")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,80}$")


@dataclass(frozen=True, slots=True)
class OfficialRow:
    """A release row with its fields normalised to our vocabulary; `text` is exactly as released."""

    key: str  # our case id
    official_id: str | None
    file: str
    line: int
    source: str  # file family name (json_e1, json_e2, json_cb, json_ch, free_ab, free_cb, free_ch)
    track: str
    subset: str
    lang: str
    text: str
    orthography: str
    family: str | None = None
    mode: str | None = None
    wrapper_lang: str | None = None
    xfer_source: str | None = None
    severity: str | None = None
    task: str | None = None
    passage_field: str | None = None  # JSON CB ships its passage separately as `text`
    intent: str | None = None
    canary: str | None = None
    released: dict[str, Any] | None = None  # the id-bearing raw fields the id detector checks


@dataclass(frozen=True, slots=True)
class Skipped:
    file: str
    line: int
    reason: str


def _digest(text: str, n: int = 8) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:n]


def _safe_id(official_id: str) -> str:
    return official_id if _SAFE_ID.match(official_id) else f"x{_digest(official_id, 12)}"


def iter_json(spec: FileSpec) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line; anything else is a CaseFileError at path:line."""
    for lineno, obj in read_jsonl(spec.path, error=CaseFileError):
        if not isinstance(obj, dict):
            raise CaseFileError(f"{spec.path}:{lineno}: expected a JSON object, got {type(obj).__name__}")
        yield lineno, obj


def _text(spec: FileSpec, lineno: int, d: dict[str, Any]) -> str:
    for name in _TEXT_FIELDS:
        if isinstance(d.get(name), str) and d[name].strip():
            return str(d[name])
    raise CaseFileError(f"{spec.path}:{lineno}: no prompt text (expected one of {', '.join(_TEXT_FIELDS)})")


def parse_row(spec: FileSpec, lineno: int, pos: int, d: dict[str, Any]) -> OfficialRow | Skipped:
    """Normalise one row of `spec`'s family; `pos` is its 1-based position among the file's rows."""
    fam, where = spec.family, (spec.rel, lineno)
    text = _text(spec, lineno, d)
    lang = d.get("lang", spec.lang)
    if lang != spec.lang:
        return Skipped(*where, f"lang {lang!r} in a {spec.lang} file")
    official_id = d.get("id") or d.get("prompt_id")
    common: dict[str, Any] = dict(
        official_id=official_id,
        file=spec.rel,
        line=lineno,
        source=fam.name,
        track=fam.track,
        subset=fam.subset,
        lang=lang,
        text=text,
        released={k: d.get(k) for k in ("lang", "family", "mode", "subset") if k in d},
    )
    if fam.subset == "AB":
        family = FAMILY_ALIASES.get(str(d.get("family", "")).lower())
        if family is None or family not in {f.value for f in Family}:
            return Skipped(*where, f"unknown attack family {d.get('family')!r}")
        raw_meta = d.get("metadata")
        meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
        xfer = meta.get("xfer_source") if fam.name == "json_e2" else None
        mode = "cross" if fam.name == "json_e2" else d.get("mode")
        if mode not in ("same", "cross"):
            return Skipped(*where, f"unknown mode {d.get('mode')!r}")
        if xfer is not None:
            common["released"]["xfer_source"] = xfer
        return OfficialRow(
            key=f"{fam.track}-{_safe_id(str(official_id))}" if official_id else f"{lang}-{fam.name}-{pos:04d}",
            family=family,
            mode=mode,
            xfer_source=xfer,
            severity=d.get("severity"),
            wrapper_lang=xfer if xfer else (lang if mode == "same" else "en"),
            orthography=_ab_orthography(fam.name, meta, text, english_wrapper=xfer is None and mode == "cross"),
            **common,
        )
    if fam.subset == "CH":
        canary = d.get("canary")
        if not isinstance(canary, str) or not canary:
            raise CaseFileError(f"{spec.path}:{lineno}: clean-harmful row without a canary")
        intent = d.get("intent")
        if intent is not None and intent not in {i.value for i in Intent}:
            return Skipped(*where, f"unknown intent {intent!r}")
        key = f"free-{_safe_id(str(official_id))}" if official_id else f"{lang}-json-ch-{pos:04d}-{_digest(canary)}"
        return OfficialRow(key=key, orthography="native", intent=intent, canary=canary, **common)
    task = _TASKS.get(str(d.get("ttype", "")).lower()) if "ttype" in d else None
    key = f"free-{_safe_id(str(official_id))}" if official_id else f"{lang}-json-cb-{pos:04d}-{_digest(text)}"
    passage = d.get("text") if isinstance(d.get("text"), str) else None
    return OfficialRow(key=key, orthography="native", task=task, passage_field=passage, **common)


def _ab_orthography(source: str, meta: dict[str, Any], text: str, *, english_wrapper: bool) -> str:
    """E1 tags orthography in metadata; E2 and FREE AB do not, so it is inferred from the text."""
    if source == "json_e1" and ("romanized" in meta or "mixed" in meta):
        if meta.get("mixed"):
            return "mixed"
        return "romanized" if meta.get("romanized") else "native"
    return infer_orthography(split_contract(text)[0], english_wrapper=english_wrapper)


def read_file(spec: FileSpec) -> Iterator[OfficialRow | Skipped]:
    """Every row of one release file, parsed or skipped, in file order."""
    for pos, (lineno, d) in enumerate(iter_json(spec), 1):
        yield parse_row(spec, lineno, pos, d)
