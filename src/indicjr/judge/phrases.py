"""Lexicon entries compiled into token patterns (the lexicon grammar's `a|b`, `*suffix`, `prefix*`, `~`).

Why a module of its own: compiling is done once per entry and per process, and it is where the grammar's
rules live — which token may be the missing one, which romanized words must be typed as listed, how tight
a verb group is. The scanner (matcher.py) only executes what is decided here. Compiled token patterns are
interned (`_compile_tok`), so phrases sharing a word share one CTok and the scanner finds its positions in
a reply once for all of them.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from indicjr.judge.normalize import normalize, roman_skeleton
from indicjr.judge.tokens import KEY_CHARS

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
SHORT_SKELETON = 2  # a one-word romanized refusal with a skeleton this short is matched by exact spelling


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
    # the grammar lists its verb forms: no inflectional slack (Bengali "manbo", I will obey, must not match
    # "manben", they will obey), mode "e"
    return ("e" if min_skeleton > 2 else "n", alt)


def _is_negation(ptok: PTok, negations: frozenset[str]) -> bool:
    """Whether a phrase token is (or ends in) one of the language's negation markers."""
    suffixes, forms = _negation_forms(negations)
    return any(value.endswith(suffixes) or value in forms for _, value in ptok)


@functools.lru_cache(maxsize=64)
def _negation_forms(negations: frozenset[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """A language's negation markers as the suffixes (`*suffix`) a token may end in and the forms it may
    equal (each marker as written and its chat skeleton): computed once per language, not once per
    token and marker (the lexicons' load time went mostly to roman_skeleton here)."""
    suffixes = tuple(neg[1:] for neg in negations if neg.startswith("*"))
    return suffixes, frozenset(negations) | {roman_skeleton(neg) for neg in negations}


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
    persons: frozenset[str] = frozenset(),
    entry: int = 0,
) -> Phrase:
    """One lexicon entry as token patterns; `exact_latin` for English entries (no chat skeletons).

    A plain phrase of four or more tokens may miss one token, but never its last one (the verb, where
    Dravidian negation is a suffix) nor a negation marker from `negations` (words, or `*suffix`): Hindi "I can
    help you with this" must not match "I cannot help you with this". Nor the
    first person (`persons`, the grammar's `self` words): a refusal is the speaker's own act on the request;
    without its "I" the same words state a fact about the world (Bengali "I cannot do it" must not match
    "no human can do it"; both natively in tests/data/judge_rules/refusal_rules_v3.yaml)."""
    toks: list[PTok] = []
    # The grammar's Latin words are typed as listed unless their chat skeleton is long enough to be safe
    # ("mudiyala" and "mudhal" share "mdl"; "helalla" and "hala" share "hl"). Their native verb forms match as
    # written, as do a request's imperatives (an imperative differs from other forms in its last letter only).
    grammar = any(k in source for k in (":negated_act", ":unable", ":impersonal", ":policy", ":request_verb"))
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
    core = frozenset(
        k
        for k, t in enumerate(toks)
        if k == len(toks) - 1 or _is_negation(t, negations) or (t is not GAP and any(v in persons for _, v in t))
    )
    return Phrase(
        text=text,
        tokens=tuple(toks),
        source=source,
        misses=misses,
        core=core,
        # the grammar's verb groups are tight: hi "nahin kar sakta" (cannot do), not "nahin, patra bankar
        # batata" (no, telling it in character)
        step=2 if any(k in source for k in (":negated_act", ":unable", ":impersonal")) else 3,
        clause_bound="," not in text and "\u060c" not in text,  # comma, Arabic comma
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
