"""Wording: replies in the case's language and script, canaries quoted, contracts malformed as designed."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from indicjr.cases.sources import available_langs
from indicjr.langs import SCRIPT_OF, script_of_char
from indicjr.targets.base import Request, Settings
from indicjr.targets.sim import make_sim_target
from indicjr.targets.sim.text import FALLBACK_LANGS, PHRASES_DIR, load_bank, obfuscate

from .helpers import built_cases, case_request, synthetic

BANKED = tuple(lang for lang in available_langs() if (PHRASES_DIR / f"{lang}.yaml").is_file())
needs_banks = pytest.mark.skipif(not BANKED, reason="no language has both case data and a phrase bank yet")
TARGET = make_sim_target("reference", Settings())


def _letters(text: str) -> list[str | None]:
    return [script_of_char(ch) for ch in text if ch.isalpha()]


_SCAFFOLD = re.compile(r"decision|justification|refuse|comply|abstain|json|answer", re.IGNORECASE)


def _native_share(text: str, lang: str) -> float:
    """Share of letters in the language's script, contract keys and decision words left out."""
    scripts = _letters(_SCAFFOLD.sub("", text))
    return sum(s == SCRIPT_OF[lang] for s in scripts) / max(len(scripts), 1)


@needs_banks
@pytest.mark.parametrize("lang", BANKED)
def test_replies_to_native_cases_are_mostly_in_the_native_script(lang: str) -> None:
    reqs = [
        case_request(c, k)
        for c in built_cases(lang)
        if c.orthography == "native" and c.mode != "cross"
        for k in range(3)
    ]
    english = [TARGET.decide(r).english for r in reqs]
    shares = [_native_share(TARGET.respond(r).text, lang) for r in reqs]
    assert sum(s > 0.5 for s in shares) / len(shares) > 0.7
    assert sum(s > 0.5 for s, en in zip(shares, english, strict=True) if not en) / english.count(False) > 0.9


@needs_banks
@pytest.mark.parametrize("lang", BANKED)
def test_replies_to_romanized_cases_are_latin(lang: str) -> None:
    cases = [c for c in built_cases(lang) if c.orthography in ("romanized", "noisy")]
    texts = [TARGET.respond(case_request(c, k)).text for c in cases for k in range(3)]
    latin = [all(s == "Latin" for s in _letters(t)) for t in texts]
    assert sum(latin) / len(latin) > 0.95
    assert sum(t.isascii() for t in texts) / len(texts) > 0.85


@needs_banks
@pytest.mark.parametrize("lang", BANKED)
def test_replies_to_mixed_cases_mix_scripts(lang: str) -> None:
    cases = [c for c in built_cases(lang) if c.orthography == "mixed" and c.track == "free" and c.subset != "CH"]
    texts = [TARGET.respond(case_request(c, k)).text for c in cases for k in range(4)]
    both = [0.05 < _native_share(t, lang) < 0.95 for t in texts]
    assert sum(both) / len(both) > 0.5


@needs_banks
@pytest.mark.parametrize("lang", BANKED)
def test_every_case_of_a_built_set_gets_a_reply(lang: str) -> None:
    for c in built_cases(lang):
        r = TARGET.respond(case_request(c))
        assert r.text.strip() and r.output_tokens > 0 and r.input_tokens > 0


def test_free_ch_compliance_quotes_the_canary_with_a_vague_body() -> None:
    target = make_sim_target("paper-sarvam-1", Settings())
    seen = 0
    for i in range(300):
        req = synthetic("free", "CH", "hi", "native", i=i)
        d = target.decide(req)
        if d.action != "comply":
            continue
        seen += 1
        canary = req.condition("canary") or ""
        text = target.respond(req).text
        assert (canary in text) != d.obfuscated
        assert re.search(r"ijr.{1,3}[0-9a-f]{8}.{1,3}[a-z]{2}", text, re.IGNORECASE)
    assert seen > 200


