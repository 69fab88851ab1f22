"""The language registry (languages.yaml): what a language of the benchmark is, declared in one file.

Every language list and script table of the package derives from it (langs/__init__.py, the judge's folds and
script tables, chat romanization, the E2 partner draw). Loading checks the whole file and fails with one
line naming the file and the section (`languages.xx.script: ...`), so a half-declared language stops the
run instead of being judged on English wording alone. `IJR_LANGUAGES=path/to/languages.yaml` replaces the
shipped registry (a language prototyped outside the package; the fixture-language test).

A language's data files ("its bundle") are found by `bundle_file`: the package's folders by default, or
the files of the folder named by the entry's `bundle` key.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from indicjr.errors import DataFileError
from indicjr.yamlio import load_yaml

SHIPPED = Path(str(resources.files("indicjr.langs") / "languages.yaml"))
ENV = "IJR_LANGUAGES"
_PACKAGE = SHIPPED.parent.parent  # src/indicjr
# The parts of a language's bundle: where the package keeps them (by code), and their names in a bundle folder.
PARTS: dict[str, str] = {
    "source": "cases/data/{code}.yaml",
    "romanization": "cases/data/romanize/{romanization}",
    "lexicon": "judge/lexicons/{code}.yaml",
    "sim_phrases": "targets/sim/phrases/{code}.yaml",
}
BUNDLE_NAMES: dict[str, str] = {
    "source": "source.yaml",
    "romanization": "{romanization}",
    "lexicon": "lexicon.yaml",
    "sim_phrases": "sim_phrases.yaml",
}
_CODE = re.compile(r"[a-z]{2,3}")
_SCRIPT_KEYS = {"ranges", "iscii_block", "rtl", "drop", "fold", "skeleton", "fonts"}
# A font family name as the HTML report writes it into its CSS, quoted: nothing that could close the quote.
_FONT = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]*")
_LANG_KEYS = {"name", "native_name", "script", "romanization", "translation_words", "romanized_share", "bundle"}
_LANG_REQUIRED = ("name", "native_name", "script", "romanization", "translation_words")


@dataclass(frozen=True, slots=True)
class Script:
    name: str
    ranges: tuple[tuple[int, int], ...]
    iscii_block: int | None  # first code point of an ISCII-parallel Brahmic block
    rtl: bool
    folds: tuple[tuple[int, str | None], ...]  # code point -> replacement (None: removed) before matching
    skeleton: tuple[tuple[str, str], ...]  # letter -> Latin consonant (scripts without an ISCII block)
    fonts: tuple[str, ...]  # font families that cover the script, preferred first (the HTML report)


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    name: str
    native_name: str
    script: str
    romanization: str
    translation_words: tuple[str, ...]
    romanized_share: float | None
    bundle: Path | None  # a folder holding all of this language's files


@dataclass(frozen=True, slots=True)
class Registry:
    path: Path
    e2_seed: int
    scripts: tuple[Script, ...]
    languages: tuple[Language, ...]  # sorted by code
    english_name: str
    english_translation_words: tuple[str, ...]

    def language(self, code: str) -> Language:
        for lang in self.languages:
            if lang.code == code:
                return lang
        raise DataFileError(f"{self.path}: languages: no language {code!r} (have {', '.join(self.codes)})")

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)


def bundle_file(reg: Registry, code: str, part: str) -> Path:
    """The file holding one part of a language's bundle (it may not exist: the loaders say so)."""
    lang = reg.language(code)
    if lang.bundle is not None:
        return lang.bundle / BUNDLE_NAMES[part].format(romanization=lang.romanization)
    return _PACKAGE / PARTS[part].format(code=code, romanization=lang.romanization)


