"""The romanization reference (how people type each language in Latin letters) and word agreement against it.

A reference row is one native line with, for each whitespace token, the spellings native typists use
(tests/data/romanization_ref/<lang>.jsonl, imported by tools/import_orthoref.py). Rows are split into a
dev half (rules are tuned on it) and a test half (agreement is reported on it) by crc32 of the row id.
Agreement is the share of reference words whose romanized form, lowercased and stripped of punctuation,
is one of the accepted spellings.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from indicjr.errors import DataFileError

REF_DIR = Path(__file__).resolve().parents[3] / "tests" / "data" / "romanization_ref"
_EDGE = re.compile(r"^[^0-9A-Za-z]+|[^0-9A-Za-z]+$")


@dataclass(frozen=True, slots=True)
class RefWord:
    native: str
    typed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RefRow:
    id: str
    lang: str
    kind: str
    native: str
    words: tuple[RefWord, ...]
    split: str


def split_of(row_id: str) -> str:
    """'dev' or 'test', fixed by the row id (about half each)."""
    return "dev" if zlib.crc32(row_id.encode("utf-8")) % 2 == 0 else "test"


def parse_row(d: dict[str, object], where: str) -> RefRow:
    """One reference row; a row whose words do not align with its native tokens is a data error."""
    try:
        native = str(d["native"])
        words = tuple(
            RefWord(str(w["w"]), tuple(str(t).strip().lower() for t in w["typed"]))
            for w in d["words"]  # type: ignore[attr-defined]
        )
        row_id = str(d["id"])
        lang, kind = str(d["lang"]), str(d["kind"])
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"{where}: bad reference row ({exc})") from exc
    if len(words) != len(native.split()):
        raise DataFileError(f"{where}: {len(words)} words for {len(native.split())} tokens")
    return RefRow(row_id, lang, kind, native, words, str(d.get("split") or split_of(row_id)))


def load_ref(lang: str, ref_dir: Path = REF_DIR) -> list[RefRow]:
    """All rows of a language's reference (empty when the file does not exist)."""
    path = ref_dir / f"{lang}.jsonl"
    if not path.exists():
        return []
    rows = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            rows.append(parse_row(json.loads(line), f"{path}:{i}"))
    return rows


def clean(token: str) -> str:
    """A token as compared: lowercase, surrounding punctuation stripped."""
    return _EDGE.sub("", token.lower())


def romanized_tokens(native: str, romanize_line: Callable[[str], str]) -> list[str]:
    """The romanization of each whitespace token of a line, aligned with native.split().

    The line is romanized whole (context matters to some rules); where that changes the token count
    (an engine merging or splitting words), each token is romanized on its own instead.
    """
    tokens = native.split()
    out = romanize_line(native).split()
    if len(out) != len(tokens):
        out = [romanize_line(t) for t in tokens]
    return out


@dataclass(frozen=True, slots=True)
class Agreement:
    lang: str
    words: int
    agreed: int
    misses: tuple[tuple[str, str, tuple[str, ...]], ...]  # (native, ours, accepted)

    @property
    def share(self) -> float:
        return self.agreed / self.words if self.words else 0.0


def word_agreement(lang: str, rows: Iterable[RefRow], romanize_line: Callable[[str], str]) -> Agreement:
    """Share of reference words romanized as one of their accepted spellings."""
    n = ok = 0
    misses: list[tuple[str, str, tuple[str, ...]]] = []
    for row in rows:
        for word, ours in zip(row.words, romanized_tokens(row.native, romanize_line), strict=True):
            accepted = {clean(t) for t in word.typed} - {""}
            if not accepted:
                continue
            n += 1
            if clean(ours) in accepted:
                ok += 1
            else:
                misses.append((word.native, clean(ours), word.typed))
    return Agreement(lang, n, ok, tuple(misses))
