"""Words of the simulated model: its phrase banks, and answers taken from the prompt itself.

Phrase banks (docs/DATA_FORMAT.md section 3) are the simulator's own: it never reads the judge's lexicons. A
registered language's bank is its bundle's `sim_phrases` file (phrases/<lang>.yaml here, or sim_phrases.yaml in
the folder the registry's `bundle` names); English's is phrases/en.yaml. They are loaded lazily, once; a
language without a bank falls back to English and is noted once in `FALLBACK_LANGS` (and the debug log), never
as a Python warning.
"""

from __future__ import annotations

import functools
import logging
import random
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from indicjr.errors import DataFileError
from indicjr.langs import LANGS, lang_file
from indicjr.targets.sim.sentences import split_sentences
from indicjr.yamlio import load_yaml

PHRASES_DIR = Path(str(resources.files("indicjr.targets.sim") / "phrases"))
DECISIONS_FILE = Path(str(resources.files("indicjr.targets.sim") / "profiles" / "_localized_decisions.yaml"))
BANK_KEYS = (
    "refuse",
    "comply_open",
    "partial_open",
    "harmful_body",
    "justification_refuse",
    "justification_comply",
)
CATEGORIES = ("History", "Science", "Sports", "Other")
FALLBACK_LANGS: set[str] = set()  # languages answered from the English bank because theirs is missing

_log = logging.getLogger("indicjr.targets.sim")
_CLAUSE = re.compile(r"[,\u060c;]\s+")  # comma, Arabic comma (U+060C), semicolon
# "...: History, Science, Sports or Other." in any language (the classify task line lists four names).
# \uff1a fullwidth colon, \u060c Arabic comma, \u0964 danda, \u06d4 Arabic full stop.
_CLASSIFY = re.compile(
    r"[:\uff1a]\s*([^,\u060c\n]+?)\s*[,\u060c]\s*([^,\u060c\n]+?)\s*[,\u060c]\s*(\S+)\s+\S+\s+([^\s.\u0964\u06d4?!]+)"
)


@dataclass(frozen=True, slots=True)
class Bank:
    """One language's phrases: key -> (native, romanized) tuples of sentences."""

    lang: str
    phrases: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]

    def pick(self, key: str, romanized: bool, rng: random.Random) -> str:
        options = self.phrases[key][1 if romanized else 0]
        return options[int(rng.random() * len(options))]


def parse_bank(path: Path) -> Bank:
    """One phrase bank file, checked: every key of BANK_KEYS with non-empty native and romanized sentences."""
    try:
        d = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataFileError(f"{path}: cannot read YAML: {str(exc).splitlines()[0]}") from exc
    phrases: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for key in BANK_KEYS:
        entry = (d or {}).get(key) or {}
        pair = []
        for script in ("native", "romanized"):
            items = entry.get(script)
            if not isinstance(items, list) or not items or not all(isinstance(s, str) and s.strip() for s in items):
                raise DataFileError(f"{path}: {key}.{script} must be a non-empty list of sentences")
            pair.append(tuple(" ".join(s.split()) for s in items))
        phrases[key] = (pair[0], pair[1])
    return Bank(lang=str(d.get("lang", path.stem)), phrases=phrases)


def bank_path(lang: str, phrases_dir: Path | None = None) -> Path:
    """Where `lang`'s phrase bank is: `phrases_dir`/<lang>.yaml when given (tests), a registered language's
    bundle file (langs.lang_file, as the judge finds its lexicon), else phrases/<lang>.yaml (English)."""
    if phrases_dir is None and lang in LANGS:
        return lang_file(lang, "sim_phrases")
    return (phrases_dir or PHRASES_DIR) / f"{lang}.yaml"


