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


MAX_LINE_BYTES = 16 * 2**20  # a results row may hold a megabyte reply; no row needs 16 MB


def read_jsonl(path: Path, *, error: type[IJRError], max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-blank line; a line that is not UTF-8, too long (read no
    further than max_line_bytes) or not JSON raises `error` at path:line."""
    with path.open("rb") as fh:
        for lineno, raw in enumerate(iter(lambda: fh.readline(max_line_bytes + 1), b""), 1):
            if len(raw) > max_line_bytes:
                mb = max_line_bytes / 2**20
                raise error(f"{path}:{lineno}: line longer than {mb:g} MB (cut it, or split the row)")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise error(
                    f"{path}:{lineno}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"
                ) from None
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as exc:
                raise error(f"{path}:{lineno}: bad JSON: {exc.msg} at column {exc.colno}") from None
            except RecursionError:  # 100k `[`: the parser's stack, not the machine's, is the limit
                raise error(f"{path}:{lineno}: bad JSON: nested too deeply") from None
