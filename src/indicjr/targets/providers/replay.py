"""replay:<run_dir> — serve the responses a previous run recorded, with zero model calls.

It reads <run_dir>/results.jsonl (rows with "id", "response" and optional "sample", "finish_reason",
"error", "provider", "reasoning") so a run can be re-judged after a judge change, and a results file can be kept as a
versioned, diffable fixture. A row recorded as an inference error is replayed as that error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.targets.base import Identity, PermanentError, Request, Response


class ReplayTarget:
    """Answers by (case id, sample) from a results file; a missing case is a PermanentError."""

    simulated = False

    def __init__(self, *, run_dir: str | Path, name: str | None = None) -> None:
        self.run_dir = Path(run_dir)
        self.name = name or f"replay:{run_dir}"
        self._rows = _load(self.run_dir / "results.jsonl")
        self.display_name = self.name
        self.param_adaptations: tuple[str, ...] = ()

    def store_identity(self) -> Identity:
        """No server: the answers are the run folder's, named by the spec (never stored again)."""
        return Identity(endpoint="", fingerprint=None, chat_template="auto")

    def check(self) -> None:
        if not self._rows:
            raise ConfigError(f"{self.run_dir / 'results.jsonl'}: no responses to replay")

    async def generate(self, request: Request) -> Response:
        row = self._rows.get((request.case_id, request.sample))
        if row is None:
            raise PermanentError(
                f"replay: {self.run_dir} has no response for case {request.case_id} sample {request.sample}"
            )
        if row.get("error"):
            raise PermanentError(f"replayed inference error: {row['error']}")
        provider = row.get("provider") or {}
        return Response(
            text=str(row.get("response") or ""),
            finish_reason=str(row.get("finish_reason") or "stop"),
            input_tokens=int(row.get("input_tokens") or 0),
            output_tokens=int(row.get("output_tokens") or 0),
            attempts=0,
            provider_block=provider.get("block"),  # a provider block stays one when re-judged
            provider_detail=provider.get("detail") or row.get("context_overflow"),
            reasoning=row.get("reasoning"),
        )

    async def aclose(self) -> None:
        return None


def _load(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Rows by (id, sample); one-line ConfigError naming file:line for anything malformed."""
    if not path.is_file():
        raise ConfigError(f"--model replay: {path} not found (expected a previous run's folder)")
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    with path.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = (str(row["id"]), int(row.get("sample") or 0))
            except (ValueError, KeyError, TypeError) as e:
                raise ConfigError(f"{path}:{lineno}: not a result row ({type(e).__name__}: {e})") from None
            if "response" not in row and not row.get("error"):
                raise ConfigError(f"{path}:{lineno}: row {key[0]!r} has no 'response'")
            rows[key] = row
    return rows
