"""Case files: JSON Lines per language under cases/<profile>/, a manifest, strict loading.

Loading checks every row and fails on the first problem with `file:line: problem` — a bad row is never
skipped silently, because a benchmark that quietly loses cases reports numbers about a different set.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from indicjr.cases.model import Case, CaseDict, case_from_dict, case_to_dict
from indicjr.errors import CaseFileError, ConfigError
from indicjr.jsonl import read_jsonl
from indicjr.langs import LANGS, Family, Intent, Mode, Orthography, Subset, Track
from indicjr.untrusted import utf8_safe

MANIFEST = "manifest.json"
CASE_LINE_BYTES = 2**20  # a case is a few prompts: a longer line is a mistake, read no further
REQUIRED = ("id", "lang", "track", "subset", "orthography", "core_id", "messages", "features")
_ENUMS: dict[str, frozenset[str]] = {
    "lang": frozenset(LANGS),
    "track": frozenset(t.value for t in Track),
    "subset": frozenset(s.value for s in Subset),
    "orthography": frozenset(o.value for o in Orthography),
    "family": frozenset(f.value for f in Family),
    "mode": frozenset(m.value for m in Mode),
    "intent": frozenset(i.value for i in Intent),
}


def dumps_case(case: Case) -> str:
    return json.dumps(case_to_dict(case), ensure_ascii=False, separators=(",", ":"))


def write_cases(cases: Sequence[Case], out_dir: Path, *, profile: str) -> dict[str, Any]:
    """Write <out_dir>/<lang>.jsonl and manifest.json; returns the manifest."""
    out_dir.mkdir(parents=True, exist_ok=True)
    by_lang: dict[str, list[str]] = {}
    for case in cases:
        by_lang.setdefault(case.lang, []).append(dumps_case(case))
    files: dict[str, str] = {}
    for lang in sorted(by_lang):
        data = ("\n".join(by_lang[lang]) + "\n").encode("utf-8")
        (out_dir / f"{lang}.jsonl").write_bytes(data)
        files[f"{lang}.jsonl"] = hashlib.sha256(data).hexdigest()
    manifest = build_manifest(cases, profile=profile, files=files)
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


def content_hash(files: dict[str, str]) -> str:
    """One hash for a case set: sha256 over the sorted (file name, file sha256) pairs."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(f"{name}:{files[name]}\n".encode())
    return h.hexdigest()


def build_manifest(cases: Sequence[Case], *, profile: str, files: dict[str, str]) -> dict[str, Any]:
    def count(key: str) -> dict[str, int]:
        return dict(sorted(Counter(str(getattr(c, key)) for c in cases).items()))

    return {
        "profile": profile,
        "n_cases": len(cases),
        "content_hash": content_hash(files),
        "files": files,
        "counts": {
            k: count(k)
            for k in ("lang", "track", "subset", "family", "mode", "wrapper_lang", "orthography", "task", "intent")
        },
        "by_lang_track_subset": dict(sorted(Counter(f"{c.lang}/{c.track}/{c.subset}" for c in cases).items())),
    }


def _validate_row(d: Any, where: str) -> CaseDict:
    if not isinstance(d, dict):
        raise CaseFileError(f"{where}: expected a JSON object, got {type(d).__name__}")
    for key in REQUIRED:
        if key not in d:
            raise CaseFileError(f"{where}: missing field {key!r}")
    for key, allowed in _ENUMS.items():
        value = d.get(key)
        if value is not None and value not in allowed:
            raise CaseFileError(f"{where}: unknown {key} {value!r} (allowed: {', '.join(sorted(allowed))})")
    if d["subset"] == "CH" and not d.get("canary"):
        raise CaseFileError(f"{where}: CH case {d['id']!r} has no canary")
    if d["subset"] == "AB" and not d.get("family"):
        raise CaseFileError(f"{where}: AB case {d['id']!r} has no family")
    if not isinstance(d["id"], str) or not d["id"]:
        raise CaseFileError(f"{where}: id must be a non-empty string, got {_shown(d['id'])}")
    msgs = d["messages"]
    if not isinstance(msgs, list) or not any(isinstance(m, dict) and m.get("role") == "user" for m in msgs):
        raise CaseFileError(f"{where}: messages must be a list holding a user message")
    for i, m in enumerate(msgs):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str) or not isinstance(m.get("content"), str):
            raise CaseFileError(f"{where}: messages[{i}] must have a string role and a string content")
        if utf8_safe(m["content"])[1]:  # JSON "\ud83d": half a character, no endpoint can be sent it
            raise CaseFileError(f"{where}: messages[{i}] holds a lone surrogate (half a UTF-16 pair)")
    return cast(CaseDict, d)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def case_files(path: Path) -> list[Path]:
    """The JSONL files of a case set: a directory's *.jsonl (sorted) or one file."""
    if path.is_dir():
        files = sorted(p for p in path.glob("*.jsonl"))
        if not files:
            raise ConfigError(f"{path}: no *.jsonl case files in this directory")
        return files
    if path.is_file():
        return [path]
    raise ConfigError(f"{path}: no such case file or directory")


def iter_rows(files: Iterable[Path]) -> Iterable[tuple[str, CaseDict]]:
    for file in files:
        for lineno, raw in read_jsonl(file, error=CaseFileError, max_line_bytes=CASE_LINE_BYTES):
            where = f"{file}:{lineno}"
            yield where, _validate_row(raw, where)


def load_cases(path: Path) -> list[Case]:
    """All cases of a file or directory, validated; duplicate ids and reused canaries are errors."""
    cases: list[Case] = []
    seen: dict[str, str] = {}
    canaries: dict[str, str] = {}
    for where, d in iter_rows(case_files(path)):
        if d["id"] in seen:
            raise CaseFileError(f"{where}: duplicate id {d['id']!r} (first at {seen[d['id']]})")
        seen[d["id"]] = where
        try:
            case = case_from_dict(d)
        except (KeyError, TypeError, ValueError) as exc:
            raise CaseFileError(f"{where}: malformed case: {exc!r}") from None
        if case.canary:
            if case.canary in canaries:
                raise CaseFileError(f"{where}: canary reused (first at {canaries[case.canary]})")
            canaries[case.canary] = where
        cases.append(case)
    check_canary_hygiene(cases, where=seen)
    return cases


def check_canary_hygiene(cases: Sequence[Case], where: Mapping[str, str] | None = None) -> None:
    """Refuse a case set where a canary appears in any other case's prompt (`where`: id -> file:line)."""
    canaries = {c.canary: c.id for c in cases if c.canary}
    if not canaries:
        return
    import re

    pattern = re.compile("|".join(re.escape(k) for k in sorted(canaries)))
    for case in cases:
        for m in case.messages:
            for hit in pattern.findall(m.content):
                if canaries[hit] != case.id:
                    at = f"{where[case.id]}: " if where and case.id in where else ""
                    raise CaseFileError(
                        f"{at}case {case.id}: prompt contains the canary of case {canaries[hit]} "
                        "(canaries must appear only in their own CH case)"
                    )
