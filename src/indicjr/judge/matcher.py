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

Speed (the judge scores every response of a run): phrases are compiled once per lexicon set into a
`PhraseSet`. A reply is first reduced to the set of its words' keys (one C-level `findall`); each phrase is
filed under its one or two most selective tokens, so one set intersection names the few phrases that can
occur at all. Only then, and only for those, is the reply tokenized with offsets and sentence numbers and
matched token by token. Most replies never get that far: a valid JSON contract or a plain answer has no
candidate phrase.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from indicjr.judge.normalize import normalize, roman_skeleton

_PTOKEN = re.compile(r"[^\s.,;:!?\"()\[\]{}_/\\]+")  # lexicon side: keeps `*` and `|` for patterns

# One alternative of a phrase token: (mode, value). Modes: n native-similar, s Latin skeleton,
# x exact Latin (apostrophes dropped), p prefix, f suffix.
Alt = tuple[str, str]
PTok = tuple[Alt, ...]
GAP: PTok = (("g", ""),)
# A token pattern compiled for the hot loop: (native exact, native fuzzy by 3-char prefix, Latin skeletons,
# Latin exact spellings, prefixes, suffixes, the anchor keys of its literal alternatives, whether matching
# tokens can only be found by testing every token (prefix/suffix alternatives), a unique id). None stands
# for a gap.
CTok = tuple[
    frozenset[str],
    dict[str, tuple[str, ...]],
    frozenset[str],
    frozenset[str],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    bool,
    int,
]
_CTOK_IDS = itertools.count()
GAP_TOKENS = 10
SHORT_SKELETON = 2  # a one-word romanized refusal with a skeleton this short is matched by exact spelling
# A native token's key is its first KEY_CHARS characters: tokens that `_same` can equal share them (a short
# token must be equal, a long one may differ only after its first three characters).
KEY_CHARS = 3


class Token(NamedTuple):
    """One token of a reply (a NamedTuple: replies have hundreds, and tuples are cheap to build)."""

    text: str  # normalized (native) or skeleton (Latin)
    start: int  # char offset in the normalized text
    end: int
    latin: bool
    raw: str = ""  # the normalized surface (apostrophes dropped)
    sent: int = 0  # sentence number: gaps never cross a sentence end
    clause: int = 0  # clause number (a comma, colon or semicolon also ends a clause)


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str  # as written in the lexicon
    tokens: tuple[PTok, ...]  # compiled token patterns
    source: str  # "<lang>:<section>.<script>"
    misses: int = 0  # tokens that may be missing: 1 for plain phrases of four or more tokens
    required: tuple[frozenset[str], ...] = ()  # per literal token: anchor keys, one must be in the reply
    # per all-native literal token: "\n" + each alternative less its last character — a reply word must
    # start with one of them (what _same needs), tested as a substring of Reply.flat_text after the keys
    stems: tuple[tuple[str, ...], ...] = ()
    compiled: tuple[CTok | None, ...] = ()  # tokens as CTok, for _match_at
    core: frozenset[int] = frozenset()  # slots that may never be the missing one: the negation, the verb
    step: int = 3  # how far on the next token may be found (2: at most one word between, no comma)
    # a gap, the negation and the verb stay in the clause of the token before them (unless the entry
    # itself spans a comma, as "I'm sorry, but I can't" does)
    clause_bound: bool = True
    entry: int = 0  # its place in its lexicon list, counted from 1 (0: not from a lexicon file)


