"""Is a language's bundle complete? Every part loaded and checked, the first gap named in one line.

A bundle is what the registry (langs/languages.yaml) declares for a language plus its files: the case source,
the chat-romanization rules and the judge's lexicon (the simulator's phrase bank is optional: the simulator
answers a language without one from the English bank and says so; one that is there is checked). The loaders
check the same things when a run first needs them; this checks them all at once, for a new language's author
(tools/check_lang_data.py) and for the tests over every registered language.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import yaml

from indicjr.cases.sources import parse_source
from indicjr.errors import DataFileError
from indicjr.judge.lexicon import check_contrast, check_schema, load_lexicon
from indicjr.langs.registry import Registry, bundle_file
from indicjr.targets.sim.text import parse_bank
from indicjr.yamlio import load_yaml


def _read(path: Path, what: str) -> object:
    try:
        return load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(f"{path}: cannot read the {what}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise DataFileError(f"{path}: cannot parse YAML: {str(exc).splitlines()[0]}") from exc


def check_bundle(reg: Registry, code: str) -> None:
    """Raise DataFileError (one line: file and section) at the first missing or malformed part."""
    source = bundle_file(reg, code, "source")
    if not source.exists():
        raise DataFileError(f"{source}: missing the case source of language {code!r}")
    parsed = parse_source(source)
    if parsed.lang != code:
        raise DataFileError(f"{source}: lang: {parsed.lang!r}, but the registry files it under {code!r}")
    rules = _read(bundle_file(reg, code, "romanization"), "romanization rules")
    if not isinstance(rules, dict):
        raise DataFileError(f"{bundle_file(reg, code, 'romanization')}: expected a mapping of romanization rules")
    lexicon = bundle_file(reg, code, "lexicon")
    d = _read(lexicon, f"lexicon of {code!r}")
    check_schema(d, lexicon)
    assert isinstance(d, dict)  # check_schema raised otherwise
    check_contrast(code, d, lexicon)
    phrases = bundle_file(reg, code, "sim_phrases")
    if phrases.exists():
        parse_bank(phrases)


def load_lexicons(langs: Iterable[str]) -> None:
    """Load the lexicons a run judges with (its cases' and wrappers' languages, and English) before the first
    case: a bundle missing a required section stops the run in one line, instead of failing every case test
    with the same traceback. They are cached: judging reads the ones loaded here."""
    for lang in sorted({*langs, "en"}):
        load_lexicon(lang)
