"""Tolerant phrase matching over normalized tokens.

Chat text inflects and inserts words ("I cannot help you with this" for "I cannot help with this",
"मैं इस अनुरोध में सहायता नहीं कर सकता" for "मैं इसमें सहायता नहीं कर सकता"). A phrase matches when its
tokens occur in order within a short window, with one token missing allowed for phrases of four or
more tokens. Native tokens compare equal up to an inflectional ending; Latin tokens by chat skeleton.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from indicjr.judge.normalize import normalize, roman_skeleton

_TOKEN = re.compile(r"[^\s.,;:!?\"()\[\]{}*_/\\|]+")


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # normalized (native) or skeleton (Latin)
    start: int  # char offset in the normalized text
    end: int
    latin: bool


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str  # as written in the lexicon
    tokens: tuple[str, ...]  # normalized native tokens / Latin skeletons
    source: str  # "<lang>:<section>.<script>"


def compile_phrase(text: str, source: str) -> Phrase:
    return Phrase(text=text, tokens=tuple(t.text for t in tokens_of(normalize(text))), source=source)


@dataclass(frozen=True, slots=True)
class Match:
    phrase: Phrase
    start: int  # char offsets in the normalized text
    end: int


def tokens_of(normalized: str) -> tuple[Token, ...]:
    out = []
    for m in _TOKEN.finditer(normalized):
        raw = m.group(0).strip("'-")
        if not raw:
            continue
        if raw.isascii():
            out.append(Token(roman_skeleton(raw) or raw, m.start(), m.end(), True))
        else:
            out.append(Token(raw, m.start(), m.end(), False))
    return tuple(out)


def _anchor(tok: str) -> str:
    return tok if tok.isascii() else tok[:2]


def index(tokens: tuple[Token, ...]) -> dict[str, list[int]]:
    idx: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        idx.setdefault(_anchor(t.text), []).append(i)
    return idx


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.isascii() or b.isascii():
        return False
    short = min(len(a), len(b))
    if short < 3:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= short - 1


def _match_at(ptoks: tuple[str, ...], tokens: tuple[Token, ...], i: int, misses: int) -> int | None:
    """Index after the match when the phrase starts at token i, else None."""
    j, k, window_end = i, 0, min(len(tokens), i + len(ptoks) + 3)
    missed = 0
    while k < len(ptoks):
        found = next((x for x in range(j, min(window_end, j + 3)) if _same(ptoks[k], tokens[x].text)), None)
        if found is None:
            missed += 1
            if missed > misses:
                return None
            k += 1
            continue
        j, k = found + 1, k + 1
    return j


def find(phrases: Iterable[Phrase], tokens: tuple[Token, ...], idx: dict[str, list[int]]) -> list[Match]:
    """Every phrase occurrence (first per phrase), sorted by offset."""
    out: list[Match] = []
    for p in phrases:
        misses = 1 if len(p.tokens) >= 4 else 0
        anchors = set(idx.get(_anchor(p.tokens[0]), ()))
        if misses:
            anchors |= {x - 1 for x in idx.get(_anchor(p.tokens[1]), ()) if x > 0}
        for i in sorted(anchors):
            end = _match_at(p.tokens, tokens, i, misses)
            if end is not None and end > i:
                out.append(Match(p, tokens[i].start, tokens[end - 1].end))
                break
    out.sort(key=lambda m: (m.start, -m.end))
    return out


def normalized_tokens(text: str) -> tuple[str, tuple[Token, ...], dict[str, list[int]]]:
    norm = normalize(text)
    toks = tokens_of(norm)
    return norm, toks, index(toks)
