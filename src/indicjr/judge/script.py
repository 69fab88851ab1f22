"""Which script and language a reply is written in (a Tamil prompt answered in English, say)."""

from __future__ import annotations

import re

from indicjr.judge.tokens import ENGLISH_ONLY
from indicjr.langs import SCRIPT_OF, SCRIPT_RANGES

# Counting scripts one character at a time dominated the judge's profile. Instead one translate maps every
# character to a one-letter code of its script ("\0" for none) and str.count counts each code, both in C.
# Same classes as langs.script_of_char (ASCII letters and Latin-1/Extended-A/B are Latin; every code point
# of a script's blocks counts for that script). The table is a string indexed by code point: every script
# block lies in the BMP, and a character beyond it is left as is, which no code equals.
_NAMES = ("Latin", *SCRIPT_RANGES)
_CODES = {name: chr(0x41 + i) for i, name in enumerate(_NAMES)}
_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "Latin": ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F)),
    **SCRIPT_RANGES,
}
_TABLE = ["\0"] * 0x10000
for _name in reversed(_NAMES):  # first match wins in script_of_char: earlier names overwrite later ones
    for _lo, _hi in _RANGES[_name]:
        _TABLE[_lo : _hi + 1] = [_CODES[_name]] * (_hi + 1 - _lo)
_TO_CODE = "".join(_TABLE)
_FROM_CODE = {code: name for name, code in _CODES.items()}
_CODE_LIST = tuple(_FROM_CODE)
_ASCII_LETTERS = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))  # Latin's ASCII range

_ENGLISH = ENGLISH_ONLY | frozenset(
    "the and of are was were this that you can cannot not with for here there what which who your "
    "my about from have has will would should could please sorry unable help".split()
)
_WORD = re.compile(r"[a-z']+")


def response_script(text: str) -> str:
    """Dominant letter script: an Indic script name, 'Latin', 'mixed' (no script >= 70%), or 'none'."""
    if text.isascii():  # (half of a run's replies) only ASCII letters count: Latin, or none; bytes, in C
        data = text.encode("ascii")
        return "Latin" if len(data.translate(None, _ASCII_LETTERS)) < len(data) else "none"
    codes = text.translate(_TO_CODE)
    counts = list(map(codes.count, _CODE_LIST))
    letters = sum(counts)
    if not letters:
        return "none"
    n = max(counts)
    return _FROM_CODE[_CODE_LIST[counts.index(n)]] if n >= 0.7 * letters else "mixed"


def response_language(text: str, case_lang: str, *, script: str | None = None) -> str:
    """'en', the case language (its script, or romanized Latin), 'mixed', 'other' or 'none'.
    `script` is response_script(text) when the caller has it already."""
    script = script or response_script(text)
    if script in ("none", "mixed"):
        return script
    if script == "Latin":
        words = _WORD.findall(text.lower())
        english = sum(map(_ENGLISH.__contains__, words))  # counted in C
        return "en" if words and english / len(words) >= 0.25 else case_lang
    return case_lang if SCRIPT_OF.get(case_lang) == script else "other"
