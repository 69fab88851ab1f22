"""The Wikipedia core source, offline: dataset-like rows through the same code path as online use."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.wikipedia import MAX_CHARS, MIN_CHARS, wikipedia_passages
from indicjr.errors import ConfigError, DataFileError
from tests.unit.official.conftest import FIXTURE

DUMP = FIXTURE / "wikipedia" / "hi.jsonl"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DUMP.read_text(encoding="utf-8").splitlines()]


def test_filters_keep_native_passages_of_the_right_length_once() -> None:
    passages = wikipedia_passages("hi", source=None, rows=iter(_rows()), per_lang=10)
    # 104 duplicates 101 (after whitespace normalisation), 105 is short, 106 long, 107 English.
    assert [p.id for p in passages] == ["wiki-hi-101", "wiki-hi-102", "wiki-hi-103", "wiki-hi-108"]
    assert all(MIN_CHARS <= len(p.text) <= MAX_CHARS and p.lang == "hi" for p in passages)


def test_categories_are_assigned_heuristically_or_other() -> None:
    passages = wikipedia_passages("hi", source=None, rows=iter(_rows()), per_lang=10)
    assert {p.id: p.category for p in passages} == {
        "wiki-hi-101": "History",
        "wiki-hi-102": "Science",
        "wiki-hi-103": "Sports",
        "wiki-hi-108": "Other",
    }


def test_local_dump_and_injected_rows_agree_and_the_sample_is_seeded() -> None:
    from_file = wikipedia_passages("hi", source=DUMP, per_lang=2, seed=13)
    from_rows = wikipedia_passages("hi", source=None, rows=iter(_rows()), per_lang=2, seed=13)
    assert from_file == from_rows and len(from_file) == 2
    seeds = {tuple(p.id for p in wikipedia_passages("hi", source=DUMP, per_lang=2, seed=s)) for s in range(8)}
    assert len(seeds) > 1


def test_bad_dump_line_names_path_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "hi.jsonl"
    bad.write_text(DUMP.read_text(encoding="utf-8").splitlines()[0] + "\nnot json\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=rf"{bad}:2: bad JSON"):
        wikipedia_passages("hi", source=bad)


def test_missing_datasets_library_gives_a_one_line_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_datasets(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "datasets":
            raise ImportError("no datasets")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_datasets)
    with pytest.raises(ConfigError, match="pip install datasets"):
        wikipedia_passages("hi", source=None)