def _compile_alt(alt: str, exact_latin: bool, min_skeleton: int = 2) -> Alt | None:
    if alt.startswith("*") and len(alt) > 1:
        return ("f", alt[1:].replace("'", ""))
    if alt.endswith("*") and len(alt) > 1:
        return ("p", alt[:-1].replace("'", ""))
    alt = alt.replace("*", "").strip("'-")
    if not alt:
        return None
    if alt.isascii():
        if exact_latin or len(roman_skeleton(alt)) < min_skeleton:
            # A skeleton of one letter is no spelling at all ("main", "mein" and "me" are all "m"; "nahi"
            # and "ne" are "n"): such words are matched as typed, and the lexicon lists their spellings.
            return ("x", alt.replace("'", ""))
        return ("s", roman_skeleton(alt) or alt)
    # the grammar lists its verb forms: no inflectional slack (Bengali মানব "I will obey" must not match
    # মানবেন "they will obey"), mode "e"
    return ("e" if min_skeleton > 2 else "n", alt)


def _is_negation(ptok: PTok, negations: frozenset[str]) -> bool:
    """Whether a phrase token is (or ends in) one of the language's negation markers."""
    for _, value in ptok:
        for neg in negations:
            if (neg.startswith("*") and value.endswith(neg[1:])) or value == neg or value == roman_skeleton(neg):
                return True
    return False


def _negation_word(word: str, negations: frozenset[str]) -> bool:
    """Whether a lexicon word (alternatives a|b) is a Latin negation marker or ends in one."""
    for alt in word.split("|"):
        if alt.isascii() and not alt.startswith("*") and not alt.endswith("*"):
            for neg in negations:
                if neg.isascii() and (alt == neg or (neg.startswith("*") and alt.endswith(neg[1:]))):
                    return True
    return False


def compile_phrase(
    text: str,
    source: str,
    *,
    exact_latin: bool = False,
    negations: frozenset[str] = frozenset(),
    entry: int = 0,
) -> Phrase:
    """One lexicon entry as token patterns; `exact_latin` for English entries (no chat skeletons).

    A plain phrase of four or more tokens may miss one token, but never its last one (the verb, where
    Dravidian negation is a suffix) nor a negation marker from `negations` (words, or `*suffix`): "मैं
    इसमें आपकी मदद कर सकता हूँ" (I can help) must not match "मैं इसमें आपकी मदद नहीं कर सकता"."""
    toks: list[PTok] = []
    # The grammar's Latin words are typed as listed unless their chat skeleton is long enough to be safe
    # ("mudiyala" and "mudhal" share "mdl"; "helalla" and "hala" share "hl").
    grammar = any(k in source for k in (":negated_act", ":unable", ":impersonal", ":policy"))
    min_skeleton = 4 if grammar else 2
    words = [m.group(0) for m in _PTOKEN.finditer(normalize(text))]
    for word in words:
        if word == "~":
            if toks and toks[-1] is not GAP:
                toks.append(GAP)
            continue
        alts = tuple(a for a in (_compile_alt(x, exact_latin, min_skeleton) for x in word.split("|")) if a)
        if alts and _negation_word(word, negations):
            # a romanized negation is typed as listed: its skeleton is its positive form's ("paribini", "I
            # cannot", and "paribi", "I can", are both "prb")
            alts = tuple(a for a in (_compile_alt(x, True) for x in word.split("|")) if a)
        if alts:
            toks.append(alts)
    while toks and toks[-1] is GAP:
        toks.pop()
    refusal = any(k in source for k in (":refusal", ":negated_act", ":unable", ":impersonal", ":policy"))
    if refusal and len(toks) == 1 and all(m == "s" and len(v) <= SHORT_SKELETON for m, v in toks[0]):
        # A one-word phrase whose chat skeleton is this short would match unrelated words (Tamil
        # "maatten" -> "mt" = Gujarati "mith", English "meet"): its listed spellings must be typed.
        toks = [tuple(a for a in (_compile_alt(x, True) for x in words[0].split("|")) if a)]
    plain = all(len(t) == 1 and t[0][0] in "nsxe" for t in toks)
    misses = 1 if plain and len(toks) >= 5 else 0  # a 4-token frame missing its adjective fires on prose
    # A cheap necessary condition checked before any matching: the anchors of all literal tokens but
    # `misses` of them must occur in the reply.
    required = tuple(
        frozenset(_alt_anchor(a) for a in t) for t in toks if t is not GAP and all(a[0] in "nsxe" for a in t)
    )
    core = frozenset(k for k, t in enumerate(toks) if k == len(toks) - 1 or _is_negation(t, negations))
    return Phrase(
        text=text,
        tokens=tuple(toks),
        source=source,
        misses=misses,
        core=core,
        # the grammar's verb groups are tight: "नहीं कर सकता", not "नहीं, पात्र बनकर बताता"
        step=2 if any(k in source for k in (":negated_act", ":unable", ":impersonal")) else 3,
        clause_bound="," not in text and "،" not in text,
        entry=entry,
        required=required,
        stems=tuple(
            tuple("\n" + v[:-1] for _, v in t)
            for t in toks
            if t is not GAP and all(m in "ne" for m, _ in t) and all(len(v) > KEY_CHARS + 1 for _, v in t)
        ),
        compiled=tuple(None if t is GAP else _compile_tok(t) for t in toks),
    )


