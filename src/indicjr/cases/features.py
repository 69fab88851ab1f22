"""Text features of a prompt (the E6 covariates): pure functions of the text."""

from __future__ import annotations

from indicjr.cases.model import Features
from indicjr.langs import script_of_char


def _letter_scripts(text: str) -> list[str | None]:
    return [script_of_char(ch) if (ch.isalpha() or _is_mark(ch)) else None for ch in text]


def _is_mark(ch: str) -> bool:
    # Combining vowel signs/viramas count as letters of their script for run lengths.
    return not ch.isascii() and script_of_char(ch) is not None


def compute_features(text: str) -> Features:
    """Latin share, bytes/char, script switches per 100 chars, mean same-script run, mean word length."""
    n_chars = max(len(text), 1)
    scripts = _letter_scripts(text)
    letters = [s for s in scripts if s is not None]
    latin = sum(1 for s in letters if s == "Latin")
    runs: list[int] = []
    switches = 0
    prev: str | None = None
    for s in letters:
        if s == prev:
            runs[-1] += 1
        else:
            if prev is not None:
                switches += 1
            runs.append(1)
            prev = s
    words = text.split()
    return Features(
        latin_share=round(latin / len(letters), 4) if letters else 0.0,
        bytes_per_char=round(len(text.encode("utf-8")) / n_chars, 4),
        script_switches_per100=round(100.0 * switches / n_chars, 4),
        mean_run_len=round(sum(runs) / len(runs), 4) if runs else 0.0,
        mean_word_len=round(sum(len(w) for w in words) / len(words), 4) if words else 0.0,
    )
