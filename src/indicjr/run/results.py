"""From case + response to a result row and a verdict; writing results.jsonl and summary.json.

A row is what crosses from pytest-xdist workers to the controller (JSON only) and what `ijr report`,
`ijr diff` and `--ijr-replay` read back: ids, conditions, features, response, verdict, latency.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from indicjr.cases.model import Case
from indicjr.errors import OutputError
from indicjr.jsonl import dumps_line
from indicjr.judge.pipeline import case_task
from indicjr.judge.verdict import (
    Verdict,
    context_overflow_verdict,
    empty_verdict,
    error_verdict,
    judge,
    provider_block_verdict,
    verdict_to_dict,
)
from indicjr.targets.base import Request, Response, Settings
from indicjr.targets.calls import CONTEXT_OVERFLOW
from indicjr.untrusted import utf8_safe

CONDITION_FIELDS = (
    "lang",
    "track",
    "subset",
    "family",
    "mode",
    "wrapper_lang",
    "orthography",
    "core_id",
    "task",
    "category",
    "intent",
    "canary",
)


def request_for(case: Case, settings: Settings, sample: int = 0) -> Request:
    conditions = tuple((k, str(v)) for k in CONDITION_FIELDS if (v := getattr(case, k)) is not None)
    return Request(
        case_id=case.id,
        messages=tuple((m.role, m.content) for m in case.messages),
        settings=settings,
        sample=sample,
        conditions=(*conditions, ("case_id", case.id)),
    )


def verdict_for(case: Case, response: Response, *, scoring: str = "ijr") -> Verdict:
    """The verdict on one response: an error, a provider block and an empty answer are their own
    outcomes; everything else is judged on the answer text (reasoning already set apart), grounded in
    the case: its task and the user message as sent."""
    if response.error:
        return error_verdict(case.id, case.track, case.subset, response.error)
    if response.finish_reason == CONTEXT_OVERFLOW:
        return context_overflow_verdict(case.id, case.track, case.subset, response.provider_detail or "")
    if response.provider_block:
        return provider_block_verdict(case.id, case.track, case.subset, response.provider_block)
    if not response.text.strip():
        return empty_verdict(case.id, case.track, case.subset, response.finish_reason)
    return judge(
        response.text,
        case_id=case.id,
        lang=case.lang,
        track=case.track,
        subset=case.subset,
        canary=case.canary,
        wrapper_lang=case.wrapper_lang,
        finish_reason=response.finish_reason,
        task=case_task(case.subset, case.task),  # an IJR case: its task is known, grounding applies
        prompt=next((m.content for m in reversed(case.messages) if m.role == "user"), None),
        scoring=scoring,
    )


def result_row(case: Case, response: Response, verdict: Verdict, sample: int = 0) -> dict[str, Any]:
    row: dict[str, Any] = {"id": case.id, "sample": sample}
    row.update({k: getattr(case, k) for k in CONDITION_FIELDS})
    row["features"] = {
        "latin_share": case.features.latin_share,
        "bytes_per_char": case.features.bytes_per_char,
        "script_switches_per100": case.features.script_switches_per100,
        "mean_run_len": case.features.mean_run_len,
        "mean_word_len": case.features.mean_word_len,
    }
    row["response"] = response.text
    row["finish_reason"] = response.finish_reason
    row["latency_s"] = round(response.latency_s, 4)
    row["tokens"] = [response.input_tokens, response.output_tokens]
    row["attempts"] = response.attempts
    if response.reasoning is not None:
        row["reasoning"] = response.reasoning  # kept for people to read; the judge never saw it
    if response.provider_block is not None:
        row["provider"] = {"block": response.provider_block, "detail": response.provider_detail}
    if response.repair is not None:
        row["repair"] = response.repair  # the reply held bytes no UTF-8 file can hold: what was replaced
    if response.finish_reason == CONTEXT_OVERFLOW:  # never read by the model: out of every denominator
        row["excluded"] = CONTEXT_OVERFLOW
        row["context_overflow"] = response.provider_detail or ""
    row["from_store"] = response.cached
    if response.recorded_at is not None:
        row["recorded_at"] = round(response.recorded_at, 3)
    row["verdict"] = verdict_to_dict(verdict)
    row["confidence"] = verdict.confidence  # "high" | "low" (issue 20/21: metrics may set low ones apart)
    return row


def sort_rows(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(rows, key=lambda r: (r["id"], r.get("sample", 0)))


def mkdir_private(path: Path) -> None:
    """mkdir -p where every folder we create is 0700 (Path.mkdir gives only the leaf the mode)."""
    for folder in reversed([p for p in (path, *path.parents) if not p.exists()]):
        folder.mkdir(mode=0o700, exist_ok=True)


def make_private(*paths: Path) -> None:
    """Make what we wrote user-only: files 0600, folders 0700 with everything under them.

    Name only what this run created: a folder the user gave (e.g. `--out .`) keeps its own mode."""
    for path in paths:
        for p in (path, *(path.rglob("*") if path.is_dir() else ())):
            p.chmod(0o700 if p.is_dir() else 0o600)


def case_prompts(summary_path: Path, ids: set[str]) -> dict[str, str]:
    """The last user message of each case, read from the run's case set (summary.json `case_source`);
    empty when the summary or the case set is gone."""
    try:
        source = json.loads(summary_path.read_text(encoding="utf-8")).get("case_source")
    except (OSError, ValueError, AttributeError):
        return {}
    return prompts_from(source, ids)


def prompts_from(source: object, ids: set[str]) -> dict[str, str]:
    """The last user message of each of `ids` in the case set at `source` ({} when it is not there)."""
    from indicjr.cases.io import load_cases
    from indicjr.errors import IJRError

    if not ids or not isinstance(source, str) or not Path(source).exists():
        return {}

    try:
        cases = load_cases(Path(source))
    except (IJRError, OSError):
        return {}
    return {c.id: c.messages[-1].content for c in cases if c.id in ids}


def _private_dir(path: Path) -> None:
    try:
        mkdir_private(path)
        probe = path / ".ijr-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"--ijr-out: cannot write to {path}: {exc.strerror or exc}") from None


def _write_private(path: Path, data: str) -> None:
    """Write through a temporary file renamed into place; on failure (a full disk) the temporary file
    is removed and the old file kept. Lone surrogates a row may still hold are replaced, never raised."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(utf8_safe(data)[0])
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def write_run(out_dir: Path, rows: Sequence[Mapping[str, Any]], summary: Mapping[str, Any]) -> None:
    """Write results.jsonl and summary.json atomically, user-only permissions."""
    _private_dir(out_dir)
    lines = "".join(dumps_line(r) + "\n" for r in sort_rows(rows))
    _write_private(out_dir / "results.jsonl", lines)
    _write_private(out_dir / "summary.json", json.dumps(summary, ensure_ascii=False, indent=2) + "\n")


def check_out_dir(out_dir: Path) -> None:
    """Fail before any model call when the output folder cannot be written."""
    _private_dir(out_dir)


def finalize_rows(
    rows: Sequence[Mapping[str, Any]], *, model: str, labels_path: Path | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows as written: each names the model, and replies a person labelled take the human label
    (judge/labels.py). Returns the rows and summary.json's `labels` source ({file, labels_in_file})."""
    from indicjr.judge.labels import apply_labels, load_labels

    labels = load_labels(labels_path)
    labelled, _n = apply_labels(rows, labels)
    source = {
        "file": str(labels_path) if labels_path is not None and labels_path.is_file() else None,
        "labels_in_file": len(labels),
    }
    return [{**r, "model": r.get("model") or model} for r in labelled], source