_CTOKS: dict[PTok, CTok] = {}


def _compile_tok(ptok: PTok) -> CTok:
    """The compiled form of a phrase token, interned: phrases that share a word share its CTok, so a
    reply's matching positions are computed once per word, not once per phrase."""
    c = _CTOKS.get(ptok)
    if c is None:
        c = _CTOKS[ptok] = _build_tok(ptok)
    return c


def _build_tok(ptok: PTok) -> CTok:
    fuzzy: dict[str, list[str]] = {}
    for m, v in ptok:
        if m == "n" and len(v) >= 4:  # _same needs a shared prefix of at least 3 characters
            fuzzy.setdefault(v[:3], []).append(v)
    literal = [a for a in ptok if a[0] in "nsxe"]
    # A token's key is its skeleton or prefix, so a matching token is filed under one of these keys; an
    # exact Latin spelling without letters (no skeleton) is keyed by its own surface and is tested instead.
    scan = len(literal) < len(ptok) or any(m == "x" and not roman_skeleton(v) for m, v in literal)
    return (
        frozenset(v for m, v in ptok if m in "ne"),
        {k: tuple(v) for k, v in fuzzy.items()},
        frozenset(v for m, v in ptok if m == "s"),
        frozenset(v for m, v in ptok if m == "x"),
        tuple(v for m, v in ptok if m == "p"),
        tuple(v for m, v in ptok if m == "f"),
        tuple(sorted({_alt_anchor(a) for a in literal})),
        scan,
        next(_CTOK_IDS),
    )


class Match(NamedTuple):
    """One phrase occurrence (a NamedTuple: the matcher makes many and reads them by field)."""

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
_WORD = rf"{_WORDCH}+(?:['\-]+{_WORDCH}+)*"
_SCAN = re.compile(rf"([.?!\n])|([,;:،؛])|({_WORD})")
_WORDS = re.compile(_WORD)


# word -> its anchor key: its chat skeleton (Latin) or its first KEY_CHARS characters. Words repeat
# across replies, so keys are computed once per word and looked up in C (`map(dict.__getitem__)`).
_KEYS: dict[str, str] = {}


def _keys_of(words: frozenset[str]) -> frozenset[str]:
    if len(_KEYS) > 300_000:  # bounded: a long run's vocabulary keeps growing
        _KEYS.clear()
    for w in words.difference(_KEYS):
        _KEYS[w] = _skeleton(w) if w.isascii() else w[:KEY_CHARS]
    return frozenset(map(_KEYS.__getitem__, words))


