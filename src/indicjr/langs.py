"""Closed sets of the benchmark: languages and their scripts, tracks, subsets, families, modes, orthographies."""

from __future__ import annotations

from enum import StrEnum


class Lang(StrEnum):
    BN = "bn"
    GU = "gu"
    HI = "hi"
    KN = "kn"
    ML = "ml"
    MR = "mr"
    NE = "ne"
    OR = "or"
    PA = "pa"
    TA = "ta"
    TE = "te"
    UR = "ur"


LANGS: tuple[str, ...] = tuple(lang.value for lang in Lang)

LANG_NAMES: dict[str, str] = {
    "bn": "Bengali",
    "gu": "Gujarati",
    "hi": "Hindi",
    "kn": "Kannada",
    "ml": "Malayalam",
    "mr": "Marathi",
    "ne": "Nepali",
    "or": "Odia",
    "pa": "Punjabi",
    "ta": "Tamil",
    "te": "Telugu",
    "ur": "Urdu",
    "en": "English",
}

# Script of each language and its Unicode blocks (the native-script check of the benchmark).
SCRIPT_OF: dict[str, str] = {
    "bn": "Bengali",
    "gu": "Gujarati",
    "hi": "Devanagari",
    "kn": "Kannada",
    "ml": "Malayalam",
    "mr": "Devanagari",
    "ne": "Devanagari",
    "or": "Odia",
    "pa": "Gurmukhi",
    "ta": "Tamil",
    "te": "Telugu",
    "ur": "Arabic",
}

SCRIPT_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "Bengali": ((0x0980, 0x09FF),),
    "Gujarati": ((0x0A80, 0x0AFF),),
    "Devanagari": ((0x0900, 0x097F), (0xA8E0, 0xA8FF)),
    "Kannada": ((0x0C80, 0x0CFF),),
    "Malayalam": ((0x0D00, 0x0D7F),),
    "Odia": ((0x0B00, 0x0B7F),),
    "Gurmukhi": ((0x0A00, 0x0A7F),),
    "Tamil": ((0x0B80, 0x0BFF),),
    "Telugu": ((0x0C00, 0x0C7F),),
    "Arabic": ((0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
}


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
