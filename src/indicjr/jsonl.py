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
from indicjr.untrusted import utf8_safe

# Characters str.splitlines() (and some editors) break a line on besides \n: json.dumps leaves them
# raw with ensure_ascii=False, so a reply holding one would split its JSONL row in two for such readers.
_LINE_BREAKS = {c: f"\\u{c:04x}" for c in (0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


def dumps_line(obj: Any) -> str:
    """One JSONL line (without its newline): UTF-8 text kept readable, every line break escaped, any
    lone surrogate left in a value replaced by U+FFFD (see untrusted.py), so any writer can write it."""
    text = json.dumps(obj, ensure_ascii=False)
    if not text.isascii():
        text = utf8_safe(text.translate(_LINE_BREAKS))[0]
    return text


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
            except RecursionError:  # 100k `[`: the parser's stack, not the machine's, is the limit
                raise error(f"{path}:{lineno}: bad JSON: nested too deeply") from None