def _scan(normalized: str) -> tuple[tuple[Token, ...], dict[str, list[int]]]:
    """Tokens and their anchor index, built in one loop (only for replies where some phrase may occur)."""
    out: list[Token] = []
    idx: dict[str, list[int]] = {}
    sent = clause = 0
    new = tuple.__new__
    for m in _SCAN.finditer(normalized):
        raw = m.group(3)
        if raw is None:
            clause += 1
            if m.group(1) is not None:
                sent += 1
            continue
        if raw.isascii():
            sk = _SKELETONS.get(raw) or _skeleton(raw)
            flat = raw.replace("'", "") if "'" in raw else raw
            tok = new(Token, (sk, m.start(3), m.end(3), True, flat, sent, clause))
            key = sk
        else:
            tok = new(Token, (raw, m.start(3), m.end(3), False, raw, sent, clause))
            key = raw[:KEY_CHARS]
        pos = idx.get(key)
        if pos is None:
            idx[key] = [len(out)]
        else:
            pos.append(len(out))
        out.append(tok)
    return tuple(out), idx


_NOT_SIMPLE_ESCAPE = re.compile(r'\\(?:[^"\\/fnrt]|$)')


class Reply:
    """A normalized reply, tokenized lazily: its word keys (cheap, for the phrase filters) at once, the
    positioned tokens only when a phrase may occur."""

    def __init__(self, norm: str, words: frozenset[str] | None = None) -> None:
        self.norm = norm
        self.words: frozenset[str] = frozenset(_WORDS.findall(norm)) if words is None else words
        self.candidates: dict[int, list[int]] = {}  # id(PhraseSet) -> candidates(), asked up to three times

    def unescaped_words(self) -> Reply | None:
        """A word set holding every word of any JSON string in this reply, decoded: a necessary-condition
        stand-in for the string (candidates() only grows with the words), or None when it cannot be had.

        A JSON escape is a backslash and one character. In the raw text the backslash ends a word, so
        `\\"`, `\\\\` and `\\/` leave the words as they are, while `\\n`, `\\r`, `\\t` and `\\f` glue
        their letter to the next word ("nभारत" for "\\nभारत"): adding each word less its first letter
        covers those (less a leading apostrophe or hyphen, which cannot start a word). `\\u` (with its
        four hex digits) and `\\b` decode to characters that appear nowhere in the raw text, and a
        backslash before anything else (prose, or a letter a combining mark composed with) is no JSON
        escape: no stand-in then."""
        if _NOT_SIMPLE_ESCAPE.search(self.norm):
            return None
        glued = {w[1:].lstrip("'-") for w in self.words if len(w) > 1 and w[0] in "nrtf"}
        glued.discard("")
        return Reply("", self.words | glued) if glued else self

    @cached_property
    def keys(self) -> frozenset[str]:
        return _keys_of(self.words)

    @cached_property
    def flat_text(self) -> str:
        """The words as prefix/suffix patterns see them (Latin apostrophes dropped), one per line and
        framed by newlines, so that a pattern test is a substring count in C."""
        words = self.words
        if "'" in self.norm and any("'" in w for w in words):
            words = frozenset(w.replace("'", "") if w.isascii() else w for w in words)
        return "\n" + "\n".join(words) + "\n"

    @cached_property
    def _scanned(self) -> tuple[tuple[Token, ...], dict[str, list[int]]]:
        return _scan(self.norm)

    @property
    def tokens(self) -> tuple[Token, ...]:
        return self._scanned[0]

    @property
    def idx(self) -> dict[str, list[int]]:
        return self._scanned[1]


def reply_of(text: str) -> Reply:
    return Reply(normalize(text))


def _anchor(tok: str) -> str:
    return tok if tok.isascii() else tok[:KEY_CHARS]


@functools.lru_cache(maxsize=65536)
def _alt_anchor(alt: Alt) -> str:
    mode, value = alt
    if mode in "ne":
        return value[:KEY_CHARS]
    if mode == "x":
        return roman_skeleton(value) or value
    if mode == "s":
        return value
    return mode + ":" + value  # pattern alternatives have no key: their positions are found by testing tokens


