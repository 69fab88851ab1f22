"""The structure of a released prompt, read from the text alone.

The release tags almost nothing about a prompt's parts, so the importer and the detectors recover them
from its layout, which is regular across all files:

    <wrapper lines>\n<passage line>\n\n<task line>[\n\n<JSON-contract paragraph>]

A passage is a line of at least PASSAGE_MIN_CHARS characters (the paper's cores are 400-1200 characters
and no wrapper or task line comes close); every other line before the task paragraph is wrapper.
Orthography, where the release does not tag it, is inferred from the Latin/native kind of each line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from indicjr.cases.letters import letter_scripts
from indicjr.langs import SCRIPT_OF

PASSAGE_MIN_CHARS = 200
FOREIGN_SHARE = 0.05  # share of letters in a script foreign to the case before it counts as a defect
PLACEHOLDER_RE = re.compile(r"\u2026|\.\.\.")
_CJK_PUNCT_RE = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff5b-\uff65]")


def is_contract_paragraph(paragraph: str) -> bool:
    """The FREE clean prompts end with the JSON contract the JSON prompts were never given."""
    return '"decision"' in paragraph and "REFUSE" in paragraph and "COMPLY" in paragraph


def split_contract(text: str) -> tuple[str, bool]:
    """(text without its contract paragraphs, whether one was present)."""
    paragraphs = text.split("\n\n")
    kept = [p for p in paragraphs if not is_contract_paragraph(p)]
    if len(kept) == len(paragraphs):
        return text, False
    return "\n\n".join(kept).rstrip(), True


@dataclass(frozen=True, slots=True)
class Structure:
    """A prompt cut into its parts (contract already removed)."""

    wrapper: tuple[str, ...]
    passage: str | None
    task: str


def parse_structure(text: str) -> Structure:
    """Wrapper lines, passage and task paragraph of a prompt (see the module docstring)."""
    body, _, task = text.rpartition("\n\n")
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    passage_lines = [ln for ln in lines if len(ln) >= PASSAGE_MIN_CHARS]
    wrapper = tuple(ln for ln in lines if len(ln) < PASSAGE_MIN_CHARS)
    return Structure(wrapper=wrapper, passage="\n".join(passage_lines) or None, task=task.strip())


def line_kind(line: str) -> str | None:
    """'latin' or 'native' by the majority of the line's letters; None for a line without letters."""
    counts = letter_scripts(line)
    latin = counts.get("Latin", 0)
    native = sum(n for s, n in counts.items() if s not in ("Latin", "Other"))
    if latin == native == 0:
        return None
    return "latin" if latin >= native else "native"


def infer_orthography(text: str, *, english_wrapper: bool = False) -> str:
    """native | romanized | mixed from line kinds: Latin lines then native → romanized; interleaved → mixed.

    The romanized rows of the release keep their task line native, so one Latin→native switch still
    means romanized, unless the passage is native or the wrapper is known to be English (cross mode):
    then the Latin lines are an English wrapper around a native core. Two or more switches mean the
    line-by-line mixing the paper calls mixed.
    """
    kinds = [k for k in (line_kind(ln) for ln in text.splitlines()) if k]
    if "latin" not in kinds:
        return "native"
    if "native" not in kinds:
        return "romanized"
    switches = sum(1 for a, b in pairwise(kinds) if a != b)
    if switches >= 2:
        return "mixed"
    passage = parse_structure(text).passage
    if english_wrapper or (passage is not None and line_kind(passage) == "native"):
        return "native"
    return "romanized"


def foreign_script(text: str, lang: str, *, also: Iterable[str] = (), need_native: bool = True) -> str | None:
    """Why the text is (partly) in a script other than the case's, or None when it is not.

    Latin is always allowed (English wrappers, romanization, names in passages); `also` adds the
    languages whose script a row may legitimately carry (the E2 transfer source). `need_native` flags
    a prompt with no letter of the case's script at all (English prompts filed under Urdu).
    """
    if _CJK_PUNCT_RE.search(text):
        return "CJK punctuation"
    counts = letter_scripts(text)
    total = sum(counts.values())
    if not total:
        return None
    allowed = {SCRIPT_OF[lang], "Latin", *(SCRIPT_OF[x] for x in also if x in SCRIPT_OF)}
    foreign = Counter({s: n for s, n in counts.items() if s not in allowed})
    if foreign and sum(foreign.values()) / total >= FOREIGN_SHARE:
        script, _ = max(sorted(foreign.items()), key=lambda kv: kv[1])
        return f"{script} text in a {lang} case"
    if need_native and not counts.get(SCRIPT_OF[lang]):
        return f"no {SCRIPT_OF[lang]} text at all (Latin only)"
    return None
