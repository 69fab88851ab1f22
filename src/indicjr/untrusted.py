"""Text from outside — a model's reply, a JSONL row — made safe for every UTF-8 writer.

A Python `str` can hold a lone surrogate (JSON's `"\\ud83d"`, half an emoji, decodes to one) that no
UTF-8 encoder accepts: SQLite, `json.dumps(..., ensure_ascii=False)` written to a file, the terminal.
One such reply used to make the store's batch write fail for every answer in the batch. Here each
lone surrogate becomes U+FFFD and the caller records how many were replaced; everything else (NUL,
bidi overrides, megabyte runs without spaces) is ordinary text and passes unchanged. Linear time.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8_safe(text: str) -> tuple[str, int]:
    """(text with each lone surrogate replaced by U+FFFD, number replaced); text itself when clean."""
    if text.isascii():
        return text, 0
    return _SURROGATE.subn(REPLACEMENT, text)


def repair_note(n: int) -> str | None:
    """What the row records about a substitution (None when nothing was replaced)."""
    if not n:
        return None
    return f"{n} lone surrogate{'s' if n != 1 else ''} replaced with U+FFFD"
