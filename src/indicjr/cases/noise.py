"""Noisy orthography: the typing variation people produce when they write their language in Latin letters.

Only romanized native words vary: English text, English-spelled loanwords and names, canaries and
punctuation stay byte-identical. Each language's variations are data (the `noise` section of
cases/data/romanize/<lang>.yaml): short forms of frequent words (nahi -> nhi, bahut -> bht), vowel dropping
before a consonant cluster (karte -> krte), substring alternations (aa/a, ee/i, zh/l, th/t...) and undoubling
of a doubled consonant (pakka -> paka). A variant that is itself a frequent word of the language (in its word table,
e.g. taka "money" from tanka) is not used. Each changed word is within edit distance 2 of its source, and
the changes of a text stop at NOISE_MAX_SHARE of its length.
"""

from __future__ import annotations

import functools
import random
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from indicjr.cases.chatroman import RULES_DIR
from indicjr.errors import DataFileError
from indicjr.langs import LANGS, lang_file
from indicjr.yamlio import load_yaml

# Noise never takes a text further than this share of its length from its romanized source.
NOISE_MAX_SHARE = 0.25
RATE = 0.35  # share of eligible words that vary
_CONS = "bcdfghjklmnpqrstvwxyz"
# The a people drop sits between a consonant and a cluster that does not start with a nasal:
# karte -> krte, sakta -> skta (not sangmarmar -> sngmarmar, nor sathe -> sthe: th is one sound).
_ORAL = _CONS.replace("m", "").replace("n", "")
_NOT_H = _CONS.replace("h", "")
_DROP_A = re.compile(rf"(?<=[{_CONS}])a(?=[{_ORAL}][{_NOT_H}])")
_DOUBLE = re.compile(rf"([{_CONS}])\1")


@dataclass(frozen=True, slots=True)
class NoiseRules:
    short: dict[str, str]
    swaps: tuple[tuple[str, str], ...]
    drop_vowels: bool
    doubling: bool
    avoid: frozenset[str]


@functools.cache
def noise_rules(lang: str) -> NoiseRules:
    path = lang_file(lang, "romanization") if lang in LANGS else RULES_DIR / f"{lang}.yaml"
    d = load_yaml(path.read_text(encoding="utf-8")) if path.exists() else {}
    n = d.get("noise") or {}
    short = {str(k): str(v) for k, v in (n.get("short") or {}).items()}
    for k, v in short.items():
        if _levenshtein(k, v) > 2 or not re.fullmatch("[a-z]+", v):
            raise DataFileError(f"{path}: noise.short: {k} -> {v} is not a lowercase word within 2 edits")
    avoid = {str(v).lower() for v in (d.get("words") or {}).values()} | {str(x) for x in n.get("avoid") or ()}
    return NoiseRules(
        short=short,
        swaps=tuple((str(a), str(b)) for a, b in n.get("swaps") or ()),
        drop_vowels=bool(n.get("drop_vowels", True)),
        doubling=bool(n.get("doubling", True)),
        avoid=frozenset(avoid),
    )


def _levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _variants(word: str, r: NoiseRules) -> list[str]:
    """Candidate typing variants of one lowercase word (each within edit distance 2)."""
    if word in r.short:
        return [r.short[word]]
    out: list[str] = []
    for a, b in r.swaps:
        i = _find_letter(word, a)
        if i >= 0:
            out.append(word[:i] + b + word[i + len(a) :])
    if r.drop_vowels:
        m = _DROP_A.search(word)
        if m:
            out.append(word[: m.start()] + word[m.end() :])
    if r.doubling:
        m = _DOUBLE.search(word)
        if m:  # pakka -> paka, uttar -> utar
            out.append(word[: m.start()] + word[m.start() + 1 :])
    return [v for v in out if v != word and v not in r.avoid and _levenshtein(word, v) <= 2]


def _find_letter(word: str, a: str) -> int:
    """Where `a` occurs as a letter of its own: a single consonant before a vowel (not the s of sh or st)."""
    i = word.find(a)
    while i >= 0 and len(a) == 1 and a in _CONS and word[i + 1 : i + 2] not in tuple("aeiou"):
        i = word.find(a, i + 1)
    return i


def _noisy_text(text: str, r: NoiseRules, rng: random.Random, budget: list[int]) -> str:
    def repl(m: re.Match[str]) -> str:
        w = m.group(0)
        if len(w) < 2 or rng.random() >= RATE:
            return w
        options = _variants(w, r)
        if not options:
            return w
        v = rng.choice(options)
        cost = _levenshtein(w, v)
        if cost > budget[0]:
            return w
        budget[0] -= cost
        return v

    return re.sub(r"[a-z]+", repl, text)


def _rng(key: str) -> random.Random:
    return random.Random(zlib.crc32(("noisy:" + key).encode("utf-8")))


def noisy_segments(segments: Sequence[tuple[str, bool]], lang: str, key: str) -> str:
    """A romanized line (as segments) with typing variation on its native words only."""
    r = noise_rules(lang)
    rng = _rng(key)
    budget = [int(NOISE_MAX_SHARE * sum(len(t) for t, _ in segments))]
    return "".join(_noisy_text(t, r, rng, budget) if native else t for t, native in segments)


def add_noise(romanized: str, key: str, lang: str = "hi") -> str:
    """Typing variation of a text that is all romanized native words (every lowercase run may vary)."""
    r = noise_rules(lang)
    rng = _rng(key)
    budget = [int(NOISE_MAX_SHARE * len(romanized))]
    return _noisy_text(romanized, r, rng, budget)
