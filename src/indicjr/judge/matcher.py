"""Tolerant phrase matching over normalized tokens.

Chat text inflects and inserts words ("I cannot help you with this" for "I cannot help with this",
Hindi "I cannot help with this request" for "I cannot help with this"). A phrase matches when its
tokens occur in order within a short window, with one token missing allowed for phrases of four or
more tokens. Native tokens compare equal up to an inflectional ending; Latin tokens by chat skeleton,
except in the English lexicon, where skeletons are too lossy ("won't" and "want" share one) and the
apostrophe-free spelling must agree.

Lexicon phrases may also use two small pattern forms, so that one entry covers a verb paradigm instead
of listing every inflection (Dravidian negation is a suffix, not a word):
- `a|b|c`  — any one of the alternatives;
- `*suffix` / `prefix*` — any token ending / starting with it (compared on the normalized surface);
- `~` — a gap: the next token may come anywhere later in the same sentence (up to GAP_TOKENS tokens),
  for free word order (Hindi "about this I will give no information" for "I ~ not *will-give"; the pattern
  entries live in judge/lexicons/hi.yaml).
Pattern phrases must match in full; plain phrases of four or more tokens may miss one.

Speed (the judge scores every response of a run): phrases are compiled once per lexicon set into a
`PhraseSet`. A reply is first reduced to the set of its words' keys (one C-level `findall`); each phrase is
filed under its one or two most selective tokens, so one set intersection names the few phrases that can
occur at all. Only then, and only for those, is the reply tokenized with offsets and sentence numbers and
matched token by token. Most replies never get that far: a valid JSON contract or a plain answer has no
candidate phrase.

Modules, by job: tokens.py (the reply: normalized text, word keys, positioned tokens), phrases.py (lexicon
entries compiled to token patterns), phraseset.py (phrase sets and the candidate filter), and this one,
the scanner that matches a phrase's patterns token by token. The public names of all four stay importable
from here.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

from indicjr.judge.phrases import GAP, SHORT_SKELETON, Alt, CTok, Phrase, PTok, compile_phrase
from indicjr.judge.phraseset import PhraseSet, StartRef, _may_occur, candidates, phrase_set
from indicjr.judge.tokens import KEY_CHARS, Reply, Token, index, reply_of

__all__ = [
    "GAP",
    "GAP_TOKENS",
    "KEY_CHARS",
    "SHORT_SKELETON",
    "Alt",
    "CTok",
    "Match",
    "PTok",
    "Phrase",
    "PhraseSet",
    "Reply",
    "StartRef",
    "Token",
    "candidates",
    "compile_phrase",
    "find",
    "index",
    "phrase_set",
    "reply_of",
]

GAP_TOKENS = 10


class Match(NamedTuple):
    """One phrase occurrence (a NamedTuple: the matcher makes many and reads them by field)."""

    phrase: Phrase
    start: int  # char offsets in the normalized text
    end: int


def _same(a: str, b: str) -> bool:
    """Whether reply token b is lexicon word a up to an inflectional ending: b keeps all of a but its
    last character and may add up to two (short words must be equal).

    Asymmetric on purpose: a shorter reply word that keeps only a's stem is a different word in the
    agglutinative languages, where negation is a suffix (Kannada "needalaare", I will not give, vs
    "needalu", to give: "uttara needalu" in a benign answer read as the refusal "uttara needalaare"; natively
    in tests/unit/judge/test_fast_paths.py)."""
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < 4 or abs(len(a) - len(b)) > 2 or a.isascii() or b.isascii():
        # an ending may differ, not a whole word be appended (kn "kaanoonu", law, vs "kaanoonubaahira", unlawful)
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= len(a) - 1


def _alt_match(alt: Alt, tok: Token) -> bool:
    mode, value = alt
    if mode == "n":
        return not tok.latin and _same(value, tok.text)
    if mode == "e":
        return not tok.latin and value == tok.text
    if mode == "s":
        return tok.latin and value == tok.text
    if mode == "x":
        return tok.latin and value == tok.raw
    if mode == "f":
        return tok.raw.endswith(value) and len(tok.raw) > len(value)
    return tok.raw.startswith(value)


def _affix_positions(alt: Alt, tokens: tuple[Token, ...]) -> list[int]:
    """The indexes of the tokens an alternative matches, as _alt_match decides, with the affix tests
    (the only alternatives a phrase is started from by testing tokens) inlined: no call per token."""
    mode, value = alt
    if mode == "f":
        return [i for i, t in enumerate(tokens) if t.raw.endswith(value) and t.raw != value]
    if mode == "p":
        return [i for i, t in enumerate(tokens) if t.raw.startswith(value)]
    return [i for i, t in enumerate(tokens) if _alt_match(alt, t)]


def _ctok_match(c: CTok, tok: Token) -> bool:
    """Whether a token matches a compiled phrase token (any alternative, as _alt_match decides): set
    lookups first, fuzzy and affix checks only when needed."""
    text, _, _, latin, raw = tok[:5]
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


def _positions(c: CTok, tokens: tuple[Token, ...], idx: dict[str, list[int]]) -> list[int]:
    """The sorted indexes of the tokens matching c: the tokens filed under c's keys, tested (every token
    when c has prefix/suffix alternatives)."""
    if c[7]:
        return [x for x, t in enumerate(tokens) if _ctok_match(c, t)]
    out: list[int] = []
    for key in c[6]:
        found = idx.get(key)
        if found:
            out.extend(x for x in found if _ctok_match(c, tokens[x]))
    if len(c[6]) > 1:
        out.sort()  # each token has one key: the lists are disjoint
    return out


def _match_at(
    ptoks: tuple[CTok | None, ...],
    tokens: tuple[Token, ...],
    idx: dict[str, list[int]],
    i: int,
    misses: int,
    cache: dict[int, list[int]],
    core: frozenset[int] = frozenset(),
    step: int = 3,
    clause_bound: bool = False,
) -> tuple[int, int] | None:
    """(first matched token, index after the match) when the phrase is sought from token i, else None.

    Each phrase token takes the first matching token within reach (three tokens on, or to GAP_TOKENS
    within the sentence after a gap), all within a window of the phrase's length plus three. The matching
    tokens of each compiled token come from `cache` (filled by _positions once per reply, shared by all
    phrases), so a step is one bisect instead of testing up to three tokens."""
    j, k, window_end = i, 0, min(len(tokens), i + len(ptoks) + 3)
    missed, reach, sent, first, clause = 0, step, tokens[i].sent, -1, tokens[i].clause
    while k < len(ptoks):
        pt = ptoks[k]
        if pt is None:
            reach, k = GAP_TOKENS, k + 1
            window_end = min(len(tokens), window_end + GAP_TOKENS)
            continue
        pos = cache.get(pt[8])
        if pos is None:
            pos = cache[pt[8]] = _positions(pt, tokens, idx)
        found = None
        if pos:
            b = bisect_left(pos, j)
            if b < len(pos) and pos[b] < min(window_end, j + reach):
                found = pos[b]
                # after a gap the search stops at a sentence end (sentences only grow along the tokens);
                # a clause-bound phrase keeps a gap, its negation and its verb in the previous token's clause
                if reach > step and tokens[found].sent != sent:
                    found = None
                elif clause_bound and first >= 0 and (reach > step or k in core) and tokens[found].clause != clause:
                    found = None
        reach = step
        if found is None:
            missed += 1
            if missed > misses or k in core:
                return None
            k += 1
            continue
        if first < 0:
            first, sent = found, tokens[found].sent
        j, k, clause = found + 1, k + 1, tokens[found].clause
    return (first, j) if first >= 0 else None


def find(
    ps: PhraseSet,
    reply: Reply,
    tokens: tuple[Token, ...] | None = None,
    idx: dict[str, list[int]] | None = None,
    *,
    every: bool = False,
) -> list[Match]:
    """Every phrase occurrence (first per phrase; with `every`, all non-overlapping ones), sorted by
    offset. `tokens`/`idx` restrict matching to part of the reply (the model's own voice); by default
    the whole reply."""
    orders = candidates(ps, reply)
    if not orders:
        return []
    # Candidates were checked against the reply's keys; only a part of the reply needs checking again.
    whole = tokens is None or idx is None
    if tokens is None or idx is None:
        tokens, idx = reply.tokens, reply.idx
    out: list[Match] = []
    pattern_positions: dict[Alt, list[int]] = {}
    cache: dict[int, list[int]] = {}
    for order in orders:
        starts: set[int] = set()
        for slot, key, pattern in ps.starts[order]:
            if pattern is None:
                positions = idx.get(key)
            else:
                positions = pattern_positions.get(pattern)
                if positions is None:
                    positions = _affix_positions(pattern, tokens)
                    pattern_positions[pattern] = positions
            if positions:  # a phrase missing its first token may begin the reply: start at 0, not -1
                starts.update(x - slot if x >= slot else 0 for x in positions)
        if not starts:
            continue
        p = ps.phrases[order]
        if not whole and not _may_occur(p, idx.keys()):
            continue
        after = 0
        for i in sorted(starts):
            if i < after:
                continue
            hit = _match_at(p.compiled, tokens, idx, i, p.misses, cache, p.core, p.step, p.clause_bound)
            if hit is not None and p.step < 3 and "," in reply.norm[tokens[hit[0]].start : tokens[hit[1] - 1].end]:
                hit = None  # a tight group never spans a comma
            if hit is not None:
                out.append(Match(p, tokens[hit[0]].start, tokens[hit[1] - 1].end))
                if not every:
                    break
                after = hit[1]
    out.sort(key=lambda m: (m.start, -m.end))
    return out
