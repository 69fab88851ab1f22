"""Case files on disk: strict loading, manifest, `ijr stats`, byte-identical rebuilds, committed cases/."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.io import MANIFEST, dumps_case, load_cases
from indicjr.cli import main
from indicjr.errors import CaseFileError
from indicjr.langs import LANGS

from .conftest import PROFILES, Built

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "cases"


# --- strict loading ------------------------------------------------------------------------------------


def _rows(built: Built) -> list[dict[str, Any]]:
    """Three real rows of the lite profile: two AB cases and one CH case, as JSON objects."""
    ab = [c for c in built.cases if c.subset == "AB"][:2]
    ch = next(c for c in built.cases if c.subset == "CH")
    return [json.loads(dumps_case(c)) for c in (*ab, ch)]


def _write(path: Path, rows: list[dict[str, Any] | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _break_row(rows: list[dict[str, Any]], how: str) -> list[dict[str, Any] | str]:
    out: list[dict[str, Any] | str] = [dict(r) for r in rows]
    second = dict(rows[1])
    if how == "bad_json":
        out[1] = json.dumps(second)[:-5]  # truncated object
    elif how == "missing_field":
        del second["core_id"]
        out[1] = second
    elif how == "unknown_language":
        out[1] = second | {"lang": "xx"}
    elif how == "ch_without_canary":
        out[1] = dict(rows[2]) | {"canary": None}
    elif how == "duplicate_id":
        out[1] = second | {"id": rows[0]["id"]}
    return out


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("bad_json", "bad JSON"),
        ("missing_field", "missing field 'core_id'"),
        ("unknown_language", "unknown lang 'xx'"),
        ("ch_without_canary", "has no canary"),
        ("duplicate_id", "duplicate id"),
    ],
)
def test_a_malformed_case_file_fails_with_file_line_and_the_problem(
    built_profiles: dict[str, Built], tmp_path: Path, how: str, message: str
) -> None:
    rows = _rows(built_profiles["lite"])
    path = _write(tmp_path / "hi.jsonl", _break_row(rows, how))
    with pytest.raises(CaseFileError) as info:
        load_cases(path)
    assert str(info.value).startswith(f"{path}:2: "), str(info.value)
    assert message in str(info.value)


def test_the_duplicate_id_error_points_at_the_first_occurrence(
    built_profiles: dict[str, Built], tmp_path: Path
) -> None:
    rows = _rows(built_profiles["lite"])
    path = _write(tmp_path / "hi.jsonl", _break_row(rows, "duplicate_id"))
    with pytest.raises(CaseFileError, match=f"first at {path}:1"):
        load_cases(path)


def test_a_well_formed_case_file_loads_back_to_the_same_cases(built_profiles: dict[str, Built], tmp_path: Path) -> None:
    built = built_profiles["lite"]
    rows = _rows(built)
    assert [dumps_case(c) for c in load_cases(_write(tmp_path / "ok.jsonl", list(rows)))] == [
        json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows
    ]


def test_ijr_stats_on_a_malformed_file_exits_4_naming_file_and_line(
    built_profiles: dict[str, Built], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "hi.jsonl", _break_row(_rows(built_profiles["lite"]), "unknown_language"))
    assert main(["stats", str(path)]) == 4
    assert f"{path}:2: unknown lang 'xx'" in capsys.readouterr().err


# --- manifest ------------------------------------------------------------------------------------------


def test_manifest_counts_and_content_hash_match_the_written_files(built: Built) -> None:
    manifest = json.loads((built.out_dir / MANIFEST).read_text(encoding="utf-8"))
    assert manifest == built.manifest
    assert manifest["profile"] == built.name and manifest["n_cases"] == len(built.cases)
    files = sorted(p.name for p in built.out_dir.glob("*.jsonl"))
    assert files == sorted(f"{lang}.jsonl" for lang in LANGS) == sorted(manifest["files"])
    for name in files:
        assert manifest["files"][name] == hashlib.sha256((built.out_dir / name).read_bytes()).hexdigest()
    listing = "".join(f"{name}:{manifest['files'][name]}\n" for name in files)
    assert manifest["content_hash"] == hashlib.sha256(listing.encode()).hexdigest()
    cases = load_cases(built.out_dir)
    assert len(cases) == len(built.cases)
    for key, counts in manifest["counts"].items():
        assert counts == dict(sorted(Counter(str(getattr(c, key)) for c in cases).items())), key
    triples = Counter(f"{c.lang}/{c.track}/{c.subset}" for c in cases)
    assert manifest["by_lang_track_subset"] == dict(sorted(triples.items()))


# --- ijr stats -----------------------------------------------------------------------------------------


def test_ijr_stats_on_full_prints_table_5_and_every_romanized_share_is_in_the_papers_range(
    built_profiles: dict[str, Built], capsys: pytest.CaptureFixture[str]
) -> None:
    full = built_profiles["full"].out_dir
    assert main(["stats", str(full), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    shares = {lang: s["romanized_share"] for lang, s in stats["langs"].items()}
    assert sorted(shares) == sorted(LANGS)
    assert all(0.392 <= v <= 0.552 for v in shares.values()), shares
    assert main(["stats", str(full)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["lang", "n", "json", "free"] and "rom_share" in table[0]
    assert [row.split()[0] for row in table[1:13]] == sorted(LANGS)
    with capsys.disabled():
        print(f"\n[full] romanized share per language: {shares}")


# --- reproducibility -----------------------------------------------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


def test_ijr_build_twice_gives_byte_identical_files(built_profiles: dict[str, Built], tmp_path: Path) -> None:
    """Two `ijr build` processes with different hash seeds, and the in-session build, agree byte for byte."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "indicjr.cli",
                "build",
                "--profile",
                "lite",
                "--out",
                str(tmp_path / f"run{i}"),
            ],
            env=os.environ | {"PYTHONHASHSEED": str(i)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in (1, 2)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    first, second = _tree(tmp_path / "run1" / "lite"), _tree(tmp_path / "run2" / "lite")
    assert first == second
    assert first == _tree(built_profiles["lite"].out_dir)


@pytest.mark.parametrize("profile", PROFILES)
def test_committed_cases_equal_a_fresh_build(built_profiles: dict[str, Built], profile: str) -> None:
    committed = COMMITTED / profile
    if not (committed / MANIFEST).exists():
        pytest.skip(
            f"{committed.relative_to(ROOT)}/ is not committed yet (run `ijr build --profile all` and commit cases/)"
        )
    fresh = _tree(built_profiles[profile].out_dir)
    have = _tree(committed)
    assert sorted(have) == sorted(fresh), "file set differs: rebuild with `ijr build --profile all`"
    stale = [name for name in fresh if have[name] != fresh[name]]
    assert not stale, f"cases/{profile}: {stale} differ from a fresh build: rebuild with `ijr build --profile all`"
