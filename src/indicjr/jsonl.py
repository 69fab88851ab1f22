"""Reading JSON Lines files the one way the project does it: blank lines skipped, a bad line named.

Every reader (case files, run results, the official release, Wikipedia dumps) reports a bad line as
`path:line: bad JSON: <reason> at column <n>` with the error class of its own layer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from indicjr.errors import IJRError


def read_jsonl(path: Path, *, error: type[IJRError]) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-blank line; invalid JSON raises `error` at path:line."""
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as exc:
                raise error(f"{path}:{lineno}: bad JSON: {exc.msg} at column {exc.colno}") from None