@functools.cache
def load_bank(lang: str, phrases_dir: Path | None = None) -> Bank:
    """The phrase bank of `lang`, or the English one (noted once) when `lang` has none yet."""
    path = bank_path(lang, phrases_dir)
    if path.is_file():
        return parse_bank(path)
    if lang not in FALLBACK_LANGS:
        FALLBACK_LANGS.add(lang)
        _log.debug("simulated model: no phrase bank for %r at %s; answering in English", lang, path)
    return load_bank("en", phrases_dir)


@functools.cache
def decision_words(path: Path = DECISIONS_FILE) -> dict[str, dict[str, tuple[str, str]]]:
    """lang -> decision -> (native word, romanized word), for the localized-decision malformed contract."""
    d = load_yaml(path.read_text(encoding="utf-8"))
    return {lang: {k: (str(v[0]), str(v[1])) for k, v in row.items()} for lang, row in d.items()}


def localized_decision(lang: str, decision: str, romanized: bool) -> str:
    words = decision_words()
    row = words.get(lang, words["en"])
    pair = row.get(decision, row["REFUSE"])
    return pair[1 if romanized else 0]


@functools.lru_cache(maxsize=8192)
def passage_sentences(user_text: str, lang: str | None = None) -> tuple[str, ...]:
    """Sentences of the passage in a prompt (its longest line), in the prompt's own script."""
    lines = [ln.strip() for ln in user_text.split("\n") if ln.strip()]
    if not lines:
        return ()
    return split_sentences(max(lines, key=len), lang)  # never at an initial: sentences.py


@functools.lru_cache(maxsize=8192)
def classify_options(user_text: str) -> tuple[str, ...] | None:
    """The four category names as the prompt's classify line lists them (History, Science, Sports, Other)."""
    found = None
    for line in user_text.split("\n"):
        m = _CLASSIFY.search(line)
        if m:
            found = tuple(g.strip() for g in m.groups())
    return found


def _short(text: str, words: int = 14) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words])


def facts(user_text: str, lang: str | None = None) -> str:
    """Five numbered short items from the passage's sentences (clauses when sentences run short)."""
    items = list(passage_sentences(user_text, lang))
    if len(items) < 5:
        items = [c for s in items for c in _CLAUSE.split(s) if c.strip()] or items
    items = items[:5] or ["-"]
    return "\n".join(f"{i}. {_short(s)}" for i, s in enumerate(items, 1))


def summary(user_text: str, rng: random.Random, lang: str | None = None) -> str:
    sents = passage_sentences(user_text, lang)
    if not sents:
        return "-"
    return sents[0] if len(sents) < 2 or rng.random() < 0.7 else sents[1]


def category_word(user_text: str, category: str | None, english_rate: float, rng: random.Random) -> str:
    cat = category if category in CATEGORIES else "Other"
    options = classify_options(user_text)
    if options is None or rng.random() < english_rate:
        return cat
    return options[CATEGORIES.index(cat)]


def answer(
    task: str | None,
    user_text: str,
    category: str | None,
    english_rate: float,
    rng: random.Random,
    *,
    lang: str | None = None,
) -> str:
    """The benign task's answer, built from the prompt (so it is in the prompt's language and script)."""
    if task == "facts":
        return facts(user_text, lang)
    if task == "classify":
        return category_word(user_text, category, english_rate, rng)
    return summary(user_text, rng, lang)


_OBFUSCATIONS = (
    lambda a, b, c: f"{a} {b} {c}",
    lambda a, b, c: f"{a}-{b}-{c}".lower(),
    lambda a, b, c: f"{a}\u2013{b}\u2013{c}",
    lambda a, b, c: f"{a} - {b} - {c}",
    lambda a, b, c: f"{a}-{b}-{c}".upper(),
    lambda a, b, c: f"{a}_{b}_{c}",
)


def obfuscate(canary: str, rng: random.Random) -> str:
    """The canary with its separators or case changed (a leak a naive substring check would miss)."""
    parts = canary.split("-")
    if len(parts) != 3:
        return " ".join(canary)
    return _OBFUSCATIONS[int(rng.random() * len(_OBFUSCATIONS))](*parts)
