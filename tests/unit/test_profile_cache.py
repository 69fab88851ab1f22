"""The built-in profile cache (.ijr/cases/<profile>) is built atomically: xdist workers that find it
missing at the same time must never read a half-written folder (they would collect different tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import indicjr.cases.build as build_mod
import indicjr.cases.io as io_mod
from indicjr.cases.build import build_profile
from indicjr.run.selection import profile_dir


@pytest.fixture
def few_cases(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    cases = build_profile("lite", ["hi"])[:12]
    monkeypatch.setattr(build_mod, "build_profile", lambda profile, *a, **k: cases)
    return cases


def test_the_cache_is_written_elsewhere_then_renamed_into_place(
    tmp_path: Path, few_cases: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    targets: list[Path] = []
    real = io_mod.write_cases

    def spy(cases: Any, out: Path, **kw: Any) -> Any:
        targets.append(out)
        assert not (tmp_path / ".ijr" / "cases" / "lite").exists()  # nothing visible while writing
        return real(cases, out, **kw)

    monkeypatch.setattr(io_mod, "write_cases", spy)
    got = profile_dir("lite", root=tmp_path)
    assert got == tmp_path / ".ijr" / "cases" / "lite" and (got / "manifest.json").is_file()
    assert targets and targets[0] != got
    assert sorted(p.name for p in got.parent.iterdir()) == ["lite"]  # no temporary folder left


def test_losing_the_race_to_another_builder_keeps_its_folder_and_raises_nothing(
    tmp_path: Path, few_cases: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = io_mod.write_cases
    final = tmp_path / ".ijr" / "cases" / "lite"

    def other_process_wins(cases: Any, out: Path, **kw: Any) -> Any:
        real(cases, final, **kw)  # another worker finishes first
        return real(cases, out, **kw)

    monkeypatch.setattr(io_mod, "write_cases", other_process_wins)
    got = profile_dir("lite", root=tmp_path)
    assert got == final and (got / "manifest.json").is_file()
    assert sorted(p.name for p in got.parent.iterdir()) == ["lite"]
