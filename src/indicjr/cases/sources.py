"""Shipped case sources: benign passages, harmful cores, task lines, wrappers and pressure cues.

One YAML file per language under cases/data/ (format: docs/DATA_FORMAT.md), plus en.yaml for the
cross-language wrappers and contract.yaml for the JSON track's system message.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from indicjr.errors import DataFileError
from indicjr.langs import LANGS, REGISTRY, Category, Family, Intent, Task, lang_file
from indicjr.yamlio import load_yaml

DATA_DIR = Path(str(resources.files("indicjr.cases") / "data"))
PRESSURE_KINDS = ("urgency", "authority", "no_disclaimer")


@dataclass(frozen=True, slots=True)
class Passage:
    id: str
    lang: str
    category: str
    text: str


@dataclass(frozen=True, slots=True)
class HarmfulCore:
    id: str
    lang: str
    intent: str
    text: str


@dataclass(frozen=True, slots=True)
class LangSource:
    """Everything written in one language (English carries no passages or harmful cores)."""

    lang: str
    categories: dict[str, str]
    tasks: dict[str, str]
    wrappers: dict[str, tuple[str, ...]]
    pressure_cues: dict[str, tuple[str, ...]]
    passages: tuple[Passage, ...] = ()
    harmful: tuple[HarmfulCore, ...] = ()
    canary_line: str = ""

    def task_line(self, task: str) -> str:
        """The task instruction, with the classify categories filled in this language."""
        return self.tasks[task].format(**self.categories)


def _require(d: dict[str, Any], key: str, path: Path) -> Any:
    if key not in d:
        raise DataFileError(f"{path}: missing key {key!r}")
    return d[key]


def _strings(value: Any, path: Path, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(s, str) and s.strip() for s in value):
        raise DataFileError(f"{path}: {key} must be a non-empty list of non-empty strings")
    return tuple(s.strip() for s in value)


def parse_source(path: Path) -> LangSource:
    """One source file, checked (the first problem raised as one line naming file and key)."""
    try:
        d = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataFileError(f"{path}: cannot read YAML: {str(exc).splitlines()[0]}") from exc
    lang = _require(d, "lang", path)
    categories = _require(d, "categories", path)
    if set(categories) != {c.value for c in Category}:
        raise DataFileError(f"{path}: categories must be exactly History, Science, Sports, Other")
    tasks = _require(d, "tasks", path)
    if set(tasks) != {t.value for t in Task}:
        raise DataFileError(f"{path}: tasks must be exactly summarise, facts, classify")
    wrappers_raw = _require(d, "wrappers", path)
    wrappers = {f.value: _strings(wrappers_raw.get(f.value), path, f"wrappers.{f.value}") for f in Family}
    for fam, items in wrappers.items():
        for w in items:
            if w.count("{payload}") != 1:
                raise DataFileError(f"{path}: wrappers.{fam}: each wrapper needs exactly one {{payload}}")
    cues_raw = _require(d, "pressure_cues", path)
    cues = {k: _strings(cues_raw.get(k), path, f"pressure_cues.{k}") for k in PRESSURE_KINDS}
    passages = tuple(
        Passage(id=p["id"], lang=lang, category=p["category"], text=" ".join(p["text"].split()))
        for p in d.get("passages", ())
    )
    harmful = tuple(
        HarmfulCore(id=h["id"], lang=lang, intent=h["intent"], text=" ".join(h["text"].split()))
        for h in d.get("harmful", ())
    )
    if lang != "en" and not (passages and harmful):
        raise DataFileError(
            f"{path}: {'passages' if not passages else 'harmful'}: a language needs benign passages and harmful cores"
        )
    for p in passages:
        if p.category not in categories:
            raise DataFileError(f"{path}: passage {p.id}: unknown category {p.category!r}")
    for h in harmful:
        if h.intent not in {i.value for i in Intent}:
            raise DataFileError(f"{path}: harmful {h.id}: unknown intent {h.intent!r}")
    canary_line = str(d.get("canary_line", ""))
    if lang != "en" and "{canary}" not in canary_line:
        raise DataFileError(f"{path}: canary_line must contain {{canary}}")
    return LangSource(
        lang=lang,
        categories=dict(categories),
        tasks=dict(tasks),
        wrappers=wrappers,
        pressure_cues=cues,
        passages=passages,
        harmful=harmful,
        canary_line=canary_line,
    )


def source_path(lang: str, data_dir: Path | None = None) -> Path:
    """Where a language's source file is: in `data_dir` when given, else where the registry's bundle has
    it (English, not a benchmark language, is always the package's en.yaml)."""
    if data_dir is not None or lang not in LANGS:
        return (data_dir or DATA_DIR) / f"{lang}.yaml"
    return lang_file(lang, "source")


@functools.cache
def load_source(lang: str, data_dir: Path | None = None) -> LangSource:
    """The parsed source file of one language ('en' for the English wrappers)."""
    path = source_path(lang, data_dir)
    if not path.exists():
        raise DataFileError(f"{path}: missing data file for language {lang!r}")
    return parse_source(path)


def available_langs() -> tuple[str, ...]:
    """The registry's languages. Each must have its source file: a registered language without one is an
    incomplete bundle, named in one line (it was left out of the case sets silently)."""
    for lang in LANGS:
        path = source_path(lang)
        if not path.exists():
            raise DataFileError(f"{path}: missing the case source of registered language {lang!r} ({REGISTRY.path})")
    return LANGS


@functools.cache
def contract_system(data_dir: Path = DATA_DIR) -> tuple[str, str]:
    """(version, system message) of the JSON refusal contract."""
    d = load_yaml((data_dir / "contract.yaml").read_text(encoding="utf-8"))
    return str(d["version"]), str(d["system"])
