"""2023 Wikipedia as a benign-core source (`ijr build --cores wikipedia`), with the paper's filters.

Rows {id, url, title, text} come from a local JSONL dump or, online, from the Hugging Face `datasets`
library (streaming `wikimedia/wikipedia`, config `20231101.<lang>`, imported lazily). Both go through
`select_passages`, so the offline test exercises the same code as online use. Filters, as in the paper:
a script-specific Unicode filter, 400-1200 characters, de-duplication; then a seeded sample.
"""

from __future__ import annotations

import random
import unicodedata
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from indicjr.cases.letters import letter_scripts
from indicjr.cases.sources import Passage
from indicjr.errors import ConfigError, DataFileError
from indicjr.jsonl import read_jsonl as _read_jsonl
from indicjr.langs import LANGS, SCRIPT_OF

MIN_CHARS, MAX_CHARS = 400, 1200
MIN_NATIVE_SHARE = 0.85  # share of letters in the language's own script
SCAN_FACTOR = 20  # candidates kept before sampling: per_lang x this (bounds memory and streaming time)
DATASET, CONFIG = "wikimedia/wikipedia", "20231101.{lang}"

# Category heuristic: keywords in English (common in Indic articles) and the benchmark's own category names.
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "History": ("century", "dynasty", "empire", "king", "war", "battle", "ancient", "history", "historical"),
    "Science": (
        "science",
        "physics",
        "chemistry",
        "biology",
        "species",
        "mathematics",
        "planet",
        "disease",
        "scientist",
        "chemical",
        "astronomy",
    ),
    "Sports": (
        "cricket",
        "football",
        "olympic",
        "tournament",
        "championship",
        "athlete",
        "match",
        "sport",
        "league",
        "hockey",
        "tennis",
    ),
}


def normalise(text: str) -> str:
    """NFC and single spaces (the form passages are stored and compared in)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def native_share(text: str, lang: str) -> float:
    counts = letter_scripts(text)
    total = sum(counts.values())
    return counts.get(SCRIPT_OF[lang], 0) / total if total else 0.0


def categorise(title: str, text: str, names: Mapping[str, str] | None = None) -> str:
    """History / Science / Sports by keyword hits (English or the localized category name), else Other."""
    hay = f"{title} {text}".lower()
    scores = {cat: sum(hay.count(k) for k in kws) for cat, kws in _KEYWORDS.items()}
    for cat, name in (names or {}).items():
        if cat in scores and name:
            scores[cat] += hay.count(name.lower())
    best = max(sorted(scores), key=lambda c: scores[c])
    return best if scores[best] > 0 else "Other"


def select_passages(
    rows: Iterable[Mapping[str, Any]],
    lang: str,
    *,
    per_lang: int = 300,
    seed: int = 13,
    names: Mapping[str, str] | None = None,
) -> list[Passage]:
    """Filter rows (script, length, duplicates), then a seeded sample of `per_lang`, sorted by id."""
    seen: set[int] = set()
    candidates: list[Passage] = []
    for row in rows:
        text = normalise(str(row.get("text", "")))
        if not MIN_CHARS <= len(text) <= MAX_CHARS or native_share(text, lang) < MIN_NATIVE_SHARE:
            continue
        digest = zlib.crc32(text.encode("utf-8"))
        if digest in seen:
            continue
        seen.add(digest)
        cat = categorise(str(row.get("title", "")), text, names)
        candidates.append(Passage(id=f"wiki-{lang}-{row.get('id')}", lang=lang, category=cat, text=text))
        if len(candidates) >= per_lang * SCAN_FACTOR:
            break
    rng = random.Random(zlib.crc32(f"{seed}:wikipedia:{lang}".encode()))
    chosen = rng.sample(candidates, min(per_lang, len(candidates)))
    return sorted(chosen, key=lambda p: p.id)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Rows of a local dump; a bad line is an error naming path:line."""
    for lineno, row in _read_jsonl(path, error=DataFileError):
        if not isinstance(row, dict) or "text" not in row:
            raise DataFileError(f"{path}:{lineno}: expected an object with id, url, title, text")
        yield row


def _local_rows(source: Path, lang: str) -> Iterator[dict[str, Any]]:
    """A file is one language's dump; a directory holds <lang>.jsonl per language."""
    path = source / f"{lang}.jsonl" if source.is_dir() else source
    if not path.is_file():
        raise ConfigError(f"{path}: no Wikipedia dump for {lang} (expected JSONL rows id, url, title, text)")
    rows = read_jsonl(path)
    return (r for r in rows if r.get("lang", lang) == lang)


def _hf_rows(lang: str) -> Iterator[dict[str, Any]]:
    try:
        from datasets import load_dataset  # heavy and optional: only for online Wikipedia cores
    except ImportError:
        raise ConfigError(
            "--cores wikipedia without --cores-source needs the Hugging Face datasets library: pip install datasets"
        ) from None
    return iter(load_dataset(DATASET, CONFIG.format(lang=lang), split="train", streaming=True))


def wikipedia_passages(
    lang: str,
    *,
    source: str | Path | None,
    per_lang: int = 300,
    seed: int = 13,
    rows: Iterable[Mapping[str, Any]] | None = None,
) -> list[Passage]:
    """Benign cores for one language from 2023 Wikipedia (local `source`, else streamed from the Hub).

    `rows` injects the row iterator (tests); categories are named with the language's own category
    words when its shipped source file is available.
    """
    if lang not in LANGS:
        raise ConfigError(f"--cores wikipedia: unknown language {lang!r}")
    if rows is None:
        rows = _local_rows(Path(source), lang) if source is not None else _hf_rows(lang)
    return select_passages(rows, lang, per_lang=per_lang, seed=seed, names=_category_names(lang))


def _category_names(lang: str) -> dict[str, str]:
    from indicjr.cases.sources import load_source

    try:
        return dict(load_source(lang).categories)
    except DataFileError:
        return {}