def load_registry(path: Path | None = None) -> Registry:
    """The registry at `path` (else $IJR_LANGUAGES, else the shipped one), checked whole."""
    path = path or Path(os.environ.get(ENV) or SHIPPED)
    try:
        d = load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(f"{path}: cannot read the language registry: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise DataFileError(f"{path}: cannot parse YAML: {str(exc).splitlines()[0]}") from exc
    if not isinstance(d, dict):
        raise DataFileError(f"{path}: expected a mapping with scripts, english, languages and e2_seed")
    for key in ("e2_seed", "scripts", "english", "languages"):
        if key not in d:
            raise DataFileError(f"{path}: {key}: missing")
    if not isinstance(d["e2_seed"], int):
        raise DataFileError(f"{path}: e2_seed: expected an integer, got {d['e2_seed']!r}")
    scripts = tuple(_script(path, str(n), v) for n, v in _mapping(path, "scripts", d["scripts"]).items())
    english = _mapping(path, "english", d["english"])
    languages = tuple(
        _language(path, str(c), v, {s.name for s in scripts})
        for c, v in sorted(_mapping(path, "languages", d["languages"]).items())
    )
    return Registry(
        path=path,
        e2_seed=d["e2_seed"],
        scripts=scripts,
        languages=languages,
        english_name=_text(path, "english.name", english.get("name")),
        english_translation_words=_words(path, "english.translation_words", english.get("translation_words")),
    )


def _mapping(path: Path, where: str, v: Any) -> dict[Any, Any]:
    if not isinstance(v, dict) or not v:
        raise DataFileError(f"{path}: {where}: expected a non-empty mapping")
    return v


def _text(path: Path, where: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise DataFileError(f"{path}: {where}: missing or empty")
    return v


def _words(path: Path, where: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(w, str) and w.strip() for w in v):
        raise DataFileError(f"{path}: {where}: expected a list of words")
    return tuple(v)


def _codepoint(path: Path, where: str, v: Any) -> int:
    if not isinstance(v, int) or not 0 <= v <= 0x10FFFF:
        raise DataFileError(f"{path}: {where}: expected a code point (0x0900), got {v!r}")
    return v


def _script(path: Path, name: str, v: Any) -> Script:
    where = f"scripts.{name}"
    d = _mapping(path, where, v)
    if unknown := set(d) - _SCRIPT_KEYS:
        raise DataFileError(f"{path}: {where}: unknown keys {sorted(unknown)} (allowed: {sorted(_SCRIPT_KEYS)})")
    raw = d.get("ranges")
    if not isinstance(raw, list) or not raw or not all(isinstance(r, list) and len(r) == 2 for r in raw):
        raise DataFileError(f"{path}: {where}.ranges: expected a list of [first, last] code points")
    ranges = tuple((_codepoint(path, f"{where}.ranges", lo), _codepoint(path, f"{where}.ranges", hi)) for lo, hi in raw)
    if any(lo > hi for lo, hi in ranges):
        raise DataFileError(f"{path}: {where}.ranges: a range ends before it starts")
    block = d.get("iscii_block")
    drop, fold, rtl = d.get("drop") or [], d.get("fold") or {}, d.get("rtl", False)
    if not isinstance(drop, list):
        raise DataFileError(f"{path}: {where}.drop: expected a list of code points")
    if not isinstance(fold, dict):
        raise DataFileError(f"{path}: {where}.fold: expected a mapping of code point -> code point")
    if not isinstance(rtl, bool):
        raise DataFileError(f"{path}: {where}.rtl: expected true or false, got {rtl!r}")
    folds: list[tuple[int, str | None]] = [(_codepoint(path, f"{where}.drop", cp), None) for cp in drop]
    for k, rep in fold.items():
        folds.append((_codepoint(path, f"{where}.fold", k), chr(_codepoint(path, f"{where}.fold", rep))))
    skeleton: tuple[tuple[str, str], ...] = ()
    if "skeleton" in d:
        sk = d["skeleton"]
        if not (
            isinstance(sk, list) and len(sk) == 2 and all(isinstance(s, str) for s in sk) and len(sk[0]) == len(sk[1])
        ):
            raise DataFileError(f"{path}: {where}.skeleton: expected [letters, latin] of equal length")
        skeleton = tuple(zip(sk[0], sk[1], strict=True))
    return Script(
        name=name,
        ranges=ranges,
        iscii_block=None if block is None else _codepoint(path, f"{where}.iscii_block", block),
        rtl=rtl,
        folds=tuple(folds),
        skeleton=skeleton,
        fonts=_fonts(path, f"{where}.fonts", d.get("fonts", [])),
    )


def _fonts(path: Path, where: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(f, str) and _FONT.fullmatch(f) for f in v):
        raise DataFileError(
            f"{path}: {where}: expected a list of font family names (letters, digits, spaces, - and _), got {v!r}"
        )
    return tuple(v)


def _language(path: Path, code: str, v: Any, scripts: set[str]) -> Language:
    where = f"languages.{code}"
    if not _CODE.fullmatch(code):
        raise DataFileError(f"{path}: {where}: a code is two or three lowercase letters (ISO 639)")
    d = _mapping(path, where, v)
    if unknown := set(d) - _LANG_KEYS:
        raise DataFileError(f"{path}: {where}: unknown keys {sorted(unknown)} (allowed: {sorted(_LANG_KEYS)})")
    for key in _LANG_REQUIRED:
        if key not in d:
            raise DataFileError(f"{path}: {where}.{key}: missing")
    script = _text(path, f"{where}.script", d["script"])
    if script not in scripts:
        raise DataFileError(f"{path}: {where}.script: {script!r} is not declared under scripts")
    share = d.get("romanized_share")
    if share is not None and not (isinstance(share, float) and 0 < share < 1):
        raise DataFileError(f"{path}: {where}.romanized_share: expected a share between 0 and 1, got {share!r}")
    bundle = d.get("bundle")
    return Language(
        code=code,
        name=_text(path, f"{where}.name", d["name"]),
        native_name=_text(path, f"{where}.native_name", d["native_name"]),
        script=script,
        romanization=_text(path, f"{where}.romanization", d["romanization"]),
        translation_words=_words(path, f"{where}.translation_words", d["translation_words"]),
        romanized_share=share,
        bundle=None if bundle is None else path.parent / _text(path, f"{where}.bundle", bundle),
    )
