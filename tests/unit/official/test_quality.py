"""The quality report finds every defect planted in the fixture, and nothing else; bad input is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicjr.cli import main
from indicjr.errors import CaseFileError, ConfigError
from indicjr.official.importer import ImportResult, import_release

PLANTED = {
    ("no_wrapper_no_passage", "free-hi-instruction-same-cccc000001-free"),
    ("no_wrapper_no_passage", "free-hi-instruction-free-cccc000002"),
    ("task_without_passage", "json-hi-translate-same-aaaa000007"),
    ("task_without_passage", "json-ur-instruction-cross-xfer-hi-bbbb000004"),
    ("same_equals_cross", "json-hi-format-same-aaaa000003"),
    ("same_equals_cross", "free-hi-instruction-same-cccc000001-free"),
    ("placeholder_wrapper", "json-hi-format-cross-aaaa000006"),
    ("foreign_script", "json-ur-translate-cross-xfer-hi-bbbb000006"),  # CJK punctuation
    ("foreign_script", "ur-json-cb-0002-ec6bcc73"),  # Devanagari inside Urdu
    ("foreign_script", "ur-json-ch-0001-93ce7c03"),  # English CH prompt in the Urdu set
    ("foreign_script", "free-ur-cleanH-eeee0002"),  # the same, FREE track
    ("duplicate_passage", "hi-json-cb-0003-98858e08"),
    ("id_contradicts_row", "json-hi-role_play-cross-aaaa000009"),  # id mode vs mode
    ("id_contradicts_row", "json-ur-instruction-cross-xfer-bn-bbbb000005"),  # id xfer vs xfer_source
    ("id_contradicts_row", "free-bn-format-cross-cccc000005-free"),  # id lang vs lang
    ("id_contradicts_row", "free-hi-cleanH-dddd0003"),  # cleanH id in the clean-benign file
}


def test_report_finds_every_planted_defect_and_nothing_else(imported: ImportResult) -> None:
    assert {(f.kind, f.key) for f in imported.findings} == PLANTED


def test_defects_are_tagged_on_the_cases(imported: ImportResult) -> None:
    tagged = {(kind, c.id) for c in imported.cases for kind in c.meta["defects"]}
    assert tagged == PLANTED


def test_quality_files_sit_beside_the_cases(imported: ImportResult) -> None:
    report = json.loads((imported.out_dir / "quality.json").read_text(encoding="utf-8"))
    assert report["defects"]["foreign_script"]["count"] == 4
    assert report["defects"]["placeholder_wrapper"]["examples"] == ["json-hi-format-cross-aaaa000006"]
    assert report["totals"]["json/AB (E2)"] == {
        "expected": 8316,
        "expected_per_lang": 693,
        "read": 6,
        "imported": 6,
        "written": 6,
        "languages": ["ur"],
    }
    md = (imported.out_dir / "quality.md").read_text(encoding="utf-8")
    assert "| duplicate_passage: clean-benign passage repeated within the language's set | 1 |" in md


def test_cli_prints_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.unit.official.conftest import FIXTURE

    assert main(["import-official", str(FIXTURE), "--out", str(tmp_path / "o"), "--exclude-defective"]) == 0
    out = capsys.readouterr().out
    assert "read 38 rows from 11 files; imported 36, skipped 2, defective 15, excluded 15, written 21" in out
    assert "defect id_contradicts_row: 4" in out


def test_malformed_line_is_reported_with_path_and_line(release_copy: Path) -> None:
    path = release_copy / "prompts_free" / "hi.jsonl"
    path.write_text(path.read_text(encoding="utf-8") + '{"id": "broken",\n', encoding="utf-8")
    with pytest.raises(CaseFileError, match=rf"{path}:6: bad JSON"):
        import_release(release_copy, release_copy.parent / "out")


def test_row_without_prompt_text_is_reported_with_path_and_line(release_copy: Path) -> None:
    path = release_copy / "prompts_json_clean_benign_clean_harmful" / "benign" / "ta.jsonl"
    path.write_text('{"lang": "ta", "type": "benign"}\n', encoding="utf-8")
    with pytest.raises(CaseFileError, match=rf"{path}:1: no prompt text"):
        import_release(release_copy, release_copy.parent / "out")


def test_missing_release_is_a_config_error_naming_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="nope: not a directory"):
        import_release(tmp_path / "nope", tmp_path / "out")
    assert main(["import-official", str(tmp_path), "--out", str(tmp_path / "o")]) == 4
    assert "is this the IJR release?" in capsys.readouterr().err
