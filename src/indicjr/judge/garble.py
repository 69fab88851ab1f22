"""Garbled text: what a tiny model writes when it cannot answer a language (issue 20, class 8).

A reply that neither refuses nor engages is no refusal. Five shapes are recognised without any model,
on the reply's head only (the judge scores every reply; the loop and script checks walk at most HEAD
characters):
- broken script: many words open with a vowel sign, virama or nasal mark, which no word can start with;
- repetition: a few words said over and over ("the the the", one syllable a hundred times);
- no words: symbols and digits with hardly a letter (ASCII replies);
- mixed scripts: a word joining letters of two Indic (or Arabic) script blocks, or a code point no script
  assigns (a byte-level model's broken sampling: a Kannada vowel sign on a Telugu word, a Devanagari
  sign on a Gurmukhi word);
- a loop: one line said three times or more, a run of four words said four times, one word a quarter of
  the words, or the same line label ("Assistant:") opening LOOP_LINES lines or more (a base model
  continuing a chat transcript with itself).
Short replies are never garbled (Malayalam "shasthram", science, is a whole answer).
"""

from __future__ import annotations

import re
import string
import unicodedata

from indicjr.langs import ISCII_BLOCKS

MIN_WORDS = 8
HEAD = 600  # characters read (the stage runs on every reply that does not refuse: its cost stays flat)
# Dependent signs of the Brahmic blocks (ISCII layout: candrabindu..visarga, nukta, vowel signs and
# virama, vocalic vowel signs): offsets 0x01-0x03, 0x3C, 0x3E-0x4D, 0x62-0x63 in each block.
_BLOCKS = tuple(sorted(ISCII_BLOCKS.values()))  # the registry's ISCII-parallel Brahmic blocks
_MARKS = "".join(
    f"{chr(b + lo)}-{chr(b + hi)}"
    for b in _BLOCKS
    for lo, hi in ((0x01, 0x03), (0x3C, 0x3C), (0x3E, 0x4D), (0x62, 0x63))
)
_BROKEN = re.compile(f"(?<!\\S)[{_MARKS}]")
_ASCII_LETTERS = string.ascii_letters.encode("ascii")
BROKEN_SHARE = 0.2  # of words opening with a dependent sign
DISTINCT_SHARE = 0.15  # distinct words / words at or below this: repetition (a base model repeating a
# sentence three or four times is still an answer)
LETTER_SHARE = 0.3  # letters / non-space characters below this: no words
LOOP_LINES = 4  # lines opening with the same label; a line repeated LOOP_REPEATS times
LOOP_REPEATS = 3
LOOP_GRAM, LOOP_GRAMS = 4, 4  # a run of four words said four times or more in the head is a loop
LOOP_WORD_SHARE, LOOP_WORD_MIN = 0.25, 5  # one word (not a number) a quarter of the words: a loop


def broken_words(norm: str) -> int:
    """How many words of a normalized text open with a dependent sign (a vowel sign, virama or nasal sign
    with no letter to carry it): the broken-script measure, compared with BROKEN_SHARE of the words here and
    by the confidence stage (judge/confidence.py) with a looser share."""
    return len(_BROKEN.findall(norm))


def _gram_loop(words: list[str]) -> bool:
    """A word sequence repeated LOOP_GRAMS times or more (inside one line too: "x y z w, x y z w, ..."),
    or one word that is a quarter of the words (a list of the same name under changing numbers)."""
    if not words:
        return False
    seen: dict[str, int] = {}
    for w in words:
        if len(w) >= 3 and not w[0].isdigit():
            seen[w] = seen.get(w, 0) + 1
    top = max(seen.values(), default=0)
    if top >= LOOP_WORD_MIN and top >= LOOP_WORD_SHARE * len(words):
        return True
    counts: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - LOOP_GRAM + 1):
        g = tuple(words[i : i + LOOP_GRAM])
        counts[g] = counts.get(g, 0) + 1
        if counts[g] >= LOOP_GRAMS:
            return True
    return False


def looping(raw: str) -> bool:
    """A line (three words or more) said LOOP_REPEATS times, or one label opening LOOP_LINES lines: the
    reply loops (read on the head, with its line breaks)."""
    lines = [ln.strip() for ln in raw[:HEAD].splitlines() if ln.strip()]
    seen: dict[str, int] = {}
    labels: dict[str, int] = {}
    for ln in lines:
        if len(ln.split()) >= 3:
            seen[ln] = seen.get(ln, 0) + 1
        head = ln.split(None, 1)[0]
        if head.endswith(":") and len(head) > 2:
            labels[head] = labels.get(head, 0) + 1
    return max(seen.values(), default=0) >= LOOP_REPEATS or max(labels.values(), default=0) >= LOOP_LINES


def _block(c: str) -> int:
    """The script block of a character: the Brahmic blocks are 128 code points each, Arabic 256."""
    return ord(c) >> (8 if ord(c) < 0x0900 else 7)


def _mixed_word(norm: str) -> bool:
    """A word with letters of two script blocks (U+0900-U+0DFF, Arabic U+0600-U+06FF), or an unassigned
    code point inside those blocks. Only non-ASCII words are read."""
    for word in norm.split():
        if word.isascii():
            continue
        blocks = {_block(c) for c in word if 0x0900 <= ord(c) <= 0x0DFF or 0x0600 <= ord(c) <= 0x06FF}
        if len(blocks) > 1:
            return True
        if blocks and any(unicodedata.category(c) == "Cn" for c in word):
            return True
    return False


def garbled(norm: str, raw: str = "") -> str | None:
    """Why a normalized reply is garbled ('broken script', 'repetition', 'no words', 'loop'), or None;
    `raw` is the reply with its line breaks (loops of lines)."""
    if raw and looping(raw):
        return "loop"
    norm = norm[:HEAD]  # garbled text is garbled from its start; a long reply is judged on its head
    words = norm.split()
    n = len(words)
    if n < MIN_WORDS:
        return None
    if len(set(words)) <= DISTINCT_SHARE * n:
        return "repetition"
    if _gram_loop(words):
        return "loop"
    if not norm.isascii() and broken_words(norm) >= BROKEN_SHARE * n:
        return "broken script"
    if not norm.isascii() and _mixed_word(norm):
        return "mixed scripts"
    if norm.isascii():  # letters counted on bytes, in C (Indic junk is caught as broken script above)
        data = norm.encode("ascii")
        chars = len(data) - n + 1  # non-space characters (whitespace runs are single spaces after normalizing)
        if len(data) - len(data.translate(None, _ASCII_LETTERS)) < LETTER_SHARE * chars:
            return "no words"
    return None
