"""Orthography variants of a prompt: native, romanized (chat-style), mixed (line by line), noisy.

Transliteration engines were compared on all 12 scripts (docs/ORTHOGRAPHY.md):
- uroman (ISI): schwa deletion for Hindi/Marathi/Nepali ("bhaarat ek vishaal desh"), good Tamil,
  and the only engine with a usable Urdu romanization (a consonant skeleton, as Roman Urdu is often typed);
- aksharamukha's RomanColloquial: the most chat-like output for Bengali, Gujarati, Punjabi, Odia,
  Kannada, Malayalam and Telugu ("keralam oru samsthanaman"), where uroman doubles letters;
- indic-transliteration: scholarly schemes only (ITRANS/IAST with capitals and diacritics), no Urdu.
This module writes only the chat-style layer on top: ASCII folding, long-vowel simplification,
word-final schwa dropping where speakers drop it, and the seeded noisy-romanization generator.
"""

from __future__ import annotations

import functools
import random
import re
import unicodedata
import zlib
from typing import Any

_URoman_LANGS = frozenset({"hi", "mr", "ne", "ur", "ta"})
_AKSHARAMUKHA_SCRIPT = {
    "bn": "Bengali",
    "gu": "Gujarati",
    "pa": "Gurmukhi",
    "or": "Oriya",
    "kn": "Kannada",
    "ml": "Malayalam",
    "te": "Telugu",
}
# Languages whose speakers drop the inherent final vowel in chat ("desha" -> "desh").
_DROP_FINAL_SCHWA = frozenset({"bn", "gu", "pa"})
# Tokens that must survive every transformation untouched (canaries, placeholders).
PROTECTED = re.compile(r"IJR-[0-9a-f]{8}-[a-z]{2}|KAN-[0-9A-Fa-f]{8}-[a-z]{2}|\{[A-Za-z_]+\}")
_UNICODE_SPACE = re.compile("[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_PUNCT = str.maketrans({"।": ".", "॥": ".", "۔": ".", "،": ",", "؟": "?", "؛": ";", "\u200c": "", "\u200d": ""})


@functools.cache
def _uroman() -> Any:
    import uroman  # heavy (2.5 s to load its tables): only when romanizing

    return uroman.Uroman()


def _engine_romanize(line: str, lang: str) -> str:
    if lang in _URoman_LANGS:
        return str(_uroman().romanize_string(line))
    from aksharamukha import transliterate

    return str(transliterate.process(_AKSHARAMUKHA_SCRIPT[lang], "RomanColloquial", line, nativize=False))


def ascii_fold(text: str) -> str:
    """Fold to plain ASCII: strip diacritics, drop what has no ASCII form."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if ch.isascii())


_LONG_VOWELS = ((re.compile(r"ii+"), "i"), (re.compile(r"uu+"), "u"), (re.compile(r"aaa+"), "aa"))


def _chat_word(word: str, lang: str) -> str:
    w = word.replace("'", "")
    for pat, rep in _LONG_VOWELS:
        w = pat.sub(rep, w)
    if w.endswith("aa") and len(w) > 3:
        w = w[:-1]
    if lang in _DROP_FINAL_SCHWA and len(w) >= 3 and re.search(r"[^aeiouyw]a$", w):
        w = w[:-1]
    return w


# uroman spells retroflexes and palatals in a scholarly way ("ghossit", "caar");
# chat writes "ghoshit", "chaar".
_DEVANAGARI_CHAT = (
    (re.compile(r"c(?!h)"), "ch"),
    (re.compile(r"ss"), "sh"),
    (re.compile(r"dd"), "d"),
    (re.compile(r"tt"), "t"),
    (re.compile(r"nn"), "n"),
)


def _chat_layer(text: str, lang: str) -> str:
    folded = ascii_fold(text)
    if lang in ("hi", "mr", "ne"):
        for pat, rep in _DEVANAGARI_CHAT:
            folded = pat.sub(rep, folded)
    return re.sub(r"[A-Za-z']+", lambda m: _chat_word(m.group(0), lang), folded)


@functools.lru_cache(maxsize=65536)
def romanize_line(line: str, lang: str) -> str:
    """Chat-style ASCII romanization of one line; protected tokens pass through unchanged."""
    if line.isascii():
        return line
    if lang == "en":
        return ascii_fold(line)
    parts: list[str] = []
    pos = 0
    for m in PROTECTED.finditer(line):
        parts.append(_romanize_plain(line[pos : m.start()], lang))
        parts.append(m.group(0))
        pos = m.end()
    parts.append(_romanize_plain(line[pos:], lang))
    return "".join(parts)


def _romanize_plain(text: str, lang: str) -> str:
    if not text or text.isascii():
        return text
    # Non-ASCII spaces (NBSP from pasted text, thin spaces) become plain spaces first: the edges below are
    # copied through verbatim, and a whitespace-only text must not be duplicated by lead + trail.
    text = _UNICODE_SPACE.sub(" ", text)
    if not text.strip() or text.isascii():
        return text
    src = unicodedata.normalize("NFC", text).translate(_PUNCT)
    out = _chat_layer(_engine_romanize(src, lang), lang)
    # Engines may swallow or add edge spaces; keep the original's edges so lines join cleanly.
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return lead + re.sub(r"[ \t]+", " ", out).strip() + trail


def romanize(text: str, lang: str) -> str:
    """Romanize every line of a text (the whole user message: wrapper, core and task line)."""
    return "\n".join(romanize_line(line, lang) for line in text.split("\n"))


def _seed(key: str) -> int:
    return zlib.crc32(key.encode("utf-8"))


def mix(text: str, lang: str, key: str) -> str:
    """Line-by-line mixing of native and romanized lines, deterministic for a given key.

    Non-empty lines alternate between scripts starting from a side chosen by crc32(key), so a text of
    two or more lines always holds both scripts; every line is kept, in order.
    """
    return _mix_lines([(line, lang) for line in text.split("\n")], key)


def _mix_lines(lines: list[tuple[str, str]], key: str) -> str:
    start = _seed(key) % 2
    out: list[str] = []
    k = 0
    for line, lang in lines:
        if not line.strip():
            out.append(line)
            continue
        out.append(romanize_line(line, lang) if (k + start) % 2 else line)
        k += 1
    return "\n".join(out)


# Noisy romanization: the alternations people make when typing their language in Latin letters.
_NOISE_RULES: tuple[tuple[str, str], ...] = (
    ("aa", "a"),
    ("ee", "i"),
    ("oo", "u"),
    ("ii", "i"),  # vowel length dropped
    ("sh", "s"),
    ("v", "w"),
    ("w", "v"),
    ("ph", "f"),
    ("z", "j"),
    ("q", "k"),  # spelling alternations
    ("kh", "k"),
    ("th", "t"),
    ("dh", "d"),
    ("bh", "b"),  # aspiration dropped
    ("ai", "e"),
    ("au", "o"),
    ("y", "i"),
)
# Noise never takes a text further than this share of its length from its romanized source.
NOISE_MAX_SHARE = 0.25
_NASAL = re.compile(r"(?<=[aeiou])[nm](?=[bcdfgjkpqstvz]|$)")


def _noisy_word(word: str, rng: random.Random) -> tuple[str, int]:
    """One typing variation of a word and a bound on its edit distance (at most 2)."""
    options = [(a, b) for a, b in _NOISE_RULES if a in word]
    if _NASAL.search(word):
        options.append(("<nasal>", ""))
    if not options:
        return word, 0
    a, b = rng.choice(options)
    if a == "<nasal>":
        return _NASAL.sub("", word, count=1), 1
    i = word.find(a)
    return word[:i] + b + word[i + len(a) :], max(len(a), len(b))


def noisy(text: str, lang: str, key: str, rate: float = 0.35) -> str:
    """User-style romanization of a native text (see add_noise)."""
    return add_noise(romanize(text, lang), key, rate)


def add_noise(romanized: str, key: str, rate: float = 0.35) -> str:
    """Seeded, per-word typing variations of a romanized text.

    At most one change per lowercase word (each within edit distance 2), so the edit distance to the
    romanized source is at most 2 x (number of words changed); and changes stop once they would take it
    past NOISE_MAX_SHARE of the text's length (this binds only on very short texts: a one-word line).
    """
    rng = random.Random(_seed("noisy:" + key))
    budget = [int(NOISE_MAX_SHARE * len(romanized))]
    out: list[str] = []
    pos = 0
    for m in PROTECTED.finditer(romanized):
        out.append(_noisy_span(romanized[pos : m.start()], rng, rate, budget))
        out.append(m.group(0))
        pos = m.end()
    out.append(_noisy_span(romanized[pos:], rng, rate, budget))
    return "".join(out)


def _noisy_span(span: str, rng: random.Random, rate: float, budget: list[int]) -> str:
    def repl(m: re.Match[str]) -> str:
        w = m.group(0)
        if len(w) > 2 and rng.random() < rate:
            variant, cost = _noisy_word(w, rng)
            if cost <= budget[0]:
                budget[0] -= cost
                return variant
        return w

    return re.sub(r"[a-z]+", repl, span)


@functools.lru_cache(maxsize=65536)
def _nfc(text: str) -> str:
    # The same wrapper, core and task lines recur in every orthography and track of a condition.
    return unicodedata.normalize("NFC", text)


def apply_orthography(lines: list[tuple[str, str]], orthography: str, key: str) -> str:
    """The user message in the requested orthography, from (text, language) lines.

    Lines carry their own language because a wrapper may be written in another language than the
    core (English in cross mode, another Indic language in E2); each is romanized by its own script.
    """
    native = [(_nfc(text), lang) for text, lang in lines]
    if orthography == "native":
        return "\n".join(text for text, _ in native)
    if orthography in ("romanized", "noisy"):
        romanized = "\n".join(romanize(text, lang) for text, lang in native)
        return romanized if orthography == "romanized" else add_noise(romanized, key)
    if orthography == "mixed":
        # Line by line (the paper's definition), even where one part spans several lines.
        return _mix_lines([(line, lang) for text, lang in native for line in text.split("\n")], key)
    raise ValueError(f"unknown orthography {orthography!r}")
