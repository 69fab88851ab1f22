"""The importer turns every release file family into valid cases with the right fields and ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from indicjr.cases.sources import contract_system
from indicjr.official.importer import ImportResult, import_release
from tests.unit.official.conftest import FIXTURE


def _by_id(result: ImportResult) -> dict[str, object]:
    return {c.id: c for c in result.cases}


def test_every_family_imports_with_the_expected_counts(imported: ImportResult) -> None:
    files = {s["file"]: (s["rows_read"], s["imported"]) for s in imported.report["files"]}
    assert files == {
        "prompts_json/hi.E1.jsonl": (10, 9),
        "prompts_json/ur.E2xfer.jsonl": (6, 6),
        "prompts_json_clean_benign_clean_harmful/benign/hi.jsonl": (3, 3),
        "prompts_json_clean_benign_clean_harmful/benign/ur.jsonl": (2, 2),
        "prompts_json_clean_benign_clean_harmful/benign/ta.jsonl": (1, 1),
        "prompts_json_clean_benign_clean_harmful/harmful/hi.jsonl": (2, 1),
        "prompts_json_clean_benign_clean_harmful/harmful/ur.jsonl": (3, 3),
        "prompts_free/hi.jsonl": (5, 5),
        "prompts_free/clean_benign_hi.jsonl": (3, 3),
        "prompts_free/clean_harmful_hi.jsonl": (1, 1),
        "prompts_free/clean_harmful_ur.jsonl": (2, 2),
    }
    counts = Counter(f"{c.track}/{c.subset}" for c in imported.cases)
    assert counts == {"json/AB": 15, "json/CB": 6, "json/CH": 4, "free/AB": 5, "free/CB": 3, "free/CH": 3}
    assert {c.lang for c in imported.cases} == {"hi", "ur", "ta"}


def test_aggregate_and_manifest_files_are_ignored_not_imported(imported: ImportResult) -> None:
    assert imported.report["ignored_files"] == [
        "prompts_json_clean_benign_clean_harmful/benign.jsonl",
        "prompts_json_clean_benign_clean_harmful/benign_manifest.jsonl",
    ]
    assert "prompts_json/bn.E1.jsonl" in imported.report["missing_files"]


def test_skipped_rows_are_counted_with_their_reason(imported: ImportResult) -> None:
    skipped = {s["file"]: s["skipped"] for s in imported.report["files"] if s["skipped"]}
    assert skipped == {
        "prompts_json/hi.E1.jsonl": {"unknown attack family 'jailbreak'": 1},
        "prompts_json_clean_benign_clean_harmful/harmful/hi.jsonl": {
            "canary reused (first at prompts_json_clean_benign_clean_harmful/harmful/hi.jsonl:1)": 1
        },
    }


@pytest.mark.parametrize(
    ("case_id", "orthography"),
    [
        ("json-hi-instruction-same-aaaa000001", "native"),
        ("json-hi-role_play-same-aaaa000005", "romanized"),  # E1: from metadata.romanized
        ("json-hi-instruction-cross-aaaa000008", "mixed"),  # E1: from metadata.mixed
        ("json-ur-format-cross-xfer-hi-bbbb000001", "native"),  # E2: inferred from the text
        ("json-ur-format-cross-xfer-hi-bbbb000002", "romanized"),  # Latin-only lines, native task
        ("json-ur-format-cross-xfer-hi-bbbb000003", "mixed"),  # interleaved Latin and native lines
        ("free-hi-format-cross-cccc000004-free", "native"),  # English wrapper around a native core
    ],
)
def test_orthography_comes_from_tags_or_the_text(imported: ImportResult, case_id: str, orthography: str) -> None:
    assert _by_id(imported)[case_id].orthography == orthography  # type: ignore[attr-defined]


def test_ab_fields_map_to_our_vocabulary(imported: ImportResult) -> None:
    cases = _by_id(imported)
    e1 = cases["json-hi-role_play-same-aaaa000005"]
    assert (e1.family, e1.mode, e1.wrapper_lang, e1.source) == ("roleplay", "same", "hi", "official")  # type: ignore[attr-defined]
    e2 = cases["json-ur-format-cross-xfer-hi-bbbb000001"]
    assert (e2.lang, e2.mode, e2.wrapper_lang, e2.meta["xfer_source"]) == ("ur", "cross", "hi", "hi")  # type: ignore[attr-defined]
    assert e2.e2  # type: ignore[attr-defined]
    assert cases["json-hi-instruction-cross-aaaa000002"].wrapper_lang == "en"  # type: ignore[attr-defined]


def test_json_cases_get_our_contract_and_free_cases_keep_the_released_text(imported: ImportResult) -> None:
    _, system = contract_system()
    for case in imported.cases:
        if case.track == "json":
            assert case.messages[0].role == "system" and case.messages[0].content == system
            assert case.meta["contract_present"] is False
        else:
            assert [m.role for m in case.messages] == ["user"]
    cb = _by_id(imported)["free-hi-cleanB-dddd0001"]
    assert cb.meta["contract_present"] is True  # type: ignore[attr-defined]
    assert '"decision"' in cb.user_text  # type: ignore[attr-defined]


def test_idless_rows_get_stable_position_and_hash_ids(imported: ImportResult) -> None:
    ids = [c.id for c in imported.cases if c.meta["official_id"] is None]
    assert all(i.isascii() and len(i) <= 40 for i in ids)
    assert [i.rsplit("-", 1)[0] for i in ids if i.startswith("hi-json-cb")] == [
        "hi-json-cb-0001",
        "hi-json-cb-0002",
        "hi-json-cb-0003",
    ]
    assert len({c.id for c in imported.cases}) == len(imported.cases)


def test_free_ch_intent_is_recovered_by_canary_and_its_canary_made_unique(imported: ImportResult) -> None:
    cases = _by_id(imported)
    free, json_ch = cases["free-ur-cleanH-eeee0001"], cases["ur-json-ch-0002-a41d41ee"]
    assert free.intent == json_ch.intent == "chem_synth"  # type: ignore[attr-defined]
    assert free.meta["official_canary"] == json_ch.canary == "KAN-0a1b2c3d-ur"  # type: ignore[attr-defined]
    assert free.canary != json_ch.canary and free.canary in free.user_text  # type: ignore[attr-defined]
    assert cases["free-hi-cleanH-ffff0001"].intent is None  # type: ignore[attr-defined]
    assert imported.report["notes"]["free_ch_intent_unrecovered"] == 1


def test_the_imported_folder_loads_as_a_case_set(imported: ImportResult) -> None:
    loaded = load_cases(imported.out_dir)
    assert sorted(c.id for c in loaded) == sorted(c.id for c in imported.cases)
    assert len(loaded) == 36


def test_import_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    import_release(FIXTURE, a)
    import_release(FIXTURE, b)
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert "quality.json" in names and "quality.md" in names and "manifest.json" in names
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_exclude_defective_writes_only_clean_rows(tmp_path: Path, imported: ImportResult) -> None:
    result = import_release(FIXTURE, tmp_path / "clean", exclude_defective=True)
    flagged = {f.key for f in imported.findings}
    assert {c.id for c in result.cases} == {c.id for c in imported.cases} - flagged
    assert result.report["rows"]["excluded"] == len(flagged) == 15
    assert all(not c.meta["defects"] for c in load_cases(tmp_path / "clean"))


def test_strip_contract_removes_the_contract_paragraph_from_free_cases(tmp_path: Path) -> None:
    result = import_release(FIXTURE, tmp_path / "s", strip_contract=True)
    cb = next(c for c in result.cases if c.id == "free-hi-cleanB-dddd0001")
    assert '"decision"' not in cb.user_text and cb.meta["contract_stripped"] is True
    assert cb.meta["contract_present"] is True
