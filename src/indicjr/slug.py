"""Safe file-name slugs for model and profile names (no path traversal into snapshots/ or outputs)."""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slugify(name: str, max_len: int = 80) -> str:
    """'openai:gpt-4o' -> 'openai-gpt-4o'; '../../etc' -> 'etc-<hash>'; never empty, never dot-led."""
    slug = _UNSAFE.sub("-", name).strip("-.")
    slug = re.sub(r"\.{2,}", ".", slug)
    if slug != name.replace(":", "-") or len(slug) > max_len:
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
        slug = f"{slug[: max_len - 9]}-{digest}" if slug else digest
    return slug or "model"
