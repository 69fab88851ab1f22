"""Text normalization before matching: one NFC pass plus the variant folds that chat text needs.

Matching-only: verdict evidence offsets refer to the normalized text, which `normalize` keeps
aligned closely enough for a person to find the phrase (it only removes or substitutes characters).
"""

from __future__ import annotations

import re
import unicodedata

from indicjr.langs import SCRIPT_FOLDS

# Zero-width and bidi control characters: invisible, inserted by keyboards or to dodge filters.
_INVISIBLE = dict.fromkeys(
    [
        0x200B,
        0x200C,
        0x200D,
        0x2060,
        0xFEFF,
        0x200E,
        0x200F,
        0x202A,
        0x202B,
        0x202C,
        0x202D,
        0x202E,
        0x2066,
        0x2067,
        0x2068,
        0x2069,
        0x00AD,
        0x061C,
    ],
    None,
)
# Script-specific folds (nukta and addak dropped, chandrabindu -> anusvara, Urdu letter variants, harakat,
# dandas and Urdu punctuation) come from the language registry; what every script shares is here.
_FOLD: dict[int, str | None] = {
    **SCRIPT_FOLDS,
    # quotes and dashes
    0x2018: "'",
    0x2019: "'",
    0x201C: '"',
    0x201D: '"',
    0x00AB: '"',
    0x00BB: '"',
    0x2010: "-",
    0x2011: "-",
    0x2012: "-",
    0x2013: "-",
    0x2014: "-",
    0x2015: "-",
    0x2212: "-",
}
# Native digits -> ASCII, folded with the other variants.
_DIGITS: dict[int, str] = {cp: str(unicodedata.digit(chr(cp))) for cp in range(0x80, 0x20000) if chr(cp).isdigit()}
_ALL_FOLDS: dict[int, str | None] = {**_DIGITS, **_INVISIBLE, **_FOLD}
# The folds as one regex substitution: str.translate with a dict looks up every character of the reply
# (a tenth of the judge's time), while a character-class scan only stops at the few that fold. The class
# holds the Basic Multilingual Plane only, so that `re` compiles it to a bitmap (a class reaching beyond
# it is a linear list of ranges, slower than translate); text with a character beyond the BMP (digits of
# historic scripts, emoji) takes translate. No fold produces a character that folds again, so one pass
# equals translate.
_FOLD_CHARS: dict[str, str] = {chr(cp): rep or "" for cp, rep in _ALL_FOLDS.items()}
_FOLDABLE = re.compile("[" + "".join(re.escape(c) for c in sorted(_FOLD_CHARS) if ord(c) <= 0xFFFF) + "]")


def _fold(m: re.Match[str]) -> str:
    return _FOLD_CHARS[m.group()]


# A character beyond the BMP, found by one range search (max(text) compared every character: half the
# cost of the folds themselves).
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _fold_all(text: str) -> str:
    if not _ASTRAL.search(text):
        return _FOLDABLE.sub(_fold, text)
    return text.translate(_ALL_FOLDS)


def strip_invisible(text: str) -> str:
    return text.translate(_INVISIBLE)


def normalize(text: str) -> str:
    """NFC, invisible characters removed, script variants folded, native digits to ASCII, whitespace runs
    to one space, lowercase."""
    if not text.isascii():  # ASCII has nothing to compose, fold or translate
        text = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFC", _fold_all(text))
    return " ".join(text.split()).lower()


def normalize_lines(text: str) -> str:
    """`normalize` line by line, the line breaks kept (what list detection needs): equal to
    "\\n".join(map(normalize, text.split("\\n"))), with one Unicode pass over the whole text instead of one
    per line (a line break is a starter that composes with nothing, so NFD, the folds and NFC of the whole
    text, split at its line breaks, are those of each line)."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", _fold_all(unicodedata.normalize("NFD", text)))
    return "\n".join([" ".join(line.split()).lower() for line in text.split("\n")])


# Romanized chat spelling: one word is typed many ways (nahi/nahin/nhi, sakta/skta, kijiye/kijie).
# The rules, in order: keep a-z; ph -> f, w -> v, z -> j, q -> k, x -> ks, ck -> k; after the first letter
# drop h (aspiration and h-spellings vary freely: kh/k, nahi/nai/nhi) and vowels (they carry little in
# chat spelling); drop a final n (nahin ~ nahi, main ~ mai); collapse doubled letters. Written with
# str.replace/translate (C loops) rather than eleven regex passes: every Latin word of a reply goes
# through here once.
_NOT_AZ = re.compile(r"[^a-z]+")
_SUBSTITUTIONS = (("ph", "f"), ("w", "v"), ("z", "j"), ("q", "k"), ("x", "ks"), ("ck", "k"))
_DROP_AFTER_FIRST = str.maketrans("", "", "haeiouy")
_DOUBLED = re.compile(r"(.)\1+")


def roman_skeleton(word: str) -> str:
    """A phonetic skeleton of one romanized word: consonants in order, first letter kept."""
    w = word.lower()
    if not w.isalpha() or not w.isascii():
        w = _NOT_AZ.sub("", w)
    for a, b in _SUBSTITUTIONS:
        if a in w:
            w = w.replace(a, b)
    if len(w) > 1:
        w = w[0] + w[1:].translate(_DROP_AFTER_FIRST)
        if len(w) > 1 and w[-1] == "n":
            w = w[:-1]
    # a template substitution costs a Python-level call even when nothing doubles: search first, in C
    return _DOUBLED.sub(r"\1", w) if _DOUBLED.search(w) else w
