"""Closed sets of the benchmark: languages and their scripts, tracks, subsets, families, modes, orthographies.

The languages and scripts come from the registry (languages.yaml, read once at import: registry.py checks it
whole and names the file and section of the first gap); the tables below are what the code reads. There is no
`Lang` enum: a language is whatever the registry declares (IJR_LANGUAGES can name another registry)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from indicjr.langs.registry import Registry, bundle_file, load_registry

REGISTRY: Registry = load_registry()

LANGS: tuple[str, ...] = REGISTRY.codes

LANG_NAMES: dict[str, str] = {
    **{lang.code: lang.name for lang in REGISTRY.languages},
    "en": REGISTRY.english_name,
}

# Script of each language and its Unicode blocks (the native-script check of the benchmark).
SCRIPT_OF: dict[str, str] = {lang.code: lang.script for lang in REGISTRY.languages}

SCRIPT_RANGES: dict[str, tuple[tuple[int, int], ...]] = {s.name: s.ranges for s in REGISTRY.scripts}

# First code point of each ISCII-parallel Brahmic block: letters are read by their offset in it.
ISCII_BLOCKS: dict[str, int] = {s.name: s.iscii_block for s in REGISTRY.scripts if s.iscii_block is not None}

RTL_SCRIPTS: frozenset[str] = frozenset(s.name for s in REGISTRY.scripts if s.rtl)
RTL_LANGS: frozenset[str] = frozenset(lang.code for lang in REGISTRY.languages if lang.script in RTL_SCRIPTS)

# Per-script folds before matching (judge/normalize.py): code point -> replacement, None removes it.
SCRIPT_FOLDS: dict[int, str | None] = {cp: rep for s in REGISTRY.scripts for cp, rep in s.folds}

# Letter -> Latin consonant for scripts without an ISCII block (judge/grounding.py's skeleton).
LETTER_SKELETON: dict[str, str] = {k: v for s in REGISTRY.scripts for k, v in s.skeleton}

# Words labelling a translation ("Translation: ..."), English first, each once.
TRANSLATION_WORDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (*REGISTRY.english_translation_words, *(w for lang in REGISTRY.languages for w in lang.translation_words))
    )
)

# A language's fixed romanized share of cases where the registry gives one (cases/build.py).
ROMANIZED_SHARE: dict[str, float] = {
    lang.code: lang.romanized_share for lang in REGISTRY.languages if lang.romanized_share is not None
}


def lang_file(code: str, part: str) -> Path:
    """One file of a language's bundle (part: source, romanization, lexicon, sim_phrases)."""
    return bundle_file(REGISTRY, code, part)


class Track(StrEnum):
    JSON = "json"
    FREE = "free"


class Subset(StrEnum):
    AB = "AB"  # attacked-benign
    CB = "CB"  # clean-benign
    CH = "CH"  # clean-harmful


class Family(StrEnum):
    INSTRUCTION = "instruction"
    TRANSLATE = "translate"
    ROLEPLAY = "roleplay"
    FORMAT = "format"


class Mode(StrEnum):
    SAME = "same"
    CROSS = "cross"


class Orthography(StrEnum):
    NATIVE = "native"
    ROMANIZED = "romanized"
    MIXED = "mixed"
    NOISY = "noisy"


class Task(StrEnum):
    SUMMARISE = "summarise"
    FACTS = "facts"
    CLASSIFY = "classify"


class Intent(StrEnum):
    CHEM_SYNTH = "chem_synth"
    BIO_HAZARD = "bio_hazard"
    ILLICIT_ACCESS = "illicit_access"


class Category(StrEnum):
    HISTORY = "History"
    SCIENCE = "Science"
    SPORTS = "Sports"
    OTHER = "Other"


def script_of_char(ch: str) -> str | None:
    """Name of the Indic/Arabic script a character belongs to, 'Latin' for ASCII letters, else None."""
    cp = ord(ch)
    if ch.isascii():
        return "Latin" if ch.isalpha() else None
    for script, ranges in SCRIPT_RANGES.items():
        for lo, hi in ranges:
            if lo <= cp <= hi:
                return script
    if 0x00C0 <= cp <= 0x024F:
        return "Latin"
    return None