def index(tokens: tuple[Token, ...]) -> dict[str, list[int]]:
    idx: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        idx.setdefault(_anchor(t.text), []).append(i)
    return idx


def _same(a: str, b: str) -> bool:
    """Whether reply token b is lexicon word a up to an inflectional ending: b keeps all of a but its
    last character and may add up to two (short words must be equal).

    Asymmetric on purpose: a shorter reply word that keeps only a's stem is a different word in the
    agglutinative languages, where negation is a suffix (Kannada ನೀಡಲಾರೆ "I will not give" vs ನೀಡಲು
    "to give": "ಉತ್ತರ ನೀಡಲು" in a benign answer read as the refusal "ಉತ್ತರ ನೀಡಲಾರೆ")."""
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


# Where a phrase may start: (token slot, anchor key, or the prefix/suffix alternative whose matching
# tokens are the positions).
StartRef = tuple[int, str, Alt | None]


@dataclass(frozen=True, slots=True)
class PhraseSet:
    """Phrases compiled for fast lookup.

    `filters` and `pattern_filters` file each phrase under its most selective token (two for a phrase
    that may miss one): a phrase can only occur in a reply holding one of those keys, which one set
    intersection finds. `starts` says, per phrase, which tokens it may start at."""

    phrases: tuple[Phrase, ...]
    starts: tuple[tuple[StartRef, ...], ...] = ()
    filters: dict[str, tuple[int, ...]] | None = None
    filter_keys: frozenset[str] = frozenset()
    pattern_filters: tuple[tuple[Alt, tuple[int, ...]], ...] = ()
    # Per phrase, the keys of its literal tokens when each has exactly one (and no two share one): then
    # "all but `misses` present" is one set difference in C instead of _may_occur's loop. None otherwise.
    key_sets: tuple[frozenset[str] | None, ...] = ()


def _filter_slots(p: Phrase, cost: Counter[str]) -> list[int]:
    """The token slots a reply must hold one of for p to match: the rarest literal slot (the two rarest
    when p may miss a token). Rarity is the key's frequency in this phrase set; short keys (chat
    skeletons like "m" for main/mai) and prefix/suffix patterns count as common."""

    def slot_cost(t: PTok) -> int:
        total = 0
        for alt in t:
            if alt[0] in "pf":
                total += 50
            else:
                key = _alt_anchor(alt)
                total += cost[key] + (10 if len(key) <= 2 else 0)
        return total

    ranked = sorted((slot_cost(t), s) for s, t in enumerate(p.tokens) if t is not GAP)
    return [s for _, s in ranked[: 1 + p.misses]]


# How one phrase is filed in a PhraseSet: (filter keys, filter patterns, start references, key set).
_Plan = tuple[tuple[str, ...], tuple[Alt, ...], tuple[StartRef, ...], frozenset[str] | None]
_PLANS: dict[int, tuple[Phrase, _Plan]] = {}  # id(phrase) -> (phrase, plan): the phrase kept alive


def _plan(p: Phrase, freq: Counter[str]) -> _Plan:
    slots = _filter_slots(p, freq)
    keys = tuple(_alt_anchor(a) for s in slots for a in p.tokens[s] if a[0] not in "pf")
    patterns = tuple(a for s in slots for a in p.tokens[s] if a[0] in "pf")
    # A phrase starts at its first token or, when it may miss one, at its second.
    refs = {
        (slot, _alt_anchor(alt), alt if alt[0] in "pf" else None)
        for slot in ((0, 1) if p.misses else (0,))
        for alt in p.tokens[slot]
    }
    single = all(len(req) == 1 for req in p.required) and len(set(p.required)) == len(p.required)
    key_set = frozenset(k for req in p.required for k in req) if single else None
    return keys, patterns, tuple(sorted(refs, key=str)), key_set


