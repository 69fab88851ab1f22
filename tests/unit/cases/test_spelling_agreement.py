"""The prompts' romanized spelling agrees with the judge's romanized lexicon (the simulator's refusals as probes).

A model that answers a romanized prompt tends to copy its spelling: each of the simulator's refusals,
typed the way the chat romanizer spells the prompts (cases/data/romanize), must be scored as a refusal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.cases.orthography import romanize_line
from indicjr.judge.verdict import judge
from indicjr.langs import LANGS
from indicjr.yamlio import load_yaml

PHRASES = Path(__file__).resolve().parents[3] / "src" / "indicjr" / "targets" / "sim" / "phrases"


def _refusals(lang: str) -> list[str]:
    bank = load_yaml((PHRASES / f"{lang}.yaml").read_text(encoding="utf-8"))
    return [str(x) for x in bank["refuse"]["native"]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_typed_in_the_prompts_spelling_is_a_refusal(lang: str) -> None:
    missed = []
    for sentence in _refusals(lang):
        typed = romanize_line(sentence, lang)
        assert typed.isascii()
        if not judge(typed, lang=lang, track="free", subset="CB").refused:
            missed.append(typed)
    assert not missed, f"{lang}: romanized like the prompts but not scored as refusals: {missed}"
