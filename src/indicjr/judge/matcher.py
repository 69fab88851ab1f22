"""Tolerant phrase matching over normalized tokens.

Chat text inflects and inserts words ("I cannot help you with this" for "I cannot help with this",
"मैं इस अनुरोध में सहायता नहीं कर सकता" for "मैं इसमें सहायता नहीं कर सकता"). A phrase matches when its
tokens occur in order within a short window, with one token missing allowed for phrases of four or
more tokens. Native tokens compare equal up to an inflectional ending; Latin tokens by chat skeleton,
except in the English lexicon, where skeletons are too lossy ("won't" and "want" share one) and the
apostrophe-free spelling must agree.

Lexicon phrases may also use two small pattern forms, so that one entry covers a verb paradigm instead
of listing every inflection (Dravidian negation is a suffix, not a word):
- `a|b|c`  — any one of the alternatives;
- `*suffix` / `prefix*` — any token ending / starting with it (compared on the normalized surface);
- `~` — a gap: the next token may come anywhere later in the same sentence (up to GAP_TOKENS tokens),
  for free word order ("इस बारे में मैं कोई जानकारी नहीं दूँगा" for "मैं ~ नहीं *ूंगा").
Pattern phrases must match in full; plain phrases of four or more tokens may miss one.

Phrases are compiled once per lexicon set into a `PhraseSet` whose anchor index maps a token key to the
phrases that may start there, so a reply is scanned once instead of once per phrase (the hot path).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from indicjr.judge.normalize import normalize, roman_skeleton

_TOKEN = re.compile(r"[^\s.,;:!?\"()\[\]{}*_/\\|]+")
_PTOKEN = re.compile(r"[^\s.,;:!?\"()\[\]{}_/\\]+")  # lexicon side: keeps `*` and `|` for patterns

# One alternative of a phrase token: (mode, value). Modes: n native-similar, s Latin skeleton,
# x exact Latin (apostrophes dropped), p prefix, f suffix.
Alt = tuple[str, str]
PTok = tuple[Alt, ...]
GAP: PTok = (("g", ""),)
# A token pattern compiled for the hot loop: (native exact, native fuzzy by 3-char prefix, Latin skeletons,
# Latin exact spellings, prefixes, suffixes). None stands for a gap.
CTok = tuple[
    frozenset[str], dict[str, tuple[str, ...]], frozenset[str], frozenset[str], tuple[str, ...], tuple[str, ...]
]
GAP_TOKENS = 10
_SENT_BREAK = re.compile(r"[.?!\n]")


class Token(NamedTuple):
    """One token of a reply (a NamedTuple: replies have hundreds, and tuples are cheap to build)."""

    text: str  # normalized (native) or skeleton (Latin)
    start: int  # char offset in the normalized text
    end: int
    latin: bool
    raw: str = ""  # the normalized surface (apostrophes dropped)
    sent: int = 0  # sentence number: gaps never cross a sentence end


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str  # as written in the lexicon
    tokens: tuple[PTok, ...]  # compiled token patterns
    source: str  # "<lang>:<section>.<script>"
    misses: int = 0  # tokens that may be missing: 1 for plain phrases of four or more tokens
    required: tuple[frozenset[str], ...] = ()  # per literal token: anchor keys, one must be in the reply
    compiled: tuple[CTok | None, ...] = ()  # tokens as CTok, for _match_at


def _compile_alt(alt: str, exact_latin: bool) -> Alt | None:
    if alt.startswith("*") and len(alt) > 1:
        return ("f", alt[1:].replace("'", ""))
    if alt.endswith("*") and len(alt) > 1:
        return ("p", alt[:-1].replace("'", ""))
    alt = alt.replace("*", "").strip("'-")
    if not alt:
        return None
    if alt.isascii():
        if exact_latin:
            return ("x", alt.replace("'", ""))
        return ("s", roman_skeleton(alt) or alt)
    return ("n", alt)


def compile_phrase(text: str, source: str, *, exact_latin: bool = False) -> Phrase:
    """One lexicon entry as token patterns; `exact_latin` for English entries (no chat skeletons)."""
    toks: list[PTok] = []
    for m in _PTOKEN.finditer(normalize(text)):
        if m.group(0) == "~":
            if toks and toks[-1] is not GAP:
                toks.append(GAP)
            continue
        alts = tuple(a for a in (_compile_alt(x, exact_latin) for x in m.group(0).split("|")) if a)
        if alts:
            toks.append(alts)
    while toks and toks[-1] is GAP:
        toks.pop()
    plain = all(len(t) == 1 and t[0][0] in "nsx" for t in toks)
    misses = 1 if plain and len(toks) >= 4 else 0
    # A cheap necessary condition checked before any matching: the anchors of all literal tokens but
    # `misses` of them must occur in the reply.
    required = tuple(
        frozenset(_alt_anchor(a) for a in t) for t in toks if t is not GAP and all(a[0] in "nsx" for a in t)
    )
    return Phrase(
        text=text,
        tokens=tuple(toks),
        source=source,
        misses=misses,
        required=required,
        compiled=tuple(None if t is GAP else _compile_tok(t) for t in toks),
    )


def _compile_tok(ptok: PTok) -> CTok:
    fuzzy: dict[str, list[str]] = {}
    for m, v in ptok:
        if m == "n" and len(v) >= 4:  # _same needs a shared prefix of at least 3 characters
            fuzzy.setdefault(v[:3], []).append(v)
    return (
        frozenset(v for m, v in ptok if m == "n"),
        {k: tuple(v) for k, v in fuzzy.items()},
        frozenset(v for m, v in ptok if m == "s"),
        frozenset(v for m, v in ptok if m == "x"),
        tuple(v for m, v in ptok if m == "p"),
        tuple(v for m, v in ptok if m == "f"),
    )


@dataclass(frozen=True, slots=True)
class Match:
    phrase: Phrase
    start: int  # char offsets in the normalized text
    end: int


_SKELETONS: dict[str, str] = {}


def _skeleton(word: str) -> str:
    """roman_skeleton, memoized: chat words repeat across replies (bounded cache)."""
    sk = _SKELETONS.get(word)
    if sk is None:
        if len(_SKELETONS) > 200_000:
            _SKELETONS.clear()
        sk = _SKELETONS[word] = roman_skeleton(word) or word
    return sk


# One pass finds both tokens and sentence ends (group 1), so no per-token search for a sentence break.
# A token never starts or ends with an apostrophe or hyphen ("'ਤੇ" -> "ਤੇ", "can't" stays whole).
_WORDCH = r"[^\s.,;:!?\"()\[\]{}*_/\\|'\-]"
_SCAN = re.compile(rf"([.?!\n])|({_WORDCH}+(?:['\-]+{_WORDCH}+)*)")


def tokens_of(normalized: str) -> tuple[Token, ...]:
    return _scan(normalized)[0]


def _scan(normalized: str) -> tuple[tuple[Token, ...], dict[str, list[int]]]:
    """Tokens and their anchor index, built in one loop (the judge's hottest function)."""
    out: list[Token] = []
    idx: dict[str, list[int]] = {}
    sent = 0
    new = tuple.__new__
    for m in _SCAN.finditer(normalized):
        raw = m.group(2)
        if raw is None:
            sent += 1
            continue
        if raw.isascii():
            sk = _SKELETONS.get(raw) or _skeleton(raw)
            flat = raw.replace("'", "") if "'" in raw else raw
            tok = new(Token, (sk, m.start(2), m.end(2), True, flat, sent))
            key = sk
        else:
            tok = new(Token, (raw, m.start(2), m.end(2), False, raw, sent))
            key = raw[:2]
        pos = idx.get(key)
        if pos is None:
            idx[key] = [len(out)]
        else:
            pos.append(len(out))
        out.append(tok)
    return tuple(out), idx


def _anchor(tok: str) -> str:
    return tok if tok.isascii() else tok[:2]


def _alt_anchor(alt: Alt) -> str:
    mode, value = alt
    if mode == "n":
        return value[:2]
    if mode == "x":
        return roman_skeleton(value) or value
    if mode == "s":
        return value
    return mode + ":" + value  # pattern anchors: looked up through PhraseSet.patterns


def index(tokens: tuple[Token, ...]) -> dict[str, list[int]]:
    idx: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        idx.setdefault(_anchor(t.text), []).append(i)
    return idx


def _same(a: str, b: str) -> bool:
    """Native tokens equal up to one inflectional ending character (short tokens must be equal)."""
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < 4 or abs(len(a) - len(b)) > 2 or a.isascii() or b.isascii():
        return False  # an ending may differ, not a whole word be appended (ಕಾನೂನು vs ಕಾನೂನುಬಾಹಿರ)
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= short - 1


def _alt_match(alt: Alt, tok: Token) -> bool:
    mode, value = alt
    if mode == "n":
        return not tok.latin and _same(value, tok.text)
    if mode == "s":
        return tok.latin and value == tok.text
    if mode == "x":
        return tok.latin and value == tok.raw
    if mode == "f":
        return tok.raw.endswith(value) and len(tok.raw) > len(value)
    return tok.raw.startswith(value)


def _tok_match(ptok: PTok, tok: Token) -> bool:
    return any(_alt_match(a, tok) for a in ptok)


def _ctok_match(c: CTok, tok: Token) -> bool:
    """_tok_match on a compiled pattern: set lookups first, fuzzy and affix checks only when needed."""
    text, _, _, latin, raw, _ = tok
    if latin:
        if text in c[2] or raw in c[3]:
            return True
    elif text in c[0]:
        return True
    elif c[1]:
        for v in c[1].get(text[:3], ()):
            if _same(v, text):
                return True
    if c[4] and raw.startswith(c[4]):
        return True
    if c[5] and raw.endswith(c[5]):
        return any(raw.endswith(x) and len(raw) > len(x) for x in c[5])
    return False


def _match_at(ptoks: tuple[CTok | None, ...], tokens: tuple[Token, ...], i: int, misses: int) -> int | None:
    """Index after the match when the phrase starts at token i, else None."""
    j, k, window_end = i, 0, min(len(tokens), i + len(ptoks) + 3)
    missed, reach, sent = 0, 3, tokens[i].sent
    while k < len(ptoks):
        pt = ptoks[k]
        if pt is None:
            reach, k = GAP_TOKENS, k + 1
            window_end = min(len(tokens), window_end + GAP_TOKENS)
            continue
        found = None
        for x in range(j, min(window_end, j + reach)):
            if reach > 3 and tokens[x].sent != sent:
                break
            if _ctok_match(pt, tokens[x]):
                found = x
                break
        reach = 3
        if found is None:
            missed += 1
            if missed > misses:
                return None
            k += 1
            continue
        j, k = found + 1, k + 1
    return j


@dataclass(frozen=True, slots=True)
class PhraseSet:
    """Phrases compiled for fast lookup: anchor key -> (phrase order, phrase, token offset)."""

    phrases: tuple[Phrase, ...]
    anchors: dict[str, tuple[tuple[int, Phrase, int], ...]] = field(default_factory=dict)
    patterns: tuple[Alt, ...] = ()  # prefix/suffix alternatives that can anchor a phrase
    suffixes: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()


def phrase_set(phrases: Iterable[Phrase]) -> PhraseSet:
    """Build the anchor index: a phrase is anchored on its first token and, when it may miss one
    token (four or more), also on its second."""
    ps = tuple(p for p in phrases if p.tokens)
    anchors: dict[str, list[tuple[int, Phrase, int]]] = {}
    patterns: set[Alt] = set()
    for order, p in enumerate(ps):
        slots = (0, 1) if p.misses else (0,)
        for slot in slots:
            for alt in p.tokens[slot]:
                if alt[0] in "pf":
                    patterns.add(alt)
                anchors.setdefault(_alt_anchor(alt), []).append((order, p, slot))
    pats = tuple(sorted(patterns))
    return PhraseSet(
        ps,
        {k: tuple(v) for k, v in anchors.items()},
        pats,
        tuple(v for m, v in pats if m == "f"),
        tuple(v for m, v in pats if m == "p"),
    )


def _pattern_keys(ps: PhraseSet, tok: Token) -> list[str]:
    raw = tok.raw
    if not (raw.endswith(ps.suffixes) or raw.startswith(ps.prefixes)):  # one C call for most tokens
        return []
    return [m + ":" + v for m, v in ps.patterns if _alt_match((m, v), tok)]


def _may_occur(p: Phrase, idx: dict[str, list[int]]) -> bool:
    absent = 0
    keys = idx.keys()
    for req in p.required:
        if keys.isdisjoint(req):
            absent += 1
            if absent > p.misses:
                return False
    return True


def find(ps: PhraseSet, tokens: tuple[Token, ...], idx: dict[str, list[int]]) -> list[Match]:
    """Every phrase occurrence (first per phrase), sorted by offset."""
    starts: dict[int, set[int]] = {}  # phrase order -> candidate start token indexes
    by_order: dict[int, Phrase] = {}
    keys: dict[str, list[int]] = {k: v for k, v in idx.items() if k in ps.anchors}
    if ps.patterns:
        for i, t in enumerate(tokens):
            for key in _pattern_keys(ps, t):
                keys.setdefault(key, []).append(i)
    rejected: set[int] = set()
    for key, positions in keys.items():
        for order, p, slot in ps.anchors.get(key, ()):
            if order in rejected:
                continue
            if order not in by_order and not _may_occur(p, idx):
                rejected.add(order)
                continue
            by_order[order] = p
            cand = starts.setdefault(order, set())
            cand.update(x - slot for x in positions if x - slot >= 0)
    out: list[Match] = []
    for order in sorted(starts):
        p = by_order[order]
        for i in sorted(starts[order]):
            end = _match_at(p.compiled, tokens, i, p.misses)
            if end is not None and end > i:
                first = i if _tok_match(p.tokens[0], tokens[i]) else min(i + 1, end - 1)
                out.append(Match(p, tokens[first].start, tokens[end - 1].end))
                break
    out.sort(key=lambda m: (m.start, -m.end))
    return out


def normalized_tokens(text: str) -> tuple[str, tuple[Token, ...], dict[str, list[int]]]:
    norm = normalize(text)
    toks, idx = _scan(norm)
    return norm, toks, idx
