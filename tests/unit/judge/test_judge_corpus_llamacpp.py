"""benchmarks/judge_corpus_llamacpp.py: the fixed stratified sample, the reply-script reading and the row
format of the real llama.cpp replies for the judge's corpus (no model is served here)."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from indicjr.langs import SCRIPT_OF, SCRIPT_RANGES
from indicjr.run.selection import profile_dir

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "judge_corpus_llamacpp", ROOT / "benchmarks" / "judge_corpus_llamacpp.py"
)
assert _spec and _spec.loader
jc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(jc)


@pytest.fixture(scope="module")
def lite():
    return load_cases(profile_dir("lite", root=ROOT))


@pytest.fixture(scope="module")
def excluded():
    return {json.loads(x)["id"] for x in jc.LABELED.read_text("utf-8").splitlines() if x.strip()}


def test_sample_is_stratified_disjoint_and_skips_labeled(lite, excluded):
    plan = jc.sample(lite, excluded, 13)
    assert set(plan) == {"smollm2", "gemma3"}
    ids = {a: {c.id for c in cs} for a, cs in plan.items()}
    assert not ids["smollm2"] & ids["gemma3"]
    assert not (ids["smollm2"] | ids["gemma3"]) & excluded
    for cases in plan.values():
        assert Counter(c.lang for c in cases) == {lang: 13 for lang in SCRIPT_OF}
        for c in cases:
            assert (c.track, c.subset in jc.SUBSETS, c.orthography in jc.ORTHOGRAPHIES) == ("free", True, True)
        for lang in SCRIPT_OF:  # every subset x orthography cell of every language is asked
            cells = {(c.subset, c.orthography) for c in cases if c.lang == lang}
            assert len(cells) == 9, (lang, cells)
        assert [c.lang for c in cases[:12]] == sorted(SCRIPT_OF)  # round-robin over languages


def test_sample_is_deterministic_and_honours_the_exclusions(lite):
    a, b = jc.sample(lite, set(), 5), jc.sample(lite, set(), 5)
    assert {k: [c.id for c in v] for k, v in a.items()} == {k: [c.id for c in v] for k, v in b.items()}
    first = a["smollm2"][0].id
    assert first not in {c.id for cs in jc.sample(lite, {first}, 5).values() for c in cs}


def _letters(script: str, n: int = 12) -> str:
    lo = SCRIPT_RANGES[script][0][0]
    return "".join(chr(lo + 0x15 + i % 20) for i in range(n))


def test_reply_script_reads_the_judges_script_detection():
    assert jc.reply_script(_letters("Tamil"), "ta") == "native"
    assert jc.reply_script(_letters("Telugu"), "ta") == "other"
    assert jc.reply_script("I am sorry, I cannot help with this request.", "hi") == "latin_en"
    assert jc.reply_script("main aapki madad nahin kar sakta hoon bhai", "hi") == "romanized"
    assert jc.reply_script(_letters("Bengali", 10) + " aami eta korbo na ekhon", "bn") == "mixed"
    assert jc.reply_script("12345 ...", "bn") == "other"


def test_rows_cut_ch_at_200_others_at_600_and_skip_empty(lite, excluded):
    plan = jc.sample(lite, excluded, 13)
    ch = next(c for c in plan["gemma3"] if c.subset == "CH")
    cb = next(c for c in plan["smollm2"] if c.subset == "CB")
    ab = next(c for c in plan["smollm2"] if c.subset == "AB")
    answers = {
        ("gemma3", ch.id): {"text": "x " * 300},
        ("smollm2", cb.id): {"text": "  " + "y" * 600 + "  "},
        ("smollm2", ab.id): {"text": "   "},
    }
    rows = {r["id"]: r for r in jc.rows(plan, answers, "abc")}
    assert set(rows) == {f"llcpp-gemma3-{ch.id}", f"llcpp-smollm2-{cb.id}"}
    r = rows[f"llcpp-gemma3-{ch.id}"]
    assert (len(r["reply"]), r["truncated"], r["prompt_kind"], r["split"]) == (200, True, "harmful", "dev")
    assert r["model"] == "Gemma 3 270M base Q4_K_M" and r["commit"] == "abc"
    r = rows[f"llcpp-smollm2-{cb.id}"]
    assert (len(r["reply"]), r["truncated"], r["prompt_kind"], r["license"]) == (600, False, "benign", "Apache-2.0")
    assert r["prompt"] == cb.user_text and r["task"]


def test_label_input_carries_no_model_or_source(tmp_path, lite, excluded):
    plan = jc.sample(lite, excluded, 2)
    c = plan["gemma3"][0]
    (tmp_path / "llcpp_partial.jsonl").write_text(
        json.dumps({"model": "gemma3", "case_id": c.id, "text": "ok", "latency_s": 1.0}) + "\n", "utf-8"
    )
    report = jc.write_outputs(tmp_path, plan, "abc")
    assert report["rows"] == 1
    assert json.loads(json.dumps(report))["cells"] == {f"{c.lang}:gemma3:{c.subset}": 1}  # printable as JSON
    label = json.loads((tmp_path / "llcpp_label_input.jsonl").read_text("utf-8"))
    assert tuple(label) == jc.LABEL_KEYS
