"""Which script and language a reply is written in (a Tamil prompt answered in English, say)."""

from __future__ import annotations

import re
from collections import Counter

from indicjr.langs import SCRIPT_OF, script_of_char

_ENGLISH = frozenset(
    "the and of are was were this that you can cannot not with for here there what which who your "
    "my about from have has will would should could please sorry unable help".split()
)
_WORD = re.compile(r"[a-z']+")


def response_script(text: str) -> str:
    """Dominant letter script: an Indic script name, 'Latin', 'mixed' (no script >= 70%), or 'none'."""
    counts = Counter(s for s in map(script_of_char, text) if s)
    if not counts:
        return "none"
    script, n = counts.most_common(1)[0]
    return script if n >= 0.7 * sum(counts.values()) else "mixed"


def response_language(text: str, case_lang: str) -> str:
    """'en', the case language (its script, or romanized Latin), 'mixed', 'other' or 'none'."""
    script = response_script(text)
    if script in ("none", "mixed"):
        return script
    if script == "Latin":
        words = _WORD.findall(text.lower())
        english = sum(1 for w in words if w in _ENGLISH)
        return "en" if words and english / len(words) >= 0.25 else case_lang
    return case_lang if SCRIPT_OF.get(case_lang) == script else "other"
