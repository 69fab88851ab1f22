"""Sentence and clause punctuation of the benchmark's scripts: the one definition that the case builder,
the simulator and the judge split text by.

A sentence ends at . ! ? or a script's own full stop or question mark: the danda (U+0964) and double danda
(U+0965) of the Brahmic scripts, the Arabic full stop (U+06D4) and Arabic question mark (U+061F) of Urdu.
A clause ends at , ; : or the Arabic comma (U+060C) and Arabic semicolon (U+061B).

The judge reads normalized text, where the registry folds the dandas, the Arabic full stop and question
mark to their ASCII forms (languages.yaml, `fold`); its patterns list the native marks all the same, so that
a registry without those folds splits a reply where the shipped one does.
"""

from __future__ import annotations

import re

# . ! ? danda, double danda, Arabic full stop, Arabic question mark
SENTENCE_MARKS = ".!?\u0964\u0965\u06d4\u061f"
# , ; : Arabic comma, Arabic semicolon
CLAUSE_MARKS = ",;:\u060c\u061b"


def char_class(*chars: str) -> str:
    """A regex character class of the given characters, each escaped: `char_class(SENTENCE_MARKS, "\\n")`."""
    return "[" + "".join(re.escape(c) for c in dict.fromkeys("".join(chars))) + "]"


# Where a sentence of a model's reply ends: a sentence mark or a line break (a list item, a heading and a
# line of a transcript are sentences of their own, stopped or not).
REPLY_SENTENCE_END = re.compile(char_class(SENTENCE_MARKS, "\n"))

# The whitespace after a sentence mark in running text (a passage, a case's message): where it splits
# into sentences. A line break without a mark does not split it.
SENTENCE_BREAK = re.compile(rf"(?<={char_class(SENTENCE_MARKS)})\s+")
