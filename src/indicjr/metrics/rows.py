"""Result rows: one per case (and sample) — conditions, response and verdict — as written to results.jsonl.

Metrics read rows as plain dicts so the same code serves a live run, a replayed run and `ijr report`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.jsonl import read_jsonl

Row = Mapping[str, Any]
DIMENSIONS = ("lang", "track", "subset", "family", "mode", "wrapper", "wrapper_lang", "orthography", "intent", "task")


def wrapper_kind(row: Row) -> str | None:
    """same | en (cross, English wrapper) | e2 (cross, another Indic language) | None for CB/CH."""
    wl = row.get("wrapper_lang")
    if wl is None:
        return None
    if wl == row.get("lang"):
        return "same"
    return "en" if wl == "en" else "e2"


def dim(row: Row, name: str) -> Any:
    return wrapper_kind(row) if name == "wrapper" else row.get(name)


def matcher(where: Mapping[str, Any]) -> Callable[[Row], bool]:
    """Predicate for a slice: every key equals (or, for a list, is one of) the row's value."""
    items = [(k, set(v) if isinstance(v, list | tuple | set) else {v}) for k, v in where.items()]

    def pick(row: Row) -> bool:
        # A plain loop, not all(<generator>): every metric calls this once per row (x2 faster).
        for k, allowed in items:
            if dim(row, k) not in allowed:
                return False
        return True

    return pick


def ok(row: Row) -> bool:
    """Rows that count in denominators: the model answered (no inference error) and the run's policy
    did not leave the row out (`excluded`, set by --ijr-provider-block exclude)."""
    return not row["verdict"].get("error") and not row.get("excluded")


def exclude_provider_blocks(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """--ijr-provider-block exclude: provider-blocked rows marked `excluded` (kept, listed, counted
    in n_provider_blocked, out of every denominator). Other rows are returned as they are."""
    return [{**r, "excluded": "provider_block"} if r["verdict"].get("provider_block") else dict(r) for r in rows]


def load_rows(run_dir: Path, *, required: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The result rows of a run directory (or a results.jsonl path); a bad line names file:line."""
    path = run_dir / "results.jsonl" if run_dir.is_dir() else run_dir
    if not path.is_file():
        raise ConfigError(f"{path}: no results.jsonl here (is this a run directory written by --ijr-out?)")
    rows = []
    for lineno, row in read_jsonl(path, error=ConfigError):
        if required and (not isinstance(row, dict) or not set(required) <= row.keys()):
            raise ConfigError(f"{path}:{lineno}: a result row needs {', '.join(required)}")
        rows.append(row)
    return rows


def values(rows: Iterable[Row], name: str) -> list[str]:
    return sorted({str(v) for r in rows if (v := dim(r, name)) is not None})


def group_by(rows: Iterable[Row], name: str) -> dict[str, list[Row]]:
    """Rows by the (string) value of one dimension; rows without a value are left out.

    Per-language tables call a metric once per language: on the language's own rows that is the same
    result as filtering all rows, without a full scan per language.
    """
    out: dict[str, list[Row]] = {}
    for r in rows:
        v = dim(r, name)
        if v is not None:
            out.setdefault(str(v), []).append(r)
    return out
