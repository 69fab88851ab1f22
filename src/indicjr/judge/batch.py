"""`ijr judge`: score a JSONL file of responses without any model — bad rows reported, never fatal."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from indicjr.errors import ConfigError
from indicjr.jsonl import dumps_line
from indicjr.judge.evidence import evidence_to_dict
from indicjr.judge.verdict import judge
from indicjr.langs import LANGS
from indicjr.untrusted import repair_note, utf8_safe

_TRACKS = ("json", "free")
_SUBSETS = ("AB", "CB", "CH")


def _row_problem(d: Any) -> str | None:
    if not isinstance(d, dict):
        return "expected a JSON object"
    missing = [key for key in ("id", "lang", "track", "subset", "response") if key not in d]
    if missing:  # all at once: one fix per row, not one attempt per field
        return f"missing field{'s' if len(missing) > 1 else ''} " + ", ".join(repr(k) for k in missing)
    if d["lang"] not in LANGS:
        return f"lang must be one of {', '.join(LANGS)}, got {d['lang']!r}"
    if d["track"] not in _TRACKS:
        return f"track must be json or free, got {d['track']!r}"
    if d["subset"] not in _SUBSETS:
        return f"subset must be AB, CB or CH, got {d['subset']!r}"
    if not isinstance(d["response"], str):
        return "response must be a string"
    if d.get("canary") is not None and not isinstance(d["canary"], str):
        return "canary must be a string or null"
    return None


def judge_row(d: dict[str, Any], scoring: str = "ijr") -> dict[str, Any]:
    """The output contract of `ijr judge` for one valid input row."""
    v = judge(
        d["response"],
        case_id=str(d["id"]),
        lang=str(d["lang"]),
        track=d["track"],
        subset=d["subset"],
        canary=d.get("canary"),
        wrapper_lang=d.get("wrapper_lang"),
        finish_reason=d.get("finish_reason"),
        task=d.get("task") if isinstance(d.get("task"), str) else None,
        prompt=d.get("prompt") if isinstance(d.get("prompt"), str) else None,
        scoring=scoring,
    )
    return {
        "id": d["id"],
        "decision": v.decision,
        "json_decision": v.json_decision,
        "refused": v.refused,
        "partial": v.partial,
        "leak": v.leak_canary,
        "leak_lexicon": v.leak_lexicon,
        "off_topic": v.off_topic,
        "confidence": v.confidence,
        "scoring": scoring,
        "evidence": [evidence_to_dict(e) for e in v.evidence],
    }


def judge_file(src: Path, dst: Path, *, err: IO[str], scoring: str = "ijr") -> tuple[int, int]:
    """Judge every row of src into dst; returns (rows judged, bad rows). Bad rows go to `err`.

    dst is written as a temporary file renamed into place: a failure leaves the old dst untouched.
    A response with lone surrogates (JSON `"\\ud83d"`) is judged with them replaced by U+FFFD and the
    output row says so in `repair`."""
    if not src.is_file():
        raise ConfigError(f"--input: no such file {src}")
    tmp = dst.with_name(dst.name + ".tmp")
    try:
        out = tmp.open("w", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"--output: cannot write {dst}: {exc.strerror}") from None
    try:
        with src.open(encoding="utf-8", errors="replace") as fh, out:
            counts = _judge_lines(src, fh, out, err=err, scoring=scoring)
        os.replace(tmp, dst)
    except OSError as exc:
        raise ConfigError(f"--output: cannot write {dst}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return counts


def _judge_lines(src: Path, fh: IO[str], out: IO[str], *, err: IO[str], scoring: str) -> tuple[int, int]:
    n_ok = n_bad = 0
    for lineno, line in enumerate(fh, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            problem: str | None = (
                f"bad JSON: {exc.msg} at column {exc.colno}"
                if isinstance(exc, json.JSONDecodeError)
                else "bad JSON: nested too deeply"
            )
        else:
            problem = _row_problem(d)
        if problem:
            print(f"{src}:{lineno}: {problem}", file=err)
            n_bad += 1
            continue
        d["response"], repaired = utf8_safe(d["response"])
        row = judge_row(d, scoring)
        if repaired:
            row["repair"] = repair_note(repaired)
        out.write(dumps_line(row) + "\n")
        n_ok += 1
    return n_ok, n_bad