def test_json_leaks_carry_the_canary_and_non_leaks_do_not() -> None:
    target = make_sim_target("paper-sarvam-1", Settings())
    for i in range(500):
        req = synthetic("json", "CH", "ta", "romanized", i=i)
        d = target.decide(req)
        text = target.respond(req).text
        found = re.search(r"ijr.{1,3}[0-9a-f]{8}.{1,3}[a-z]{2}", text, re.IGNORECASE) is not None
        assert found == d.leak, (d, text)


def test_obfuscated_canary_differs_but_keeps_its_parts() -> None:
    import random

    canary = "IJR-0123abcd-hi"
    for seed in range(20):
        out = obfuscate(canary, random.Random(seed))
        assert out != canary and "0123abcd" in out.lower()


def test_truncated_contracts_finish_with_length() -> None:
    target = make_sim_target("paper-sarvam-1", Settings())
    found = 0
    for i in range(600):
        req = synthetic("json", "AB", "bn", "native", "format", "same", i)
        d, r = target.decide(req), target.respond(req)
        assert (r.finish_reason == "length") == (d.contract == "truncated")
        found += d.contract == "truncated"
        if d.contract == "truncated":
            assert r.output_tokens == req.settings.max_tokens
    assert found > 20


def test_localized_decision_words_are_not_english() -> None:
    target = make_sim_target("reference", Settings())
    for i in range(3000):
        req = synthetic("json", "AB", "hi", "native", "roleplay", "same", i)
        if target.decide(req).contract == "localized_decision":
            text = target.respond(req).text
            assert "REFUSE" not in text and "COMPLY" not in text and '"decision"' in text
            return
    pytest.fail("no localized_decision contract drawn")


def test_long_free_replies_are_cut_at_max_tokens() -> None:
    req = synthetic("free", "CB", "hi", "romanized", i=1)
    req = Request(
        case_id=req.case_id, messages=req.messages, settings=Settings(max_tokens=3), conditions=req.conditions
    )
    r = TARGET.respond(req)
    assert r.output_tokens == 3 and len(r.text.split()) == 3 and r.finish_reason == "length"


def test_missing_phrase_bank_falls_back_to_english_without_warnings(tmp_path: Path) -> None:
    bank = load_bank("xx", tmp_path) if (tmp_path / "en.yaml").exists() else load_bank("xx")
    assert bank.lang == "en" and "xx" in FALLBACK_LANGS
    r = TARGET.respond(synthetic("free", "AB", "xx", "native", "format", "same", 3))
    assert r.text


def test_generate_is_async_and_matches_respond() -> None:
    req = synthetic("json", "CB", "gu", "mixed", i=5)

    async def run() -> None:
        out = await TARGET.generate(req)
        assert out == TARGET.respond(req)
        await TARGET.aclose()

    asyncio.run(run())
    TARGET.check()


def test_generation_is_fast() -> None:
    reqs = [
        synthetic(t, s, "hi", "native", "roleplay", "same", i)
        for i in range(400)
        for t in ("json", "free")
        for s in ("AB", "CB", "CH")
    ]
    for r in reqs[:50]:
        TARGET.respond(r)
    start = time.thread_time()  # CPU time: a loaded CI machine's other processes do not count against it
    for r in reqs:
        TARGET.respond(r)
    rate = len(reqs) / (time.thread_time() - start)
    assert rate > 5_000, rate  # about 30,000/s on the development machine; loose for slow CI


def test_the_simulator_never_reads_the_judge() -> None:
    src = Path(__file__).parents[3] / "src" / "indicjr" / "targets"
    for path in src.glob("sim*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(from|import)\s+indicjr\.judge|judge[/.]lexicons|\bjudge\b.*import", text), path


@pytest.mark.parametrize("path", sorted(PHRASES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_phrase_bank_loads_with_latin_romanized_phrases(path: Path) -> None:
    bank = load_bank(path.stem)
    assert bank.lang == path.stem
    for key, (_native, romanized) in bank.phrases.items():
        letters = [s for phrase in romanized for s in _letters(phrase)]
        assert sum(s == "Latin" for s in letters) / max(len(letters), 1) > 0.95, key
