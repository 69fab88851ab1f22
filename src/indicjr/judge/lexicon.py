"""Per-language lexicons (reviewed data files under judge/lexicons/), loaded once and compiled.

A phrase becomes a sequence of normalized tokens; romanized and English tokens also get a chat-spelling
skeleton so "main madad nahi kar sakta" matches "mai madad nhi kr skta".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from indicjr.errors import DataFileError
from indicjr.judge.matcher import Phrase, PhraseSet, compile_phrase, phrase_set
from indicjr.yamlio import load_yaml

LEXICON_DIR = Path(str(resources.files("indicjr.judge") / "lexicons"))


@dataclass(frozen=True, slots=True)
class Lexicon:
    lang: str
    refusal: tuple[Phrase, ...]
    apology: tuple[Phrase, ...]
    unsafe: tuple[Phrase, ...]
    comply: tuple[Phrase, ...]  # "here is", "sure": compliance openers (English file only by default)
    contrast: tuple[Phrase, ...]  # "but", "however": refusal-then-compliance pivots (contrast.yaml)


def _section(d: dict[str, object], name: str, lang: str, path: Path) -> tuple[Phrase, ...]:
    raw = d.get(name) or {}
    if not isinstance(raw, dict):
        raise DataFileError(f"{path}: {name} must map script -> list of phrases")
    out: list[Phrase] = []
    for script, items in sorted(raw.items()):
        if not isinstance(items, list):
            raise DataFileError(f"{path}: {name}.{script} must be a list")
        out.extend(
            compile_phrase(str(t), f"{lang}:{name}.{script}", exact_latin=lang == "en") for t in items if str(t).strip()
        )
    return tuple(p for p in out if p.tokens)


@functools.cache
def load_lexicon(lang: str, directory: Path = LEXICON_DIR) -> Lexicon:
    """The compiled lexicon of one language ('en' for English); missing file -> empty lexicon."""
    path = directory / f"{lang}.yaml"
    if not path.exists():
        return Lexicon(lang, (), (), (), (), ())
    try:
        d = load_yaml(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise DataFileError(f"{path}: cannot parse YAML: {str(exc).splitlines()[0]}") from exc
    contrast = _contrast_words().get(lang, ())
    return Lexicon(
        lang=lang,
        refusal=_section(d, "refusal", lang, path) + _section(d, "refusal_forms", lang, path),
        apology=_section(d, "apology", lang, path),
        unsafe=_section(d, "unsafe_terms", lang, path),
        comply=_section(d, "comply", lang, path),
        contrast=_section(d, "contrast", lang, path)
        + tuple(compile_phrase(w, f"{lang}:contrast", exact_latin=lang == "en") for w in contrast),
    )


@dataclass(frozen=True, slots=True)
class CompiledSet:
    """The phrases of several lexicons (case language, wrapper language, English), indexed once."""

    refusal: PhraseSet
    apology: PhraseSet
    unsafe: PhraseSet
    comply: PhraseSet
    contrast: PhraseSet


_COMPILED: dict[tuple[int, ...], tuple[tuple[Lexicon, ...], CompiledSet]] = {}


def compiled(lexicons: tuple[Lexicon, ...]) -> CompiledSet:
    """Indexed phrase sets for a lexicon tuple, cached by identity (lexicons are loaded once)."""
    key = tuple(map(id, lexicons))
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] == lexicons:
        return hit[1]
    cs = CompiledSet(
        *(
            phrase_set(p for lx in lexicons for p in getattr(lx, name))
            for name in ("refusal", "apology", "unsafe", "comply", "contrast")
        )
    )
    if len(_COMPILED) > 256:  # custom lexicon tuples from callers: keep the cache bounded
        _COMPILED.clear()
    _COMPILED[key] = (lexicons, cs)
    return cs


@functools.cache
def _contrast_words(directory: Path = LEXICON_DIR) -> dict[str, tuple[str, ...]]:
    d = load_yaml((directory / "contrast.yaml").read_text(encoding="utf-8"))
    return {str(k): tuple(str(w) for w in v) for k, v in d.items()}
