"""Orthography variants of a prompt: native, romanized (chat-style), mixed and noisy.

Romanization is the chat romanizer of cases/chatroman.py, whose per-language rules are data
(cases/data/romanize/<lang>.yaml); this module splits lines into native words, digits, punctuation and
protected tokens, keeps everything that is not a native word (Latin text, digits, punctuation as its ASCII
form), mixes scripts and adds typing noise (cases/noise.py) to native-derived words only.
uroman (ISI) remains the fallback for a word whose letters no rule table covers (another script's word).
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zlib
from typing import Any

from indicjr.cases.chatroman import romanize_word
from indicjr.cases.noise import NOISE_MAX_SHARE, add_noise, noisy_segments
from indicjr.langs.punctuation import CLAUSE_MARKS, SENTENCE_BREAK, char_class

__all__ = [
    "NOISE_MAX_SHARE",
    "PROTECTED",
    "add_noise",
    "apply_orthography",
    "mix",
    "noisy",
    "romanize",
    "romanize_line",
    "romanize_segments",
]

# Tokens that must survive every transformation untouched (canaries, placeholders).
PROTECTED = re.compile(r"IJR-[0-9a-f]{8}-[a-z]{2}|KAN-[0-9A-Fa-f]{8}-[a-z]{2}|\{[A-Za-z_]+\}")
# Punctuation as typed on a Latin keyboard: nothing is deleted that has an ASCII form.
_PUNCT = {
    "\u0964": ".",
    "\u0965": ".",
    "\u06d4": ".",
    "\u060c": ",",
    "\u061f": "?",
    "\u061b": ";",
    "\u066a": "%",
    "\u2013": "-",
    "\u2014": "-",
    "\u2012": "-",
    "\u2010": "-",
    "\u2011": "-",
    "\u2212": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2026": "...",
    "\u00b7": ".",
    "\u2022": "*",
    "\u00d7": "x",
}
_JOINERS = "\u200c\u200d"
Segment = tuple[str, bool]  # (text, is a romanized native word)


@functools.cache
def _uroman() -> Any:
    import uroman  # heavy (2.5 s to load its tables): only for words of no known script

    return uroman.Uroman()


def _is_word_char(ch: str) -> bool:
    return not ch.isascii() and (unicodedata.category(ch)[0] in "LM" or ch in _JOINERS)


def _plain_char(ch: str) -> str:
    """A non-word character as ASCII: digits as digits, punctuation by the table, spaces as a space."""
    if ch.isascii():
        return ch
    if ch in _PUNCT:
        return _PUNCT[ch]
    cat = unicodedata.category(ch)
    if cat == "Nd":
        return str(unicodedata.digit(ch))
    if cat[0] == "Z":
        return " "
    folded = "".join(c for c in unicodedata.normalize("NFKD", ch) if c.isascii())
    return folded


def _word(word: str, lang: str) -> Segment:
    stripped = word.strip(_JOINERS)
    if not stripped:
        return "", False
    roman, indic = romanize_word(stripped, lang)
    if not roman and any(unicodedata.category(c)[0] == "L" for c in stripped):
        roman = "".join(c for c in str(_uroman().romanize_string(stripped)) if c.isascii() and c.isalnum())
    return roman, indic


_RUN = re.compile(r"[^\x00-\x7f]+|[\x00-\x7f]+")


@functools.lru_cache(maxsize=65536)
def romanize_segments(line: str, lang: str) -> tuple[Segment, ...]:
    """A line as (text, is-native-word) segments whose concatenation is its romanization."""
    if line.isascii() or lang == "en":
        return ((line if line.isascii() else "".join(map(_plain_char, line)), False),)
    out: list[Segment] = []
    pos = 0
    for m in PROTECTED.finditer(line):
        out.extend(_plain_segments(line[pos : m.start()], lang))
        out.append((m.group(0), False))
        pos = m.end()
    out.extend(_plain_segments(line[pos:], lang))
    return tuple(out)


def _plain_segments(text: str, lang: str) -> list[Segment]:
    text = unicodedata.normalize("NFC", text)
    out: list[Segment] = []
    i = 0
    while i < len(text):
        j = i
        if _is_word_char(text[i]):
            while j < len(text) and _is_word_char(text[j]):
                j += 1
            seg = _word(text[i:j], lang)
        else:
            while j < len(text) and not _is_word_char(text[j]):
                j += 1
            seg = ("".join(map(_plain_char, text[i:j])), False)
        if seg[0]:
            out.append(seg)
        i = j
    return out


def romanize_line(line: str, lang: str) -> str:
    """Chat-style ASCII romanization of one line; protected tokens and Latin text pass through unchanged."""
    return "".join(text for text, _ in romanize_segments(line, lang))


def romanize(text: str, lang: str) -> str:
    """Romanize every line of a text (the whole user message: wrapper, core and task line)."""
    return "\n".join(romanize_line(line, lang) for line in text.split("\n"))


def noisy(text: str, lang: str, key: str) -> str:
    """User-style typing of a native text: romanized, then seeded typing variation on native words only."""
    return "\n".join(
        noisy_segments(romanize_segments(line, lang), lang, f"{key}:{i}") for i, line in enumerate(text.split("\n"))
    )


def _seed(key: str) -> int:
    return zlib.crc32(key.encode("utf-8"))


# Mixed: the user message must hold both scripts of the case language.
MIN_SCRIPT_SHARE = 0.05
# Mixed orthography switches script per phrase: the whitespace after a sentence mark or a clause mark.
_PHRASE_BREAK = re.compile(rf"{SENTENCE_BREAK.pattern}|(?<={char_class(CLAUSE_MARKS)})\s+")


def mix(text: str, lang: str, key: str) -> str:
    """Mixed orthography of a text in one language (see apply_orthography)."""
    return apply_orthography([(text, lang)], "mixed", key, case_lang=lang)


def _native_latin(text: str) -> tuple[int, int, int]:
    native = latin = 0
    for ch in text:
        if ch.isascii():
            latin += ch.isalpha()
        elif unicodedata.category(ch)[0] in "LM":
            native += 1
    return native, latin, native + latin


def _mixed_enough(text: str) -> bool:
    native, latin, total = _native_latin(text)
    return total > 0 and native >= MIN_SCRIPT_SHARE * total and latin >= MIN_SCRIPT_SHARE * total


def _mix_within(line: str, lang: str, start: int) -> str:
    """Sentence (or clause) level mixing of one line; a single clause is split between its words."""
    parts = [p for p in _PHRASE_BREAK.split(line) if p]
    if len(parts) < 2:
        words = line.split(" ")
        half = max(1, len(words) // 2)
        parts = [" ".join(words[:half]), " ".join(words[half:])] if len(words) > 1 else [line]
    seps = _PHRASE_BREAK.findall(line) if len(parts) == len(_PHRASE_BREAK.split(line)) else [" "] * (len(parts) - 1)
    out = []
    for k, part in enumerate(parts):
        out.append(romanize_line(part, lang) if (k + start) % 2 else part)
        if k < len(seps):
            out.append(seps[k])
    return "".join(out)


def _mix_lines(lines: list[tuple[str, str]], key: str, case_lang: str) -> str:
    start = _seed(key) % 2
    own = [i for i, (line, lg) in enumerate(lines) if lg == case_lang and line.strip()]
    out = [line for line, _ in lines]
    if len(own) == 1:
        # One line in the case language: mix inside it; other lines alternate as in the paper.
        out[own[0]] = _mix_within(lines[own[0]][0], case_lang, start)
    k = 0
    for i, (line, lg) in enumerate(lines):
        if not line.strip() or lg == "en" or (len(own) == 1 and i == own[0]):
            continue
        out[i] = romanize_line(line, lg) if (k + start) % 2 else line
        k += 1
    text = "\n".join(out)
    if own and not _mixed_enough(text):
        # Line alternation left too little of one script: the language's other lines all take the script
        # that was short, and the longest line is mixed inside.
        native, _, total = _native_latin(text)
        native_short = native < MIN_SCRIPT_SHARE * total
        longest = max(own, key=lambda i: len(lines[i][0]))
        for i in own:
            out[i] = lines[i][0] if native_short else romanize_line(lines[i][0], case_lang)
        out[longest] = _mix_within(lines[longest][0], case_lang, start)
        text = "\n".join(out)
    return text


@functools.lru_cache(maxsize=65536)
def _nfc(text: str) -> str:
    # The same wrapper, core and task lines recur in every orthography and track of a condition.
    return unicodedata.normalize("NFC", text)


def apply_orthography(lines: list[tuple[str, str]], orthography: str, key: str, case_lang: str | None = None) -> str:
    """The user message in the requested orthography, from (text, language) lines.

    Lines carry their own language because a wrapper may be written in another language than the
    core (English in cross mode, another Indic language in E2); each is romanized by its own script.
    Mixed holds both scripts of the case language (default: the first non-English line's language):
    several lines of it alternate line by line (the paper's definition), a single one is mixed by sentence
    or clause, and if line alternation leaves under 5% of either script, the longest line is mixed inside.
    """
    native = [(_nfc(text), lang) for text, lang in lines]
    flat = [(line, lang) for text, lang in native for line in text.split("\n")]
    if orthography == "native":
        return "\n".join(text for text, _ in native)
    if orthography == "romanized":
        return "\n".join(romanize_line(line, lang) for line, lang in flat)
    if orthography == "noisy":
        return "\n".join(
            noisy_segments(romanize_segments(line, lang), lang, f"{key}:{i}") for i, (line, lang) in enumerate(flat)
        )
    if orthography == "mixed":
        own = case_lang or next((lg for _, lg in flat if lg != "en"), "en")
        return _mix_lines(flat, key, own)
    raise ValueError(f"unknown orthography {orthography!r}")
