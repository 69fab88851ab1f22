"""Where each file family of the public release lives, and which files the importer ignores.

The layout (verified by reading the release) is fixed, so it is written down here once as data; the
rest of the package only sees `FileSpec`s. Expected-but-absent files are reported, not fatal: partial
copies of the release commonly lack the large `*.E1.jsonl` files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from indicjr.errors import ConfigError
from indicjr.langs import LANGS


@dataclass(frozen=True, slots=True)
class Family:
    """One file family: its path pattern ({lang} is filled in), track, subset and a short name."""

    name: str
    pattern: str
    track: str
    subset: str


FAMILIES: tuple[Family, ...] = (
    Family("json_e1", "prompts_json/{lang}.E1.jsonl", "json", "AB"),
    Family("json_e2", "prompts_json/{lang}.E2xfer.jsonl", "json", "AB"),
    Family("json_cb", "prompts_json_clean_benign_clean_harmful/benign/{lang}.jsonl", "json", "CB"),
    Family("json_ch", "prompts_json_clean_benign_clean_harmful/harmful/{lang}.jsonl", "json", "CH"),
    Family("free_ab", "prompts_free/{lang}.jsonl", "free", "AB"),
    Family("free_cb", "prompts_free/clean_benign_{lang}.jsonl", "free", "CB"),
    Family("free_ch", "prompts_free/clean_harmful_{lang}.jsonl", "free", "CH"),
)
_SEARCHED_DIRS = ("prompts_json", "prompts_json_clean_benign_clean_harmful", "prompts_free")


@dataclass(frozen=True, slots=True)
class FileSpec:
    """One release file to import."""

    family: Family
    lang: str
    path: Path
    rel: str  # path relative to the release root, with forward slashes (stable in reports)


@dataclass(frozen=True, slots=True)
class Layout:
    """What a release checkout holds: files to import, expected files absent, files deliberately ignored."""

    files: tuple[FileSpec, ...]
    missing: tuple[str, ...]
    ignored: tuple[str, ...]


def discover(root: Path) -> Layout:
    """Map a release checkout to FileSpecs (family order, then language order)."""
    if not root.is_dir():
        raise ConfigError(f"{root}: not a directory (expected a checkout of the IJR release)")
    if not any((root / d).is_dir() for d in _SEARCHED_DIRS):
        raise ConfigError(f"{root}: none of {', '.join(_SEARCHED_DIRS)} found; is this the IJR release?")
    files: list[FileSpec] = []
    missing: list[str] = []
    for fam in FAMILIES:
        for lang in LANGS:
            rel = fam.pattern.format(lang=lang)
            path = root / rel
            if path.is_file():
                files.append(FileSpec(family=fam, lang=lang, path=path, rel=rel))
            else:
                missing.append(rel)
    used = {f.rel for f in files}
    ignored = sorted(
        p.relative_to(root).as_posix()
        for d in _SEARCHED_DIRS
        if (root / d).is_dir()
        for p in (root / d).rglob("*.jsonl")
        if p.relative_to(root).as_posix() not in used
    )
    return Layout(files=tuple(files), missing=tuple(missing), ignored=tuple(ignored))
