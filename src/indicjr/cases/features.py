"""Text features of a prompt (the E6 covariates): pure functions of the text."""

from __future__ import annotations

import re

from indicjr.cases.model import Features
from indicjr.langs import SCRIPT_RANGES, script_of_char

# One code character per script, so a text's letters become a string of script codes in one C-level pass
# (str.translate): a full build classifies ~20 million characters, drawn from a few hundred distinct ones.
_CODE = {name: chr(0x41 + i) for i, name in enumerate(("Latin", *SCRIPT_RANGES))}
_LATIN = _CODE["Latin"]
_RUN_OF = {code: re.compile(re.escape(code) + "+") for code in _CODE.values()}


class _ScriptCodes(dict[int, str | None]):
    """str.translate table: code point -> script code, or None (dropped) when not a letter of any script.

    ASCII letters are Latin; any non-ASCII character inside a script's block (letters, vowel signs,
    viramas, native digits, the danda) counts as a letter of that script for runs and switches.
    """

    def __missing__(self, cp: int) -> str | None:
        script = script_of_char(chr(cp))
        code = _CODE[script] if script is not None else None
        self[cp] = code
        return code


_TABLE = _ScriptCodes()


def script_codes(text: str) -> str:
    """The text's letters as one code character per letter naming its script (non-letters dropped)."""
    return text.translate(_TABLE)


def compute_features(text: str) -> Features:
    """Latin share, bytes/char, script switches per 100 chars, mean same-script run, mean word length."""
    n_chars = max(len(text), 1)
    codes = script_codes(text)
    n_letters = len(codes)
    n_runs = sum(len(_RUN_OF[code].findall(codes)) for code in set(codes))
    words = text.split()
    return Features(
        latin_share=round(codes.count(_LATIN) / n_letters, 4) if n_letters else 0.0,
        bytes_per_char=round(len(text.encode("utf-8")) / n_chars, 4),
        script_switches_per100=round(100.0 * max(n_runs - 1, 0) / n_chars, 4),
        mean_run_len=round(n_letters / n_runs, 4) if n_runs else 0.0,
        mean_word_len=round(len("".join(words)) / len(words), 4) if words else 0.0,
    )