def phrase_set(phrases: Iterable[Phrase]) -> PhraseSet:
    """Compile the filters and start references of a phrase list (order kept: it orders the matches).

    A phrase's plan is computed once per process and reused by every set it joins (a run meets each
    language's lexicon with the English one and with every wrapper language's)."""
    ps = tuple(p for p in phrases if p.tokens)
    plans: list[_Plan] = []
    freq: Counter[str] | None = None
    for p in ps:
        hit = _PLANS.get(id(p))
        if hit is None or hit[0] is not p:
            if freq is None:
                freq = Counter()
                for q in ps:
                    freq.update({_alt_anchor(a) for t in q.tokens for a in t if a[0] in "nsxe"})
            if len(_PLANS) > 100_000:
                _PLANS.clear()
            hit = _PLANS[id(p)] = (p, _plan(p, freq))
        plans.append(hit[1])
    filters: dict[str, list[int]] = {}
    pattern_filters: dict[Alt, list[int]] = {}
    for order, (keys, patterns, _, _) in enumerate(plans):
        for key in keys:
            filters.setdefault(key, []).append(order)
        for alt in patterns:
            pattern_filters.setdefault(alt, []).append(order)
    return PhraseSet(
        phrases=ps,
        starts=tuple(plan[2] for plan in plans),
        key_sets=tuple(plan[3] for plan in plans),
        filters={k: tuple(dict.fromkeys(v)) for k, v in filters.items()},
        filter_keys=frozenset(filters),
        pattern_filters=tuple((alt, tuple(dict.fromkeys(v))) for alt, v in sorted(pattern_filters.items())),
    )


def _any_word_matches(alt: Alt, flat_text: str) -> bool:
    """Whether a word of the reply ends with a suffix (and is longer) or starts with a prefix."""
    mode, value = alt
    if mode == "f":  # a word ending with value that is not value itself
        return flat_text.count(value + "\n") > flat_text.count("\n" + value + "\n")
    return "\n" + value in flat_text


def candidates(ps: PhraseSet, reply: Reply) -> list[int]:
    """The phrases (by order) that may occur in the reply: a necessary condition, never a match."""
    known = reply.candidates.get(id(ps))
    if known is None:
        known = reply.candidates[id(ps)] = _candidates(ps, reply)
    return known


def _candidates(ps: PhraseSet, reply: Reply) -> list[int]:
    found: set[int] = set()
    keys = reply.keys
    if ps.filters:
        for key in ps.filter_keys.intersection(keys):
            found.update(ps.filters[key])
    if ps.pattern_filters:
        norm = reply.norm
        for alt, orders in ps.pattern_filters:
            # the affix occurring anywhere in the text is necessary (one C substring search; the reply's
            # word list is built only when it does)
            if alt[1] in norm and _any_word_matches(alt, reply.flat_text):
                found.update(orders)
    out = []
    for order in sorted(found):
        p, key_set = ps.phrases[order], ps.key_sets[order]
        if len(key_set - keys) <= p.misses if key_set is not None else _may_occur(p, keys):
            if not p.stems or _stems_occur(p, reply.flat_text):
                out.append(order)
    return out


def _stems_occur(p: Phrase, flat_text: str) -> bool:
    """Whether all but p.misses of p's long native tokens have a reply word starting with their stem (a
    3-character key says little: ఇవ్వను and ఇవ్వబడింది share ఇవ్)."""
    absent = 0
    for stems in p.stems:
        if not any(s in flat_text for s in stems):
            absent += 1
            if absent > p.misses:
                return False
    return True


def _may_occur(p: Phrase, keys: AbstractSet[str]) -> bool:
    """Whether the keys of all but p.misses of p's literal tokens are present (cheap, before matching)."""
    absent = 0
    for req in p.required:
        if keys.isdisjoint(req):
            absent += 1
            if absent > p.misses:
                return False
    return True


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
                    positions = [i for i, t in enumerate(tokens) if _alt_match(pattern, t)]
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
