"""Property tests of the judge's pure layers: parser, normalization, canary search, verdict invariance."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicjr.judge.contract import parse_contract
from indicjr.judge.leakage import find_canary
from indicjr.judge.normalize import normalize, normalize_lines
from indicjr.judge.verdict import judge
from indicjr.langs import LANGS

from .devset import load_devset

DEVSET = load_devset()
ZERO_WIDTHS = ("\u200b", "\u200c", "\u200d")
DECISIONS = ("REFUSE", "COMPLY", "ABSTAIN")
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text from every script the suite meets, plus the characters contracts and canaries are made of.
indic_text = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x0900, max_codepoint=0x0DFF),
        st.characters(min_codepoint=0x0600, max_codepoint=0x06FF),
        st.sampled_from(list("abcdefghijklmnopqrstuvwxyz ABC.,:;!?'\"-\n0123456789")),
        st.sampled_from(ZERO_WIDTHS),
    ),
    max_size=300,
)
any_text = st.one_of(st.text(max_size=400), indic_text)
prose = st.text(alphabet=st.characters(blacklist_characters="{}`", blacklist_categories=("Cs",)), max_size=200)


def _key(v: object) -> tuple[object, ...]:
    return tuple(
        getattr(v, f)
        for f in (
            "decision",
            "json_decision",
            "refused",
            "partial",
            "leak_canary",
            "leak_lexicon",
            "contradiction",
            "jailbroken",
        )
    )


def _insert(text: str, positions: list[int], chars: list[str]) -> str:
    out = list(text)
    for pos, ch in sorted(zip(positions, chars, strict=False), reverse=True):
        out.insert(pos % (len(out) + 1), ch)
    return "".join(out)


@PROPS
@given(any_text)
@example("{" * 5000)
@example("[" * 100_000)
@example('{"decision": "REFUSE", "justification": ' + "[" * 5000)
def test_parser_never_raises(text: str) -> None:
    result = parse_contract(text)
    assert result.valid == (result.reason is None)


@PROPS
@given(
    prose,
    prose,
    st.sampled_from(DECISIONS),
    st.text(max_size=80),
    st.sampled_from(["", "json"]),
    st.booleans(),
)
@example("", "", "REFUSE", "", "", False)
def test_valid_contract_embedded_in_prose_is_found(
    before: str, after: str, decision: str, justification: str, fence_lang: str, fenced: bool
) -> None:
    obj = json.dumps({"decision": decision.lower() if fenced else decision, "justification": justification})
    body = f"```{fence_lang}\n{obj}\n```" if fenced else obj
    result = parse_contract(f"{before} {body} {after}")
    assert result.decision == decision
    if "```" not in justification:
        assert result.justification == justification


@PROPS
@given(any_text.filter(lambda t: "decision" not in t))
def test_text_without_a_contract_is_invalid(text: str) -> None:
    assert parse_contract(text).reason is not None


@PROPS
@given(
    st.dictionaries(
        st.text(max_size=12).filter(lambda k: k not in ("decision", "justification")),
        st.one_of(st.text(max_size=20), st.integers(), st.none()),
        max_size=4,
    ),
    prose,
)
def test_json_object_without_the_keys_is_invalid(obj: dict[str, object], before: str) -> None:
    assert parse_contract(before + json.dumps(obj)).reason is not None


@PROPS
@given(any_text)
@example("ﬃ ǅ İstanbul ΣΑΣ")
@example("क़ ज़ ड़ \u0915\u093c \u0958")
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(any_text)
@example("क़\n\u093c ज़\r\n\u200dड़ \u2028 ΣΑΣ\nİ")
def test_normalize_lines_is_normalize_of_each_line(text: str) -> None:
    assert normalize_lines(text) == "\n".join(map(normalize, text.split("\n")))


@PROPS
@given(
    any_text,
    st.sampled_from([*LANGS, "en", "xx"]),
    st.sampled_from(["json", "free"]),
    st.sampled_from(["AB", "CB", "CH"]),
    st.one_of(st.none(), st.text(max_size=30)),
)
@example("", "hi", "free", "CH", "")
@example("---", "hi", "free", "CH", "---")
def test_judge_never_raises(text: str, lang: str, track: str, subset: str, canary: str | None) -> None:
    v = judge(text, lang=lang, track=track, subset=subset, canary=canary)
    assert v.decision in DECISIONS


@PROPS
@given(
    st.one_of(st.sampled_from([r["response"] for r in DEVSET]), indic_text),
    st.sampled_from(sorted({r["lang"] for r in DEVSET})),
    st.sampled_from(["free", "json"]),
)
def test_verdict_is_unchanged_by_nfc_or_nfd(text: str, lang: str, track: str) -> None:
    base = _key(judge(text, lang=lang, track=track, subset="AB", canary="IJR-1a2b3c4d-hi"))
    for form in ("NFC", "NFD"):
        variant = unicodedata.normalize(form, text)
        assert _key(judge(variant, lang=lang, track=track, subset="AB", canary="IJR-1a2b3c4d-hi")) == base


@PROPS
@given(
    st.sampled_from(DEVSET),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    st.lists(st.sampled_from(ZERO_WIDTHS), min_size=12, max_size=12),
)
def test_devset_verdict_is_unchanged_by_inserted_zero_widths(
    row: dict[str, object], positions: list[int], chars: list[str]
) -> None:
    text = str(row["response"])
    canary = row.get("canary")
    kw = {
        "lang": str(row["lang"]),
        "track": "free",
        "subset": str(row["subset"]),
        "canary": canary if isinstance(canary, str) else None,
    }
    assert _key(judge(_insert(text, positions, chars), **kw)) == _key(judge(text, **kw))  # type: ignore[arg-type]


@PROPS
@given(
    indic_text,
    st.sampled_from(sorted({r["lang"] for r in DEVSET})),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    st.lists(st.sampled_from(ZERO_WIDTHS), min_size=12, max_size=12),
)
def test_generated_verdict_is_unchanged_by_inserted_zero_widths(
    text: str, lang: str, positions: list[int], chars: list[str]
) -> None:
    kw = {"lang": lang, "track": "free", "subset": "AB", "canary": None}
    assert _key(judge(_insert(text, positions, chars), **kw)) == _key(judge(text, **kw))  # type: ignore[arg-type]


HYPHENS = ("-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212", " - ", "")
canaries = st.builds(
    lambda core, lang: f"IJR-{core}-{lang}",
    st.text(alphabet="0123456789abcdef", min_size=8, max_size=8),
    st.sampled_from(LANGS),
)


@PROPS
@given(
    canaries,
    prose,
    prose,
    st.lists(st.sampled_from([" ", "\u00a0", *ZERO_WIDTHS]), max_size=6),
    st.lists(st.integers(min_value=0, max_value=20), min_size=6, max_size=6),
    st.sampled_from(HYPHENS),
    st.sampled_from(["upper", "lower", "title", "swapcase"]),
)
@example("IJR-1a2b3c4d-hi", "", "", [], [0] * 6, "-", "upper")
def test_canary_is_found_under_trivial_obfuscation(
    canary: str, before: str, after: str, inserts: list[str], positions: list[int], hyphen: str, case: str
) -> None:
    shown = getattr(canary.replace("-", hyphen), case)()
    shown = _insert(shown, positions, inserts)
    assert find_canary(f"{before} {shown} {after}", canary) is not None
    v = judge(f"{before} {shown} {after}", lang=canary[-2:], track="free", subset="CH", canary=canary)
    assert v.leak_canary


@PROPS
@given(
    canaries,
    st.text(
        alphabet=st.characters(blacklist_characters="0123456789abcdefABCDEF", blacklist_categories=("Cs",)),
        max_size=300,
    ),
)
def test_canary_is_not_found_when_absent(canary: str, text: str) -> None:
    assert find_canary(text, canary) is None
