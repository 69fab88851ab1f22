"""A run directory as the reports see it: summary.json (the numbers of record) plus results.jsonl.

Why both: Table 2 must show exactly the values in summary.json, while figures, examples and the
sections older summaries lack (RRI, transfer, E6) are computed from the rows with the same metric
functions. A missing or malformed file is a ConfigError naming the path and what to do.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.metrics.rows import Row, load_rows


@dataclass(frozen=True, slots=True)
class Run:
    path: Path
    summary: Mapping[str, Any]
    rows: tuple[Row, ...]

    @property
    def label(self) -> str:
        return str(self.summary.get("model_display_name") or self.summary.get("model") or self.path.name)

    @property
    def model(self) -> str:
        return str(self.summary.get("model") or self.path.name)

    @property
    def simulated(self) -> bool:
        return bool(self.summary.get("simulated"))

    @property
    def headline(self) -> Mapping[str, Any]:
        h: Mapping[str, Any] = self.summary.get("headline", {})
        return h

    def warnings(self) -> list[str]:
        """What a reader must know before comparing this run: incomplete, or only a slice."""
        out = []
        if self.summary.get("complete") is False:
            why = self.summary.get("generation", {}).get("stopped_reason") or "interrupted"
            out.append(f"{self.path}: incomplete run ({why}): its numbers cover only the cases answered")
        if self.summary.get("slice"):
            out.append(f"{self.path}: a sliced run ({self.summary['slice']}): not the whole profile")
        return out

    def section(self, key: str) -> Any:
        """A summary section, computed from the rows when the run predates it."""
        if key in self.summary:
            return self.summary[key]
        return _compute(key, self.rows)


def _compute(key: str, rows: Sequence[Row]) -> Any:
    from indicjr.metrics.agreement import agreement_table
    from indicjr.metrics.correlations import e6_table
    from indicjr.metrics.rri import rri_table
    from indicjr.metrics.transfer import transfer_matrix

    if key == "rri":
        return rri_table(rows)
    if key == "transfer":
        return {t: transfer_matrix(rows, t).to_dict() for t in ("json", "free")}
    if key == "e6":
        return e6_table(rows)
    if key == "agreement":
        return agreement_table(rows)
    return None


def load_summary(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "summary.json"
    if not path.is_file():
        raise ConfigError(f"{run_dir}: no summary.json (pass a run directory written by --ijr-out)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: bad JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or "headline" not in data:
        raise ConfigError(f"{path}: no 'headline' section (is this an IndicJR summary.json?)")
    return data


def load_run(run_dir: Path | str) -> Run:
    path = Path(run_dir)
    if not path.is_dir():
        raise ConfigError(f"{path}: not a directory (pass a run directory written by --ijr-out)")
    return Run(path, load_summary(path), tuple(load_rows(path)))


def slug(text: str) -> str:
    """A file-name-safe, stable form of a model name."""
    out = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in text.lower())
    return "-".join(p for p in out.split("-") if p) or "run"


def run_slugs(runs: Sequence[Run]) -> list[str]:
    """One unique slug per run (the model name; suffixed when two runs share a model)."""
    seen: dict[str, int] = {}
    out = []
    for r in runs:
        s = slug(r.model)
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}-{seen[s]}")
    return out
