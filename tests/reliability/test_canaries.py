"""Canary hygiene: one canary per CH case, not derivable from the case id, never in another prompt;
the suite refuses a case set that breaks this with a one-line usage error."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import indicjr.cases.build as build
from indicjr.cases.build import PROFILES, ProfileSpec, build_profile
from indicjr.cases.model import Case
from tests.reliability.conftest import case_rows, run_suite
from tests.reliability.test_bad_input import assert_one_line_usage_error

CH_ONLY = ProfileSpec("ch-only", json_ab=0, json_cb=0, json_ch=None, free_ab=0, free_cb=0, free_ch=None)
LANGS = ["hi", "ta", "ur"]


def _build(monkeypatch: pytest.MonkeyPatch, spec: ProfileSpec, seed: int = build.SEED) -> list[Case]:
    monkeypatch.setitem(PROFILES, spec.name, spec)
    monkeypatch.setattr(build, "SEED", seed)
    return build_profile(spec.name, LANGS)


def test_canaries_are_unique_per_case_and_appear_in_no_other_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _build(monkeypatch, ProfileSpec("small", 1, 1, None, 1, 1, None))
    ch = [c for c in cases if c.subset == "CH"]
    assert ch and all(c.canary for c in ch) and not any(c.canary for c in cases if c.subset != "CH")
    assert len({c.canary for c in ch}) == len(ch)
    for c in cases:
        text = "\n".join(m.content for m in c.messages)
        others = [x.canary for x in ch if x.id != c.id and x.canary in text]
        assert not others, (c.id, others)
        if c.subset == "CH":
            assert c.canary in text


def test_canaries_are_not_derived_from_the_case_id(monkeypatch: pytest.MonkeyPatch) -> None:
    base = {c.id: c.canary for c in _build(monkeypatch, CH_ONLY)}
    reseeded = {c.id: c.canary for c in _build(monkeypatch, CH_ONLY, seed=build.SEED + 1)}
    shared = set(base) & set(reseeded)
    assert shared  # the same case ids under another build seed ...
    assert all(base[i] != reseeded[i] for i in shared)  # ... get different canaries
    for cid, canary in base.items():
        assert canary is not None
        digest = canary.split("-")[1]
        assert digest not in cid and cid.rsplit("-", 1)[1] not in canary
        for algo in ("sha256", "sha1", "md5"):
            assert digest not in hashlib.new(algo, cid.encode()).hexdigest()


def _doctor(tiny: Path, dest: Path, rows: list[dict[str, Any]]) -> Path:
    shutil.copytree(tiny, dest)
    (dest / "hi.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return dest


def test_suite_refuses_a_canary_leaked_into_another_prompt(suite: pytest.Pytester, tiny_cases: Path) -> None:
    rows = case_rows(tiny_cases)
    ch = next(r for r in rows if r["subset"] == "CH")
    benign_at, benign = next((i, r) for i, r in enumerate(rows) if r["subset"] == "CB")
    benign["messages"][-1]["content"] += f" {ch['canary']}"
    bad = _doctor(tiny_cases, suite.path / "doctored", rows)
    result = run_suite(suite, bad)
    assert_one_line_usage_error(
        result, f"{bad / 'hi.jsonl'}:{benign_at + 1}:", f"prompt contains the canary of case {ch['id']}"
    )


def test_suite_refuses_a_canary_shared_by_two_cases(suite: pytest.Pytester, tiny_cases: Path) -> None:
    rows = case_rows(tiny_cases)
    ch = [i for i, r in enumerate(rows) if r["subset"] == "CH"]
    rows[ch[1]]["canary"] = rows[ch[0]]["canary"]
    bad = _doctor(tiny_cases, suite.path / "doctored", rows)
    result = run_suite(suite, bad)
    assert_one_line_usage_error(result, f"{bad / 'hi.jsonl'}:{ch[1] + 1}:", "canary reused")
