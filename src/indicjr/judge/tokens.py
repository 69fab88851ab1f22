"""A reply as the phrase matcher sees it: its normalized text, its word keys, its positioned tokens.

Why a module of its own: every reply the judge scores is reduced here once, and the cost of that reduction
is most of the judge's cost. The reduction is lazy in two steps. The cheap step, for every reply, is the
set of its words (one C-level `findall`) and their anchor keys (a Latin word's chat skeleton, a native
word's first KEY_CHARS characters, memoized across replies): the phrase filters (phraseset.py) need only
those. The dear step — tokens with offsets, sentence and clause numbers, and the index from key to token
positions — runs only for a reply in which some phrase may occur (matcher.py).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from indicjr.judge.normalize import normalize, roman_skeleton
from indicjr.langs.punctuation import CLAUSE_MARKS, REPLY_SENTENCE_END, char_class

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


_SKELETONS: dict[str, str] = {}


def _skeleton(word: str) -> str:
    """roman_skeleton, memoized: chat words repeat across replies (bounded cache)."""
    sk = _SKELETONS.get(word)
    if sk is None:
        if len(_SKELETONS) > 200_000:
            _SKELETONS.clear()
        sk = _SKELETONS[word] = roman_skeleton(word) or word
    return sk


# English function words that no chat spelling of an Indic word is typed as: a romanized lexicon entry's
# chat skeleton never matches them (mr "suchana", instruction, and "such" share "sch"; ta "aabathu", danger,
# and "about" share "bt": a small model's English chat read as talk about the request, or as a warning).
# English entries (typed as listed) still match them. Words that are also chat spellings (to, is, me, do,
# so, us, he, hi, the, then, has, or, she, be, am, in, main) are left out. Also read by script.py.
ENGLISH_ONLY = frozenset(
    "about above after again also are because been before being between both but by could did does doing "
    "during each from further have having here how if into it it's its itself just only other over should "
    "some such than that their them themselves there these they this those through too under until very was "
    "we were what when where which while who whom why will with would you your yours".split()
)


# One pass finds tokens, sentence ends (group 1) and clause marks (group 2), so no per-token search for a
# sentence break.
# A token never starts or ends with an apostrophe or hyphen (Punjabi "'te" -> "te", "can't" stays whole).
_WORDCH = r"[^\s.,;:!?\"()\[\]{}*_/\\|'\-]"
_WORD = rf"{_WORDCH}+(?:['\-]+{_WORDCH}+)*"
_SCAN = re.compile(rf"({REPLY_SENTENCE_END.pattern})|({char_class(CLAUSE_MARKS)})|({_WORD})")
_WORDS = re.compile(_WORD)


# word -> its anchor key: its chat skeleton (Latin) or its first KEY_CHARS characters. Words repeat
# across replies, so a key is computed once per word (`__missing__`) and looked up in C
# (`map(_KEYS.__getitem__, words)`, one pass over the words).
class _KeyMemo(dict[str, str]):
    def __missing__(self, word: str) -> str:
        key = self[word] = _skeleton(word) if word.isascii() else word[:KEY_CHARS]
        return key


_KEYS = _KeyMemo()


def _keys_of(words: frozenset[str]) -> frozenset[str]:
    if len(_KEYS) > 300_000:  # bounded: a long run's vocabulary keeps growing
        _KEYS.clear()
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
            key = _SKELETONS.get(raw) or _skeleton(raw)
            flat = raw.replace("'", "") if "'" in raw else raw
            # an English function word keeps its key (English entries find it) but no skeleton to match
            sk = "=" + raw if raw in ENGLISH_ONLY else key
            tok = new(Token, (sk, m.start(3), m.end(3), True, flat, sent, clause))
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
    positioned tokens only when a phrase may occur.

    Plain slots with hand-made laziness rather than functools.cached_property, which takes a lock on
    every read before Python 3.12 (about 2% of the judge's time in a profile)."""

    __slots__ = ("_flat", "_scanned", "candidates", "keys", "norm", "words")

    def __init__(self, norm: str, words: frozenset[str] | None = None) -> None:
        self.norm = norm
        self.words: frozenset[str] = frozenset(_WORDS.findall(norm)) if words is None else words
        self.keys: frozenset[str] = _keys_of(self.words)  # every judged reply is filtered by its keys
        self.candidates: dict[int, list[int]] = {}  # id(PhraseSet) -> candidates(), asked up to three times
        self._flat: str | None = None
        self._scanned: tuple[tuple[Token, ...], dict[str, list[int]]] | None = None

    def unescaped_words(self) -> Reply | None:
        """A word set holding every word of any JSON string in this reply, decoded: a necessary-condition
        stand-in for the string (candidates() only grows with the words), or None when it cannot be had.

        A JSON escape is a backslash and one character. In the raw text the backslash ends a word, so `\\"`, `\\\\` and
        `\\/` leave the words as they are, while `\\n`, `\\r`, `\\t` and `\\f` glue their letter to the next word
        ("nbharat" for "\\nbharat", in Devanagari in tests/data/judge_real/rows/hi.jsonl): adding each word less its
        first letter covers those (less a leading apostrophe or hyphen, which cannot start a word). `\\u` (with its
        four hex digits) and `\\b` decode to characters that appear nowhere in the raw text, and a backslash before
        anything else (prose, or a letter a combining mark composed with) is no JSON escape: no stand-in then."""
        if _NOT_SIMPLE_ESCAPE.search(self.norm):
            return None
        glued = {w[1:].lstrip("'-") for w in self.words if len(w) > 1 and w[0] in "nrtf"}
        glued.discard("")
        # the raw text stays the stand-in's text: an affix pattern's filter looks for its affix in it (the
        # affix of a glued word is still a substring there); an empty text hid every affix phrase
        return Reply(self.norm, self.words | glued) if glued else self

    @property
    def flat_text(self) -> str:
        """The words as prefix/suffix patterns see them (Latin apostrophes dropped), one per line and
        framed by newlines, so that a pattern test is a substring count in C."""
        flat = self._flat
        if flat is None:
            words = self.words
            if "'" in self.norm and any("'" in w for w in words):
                words = frozenset(w.replace("'", "") if w.isascii() else w for w in words)
            flat = self._flat = "\n" + "\n".join(words) + "\n"
        return flat

    def _scan(self) -> tuple[tuple[Token, ...], dict[str, list[int]]]:
        scanned = self._scanned
        if scanned is None:
            scanned = self._scanned = _scan(self.norm)
        return scanned

    @property
    def tokens(self) -> tuple[Token, ...]:
        return self._scan()[0]

    @property
    def idx(self) -> dict[str, list[int]]:
        return self._scan()[1]


def reply_of(text: str) -> Reply:
    return Reply(normalize(text))


def _anchor(tok: str) -> str:
    return tok if tok.isascii() else tok[:KEY_CHARS]


def index(tokens: tuple[Token, ...]) -> dict[str, list[int]]:
    idx: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        idx.setdefault(_anchor(t.text), []).append(i)
    return idx
