"""Unicode-range checks of native text: which letters belong to which script, per part of a prompt.

A letter is a character of Unicode category L, M (vowel signs, viramas) or N outside ASCII (native digits);
everything else must be spacing or punctuation (P*, Z*, the joiners ZWJ/ZWNJ) — the danda and Urdu marks
are punctuation shared by several scripts. ASCII letters are Latin.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from indicjr.cases.orthography import PROTECTED
from indicjr.langs import SCRIPT_OF, script_of_char

_JOINERS = frozenset("\u200c\u200d")


def script_of_lang(lang: str) -> str:
    return "Latin" if lang == "en" else SCRIPT_OF[lang]


@functools.cache
def _letter_script(ch: str) -> str | None:
    """Script of a letter; '?' for a letter or symbol of no known script; None for spacing and punctuation."""
    if ch.isascii():
        return "Latin" if ch.isalpha() else None
    cat = unicodedata.category(ch)
    if cat[0] in "LMN":
        return script_of_char(ch) or "?"
    if cat[0] in "PZ" or ch in _JOINERS:
        return None
    return "?"  # symbols, controls, private use: not allowed in native text


# Names that native writers type in Latin letters inside native text (format wrappers: "YAML ਰੂਪ ਵਿੱਚ").
LATIN_TERMS = re.compile(r"\b(?:JSON|YAML|AI)\b")


def letter_scripts(text: str, *, latin_terms: bool = True) -> Counter[str]:
    """Letters of the text counted by script ('?' for a letter of no known script); canaries excluded.

    With latin_terms=False the Latin format names of native wrappers (JSON, YAML, AI) are not counted.
    """
    if not latin_terms:
        text = LATIN_TERMS.sub(" ", text)
    counts = Counter(map(_letter_script, PROTECTED.sub(" ", text)))
    del counts[None]
    return counts  # type: ignore[return-value]


@dataclass
class ScriptTally:
    """Letters of one language's native cases: the core by script, and around it (wrapper, task, cues)."""

    core: Counter[str] = field(default_factory=Counter)
    around_in_script: int = 0  # letters around the core in the wrapper language's script
    around_total: int = 0

    def core_share(self, script: str) -> float:
        total = sum(self.core.values())
        return self.core[script] / total if total else 1.0

    def around_share(self) -> float:
        return self.around_in_script / self.around_total if self.around_total else 1.0
