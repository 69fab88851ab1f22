"""Letters per script in a text, the official canaries blanked: shared by the Wikipedia core source
(cases/wikipedia.py) and the official-data importer (official/text.py), which sits above cases/."""

from __future__ import annotations

import re
from collections import Counter

from indicjr.langs import script_of_char

CANARY_RE = re.compile(r"KAN-[0-9A-Fa-f]{8}-[a-z]{2}")  # the official release's canaries


def letter_scripts(text: str) -> Counter[str]:
    """Count of letters (and combining signs) per script; 'Other' for letters of unlisted scripts."""
    counts: Counter[str] = Counter()
    for ch in CANARY_RE.sub(" ", text):
        script = script_of_char(ch)
        if script is not None:
            counts[script] += 1
        elif ch.isalpha():
            counts["Other"] += 1
    return counts
