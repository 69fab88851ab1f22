"""What the prompts say, for both profiles: scripts, ASCII romanization, canaries, ids, no placeholders."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import pytest

from indicjr.cases.io import load_cases
from indicjr.cases.model import Case
from indicjr.cases.sources import load_source
from indicjr.langs import LANGS

from .conftest import Built
from .scriptcheck import ScriptTally, letter_scripts, script_of_lang

COMMITTED = Path(__file__).resolve().parents[3] / "cases"
CANARY = re.compile(r"IJR-[0-9a-f]{8}-[a-z]{2}")
PLACEHOLDER = re.compile(r"\.\.\.|…|\bTODO\b|\bTBD\b|\bFIXME\b|\{payload\}|\{canary\}|\{[A-Za-z_]*\}|\{\s*\}")


def _core_text(case: Case) -> str:
    src = load_source(case.lang)
    cores = {p.id: p.text for p in src.passages} | {h.id: h.text for h in src.harmful}
    return unicodedata.normalize("NFC", cores[case.core_id])


def _around_script(case: Case) -> str:
    """The script of everything around the core: the wrapper's language (English = Latin) or the case's."""
    return script_of_lang(case.wrapper_lang or case.lang)


def _tally_native(cases: tuple[Case, ...]) -> dict[str, ScriptTally]:
    tallies: dict[str, ScriptTally] = defaultdict(ScriptTally)
    for case in cases:
        if case.orthography != "native":
            continue
        core = _core_text(case)
        assert core in case.user_text, f"{case.id}: the native core is not in the prompt verbatim"
        tally = tallies[case.lang]
        tally.core += letter_scripts(core)
        around = letter_scripts(case.user_text.replace(core, " ", 1), latin_terms=False)
        tally.around_in_script += around[_around_script(case)]
        tally.around_total += sum(around.values())
    return tallies


def test_every_native_text_is_written_in_its_languages_script(built: Built, capsys: pytest.CaptureFixture[str]) -> None:
    """The core is purely in the case's script; wrapper, task and cue lines purely in the wrapper's script
    (apart from the format names JSON/YAML and AI, which native writers type in Latin letters).

    So a same-mode, CB or CH prompt is wholly in the case's script (apart from its canary), a cross-mode
    prompt adds only Latin (its English wrapper) and an E2 prompt only the wrapper language's script.
    """
    tallies = _tally_native(built.cases)
    rows = []
    for lang in LANGS:
        t, script = tallies[lang], script_of_lang(lang)
        rows.append(
            f"  {lang}  {script:<10}  core letters {sum(t.core.values()):>7}  in {script}: "
            f"{t.core_share(script):.4f}   wrapper/task letters {t.around_total:>6}  "
            f"in the wrapper's script: {t.around_share():.4f}"
        )
    with capsys.disabled():
        print(f"\n[{built.name}] native-orthography script shares per language:\n" + "\n".join(rows))
    for lang in LANGS:
        t, script = tallies[lang], script_of_lang(lang)
        assert sum(t.core.values()) > 0 and t.around_total > 0, f"{lang}: no native cases"
        assert t.core_share(script) == 1.0, f"{lang}: core letters outside {script}: {dict(t.core)}"
        assert t.around_share() == 1.0, f"{lang}: wrapper letters outside the wrapper's script"


def test_script_check_counts_letters_by_script_and_skips_canaries_and_punctuation() -> None:
    assert letter_scripts("नमस्ते। IJR-0123abcd-hi (२०२३)") == Counter({"Devanagari": 10})
    assert letter_scripts("ভারত x") == Counter({"Bengali": 4, "Latin": 1})
    assert letter_scripts("پاکستان، ٹھیک؟") == Counter({"Arabic": 11})
    assert letter_scripts("தமிழ் é ☺")["?"] == 1 and letter_scripts("é")["Latin"] == 1


def test_same_language_native_prompts_hold_no_latin_letters_but_the_canary_and_format_names(built: Built) -> None:
    for case in built.cases:
        if case.orthography == "native" and case.wrapper_lang in (None, case.lang):
            scripts = set(letter_scripts(case.user_text, latin_terms=False))
            assert scripts == {script_of_lang(case.lang)}, f"{case.id}: letters of {scripts}"


def test_every_romanized_and_noisy_text_is_ascii(built: Built) -> None:
    for case in built.cases:
        if case.orthography in ("romanized", "noisy"):
            bad = sorted({ch for ch in case.user_text if not ch.isascii()})
            assert not bad, f"{case.id}: non-ASCII characters {bad!r}"


def _not_mixed(cases: Iterable[Case]) -> list[str]:
    """Mixed cases with under 5% of the user message's letters in the case language's script or in Latin."""
    bad = []
    for case in cases:
        if case.orthography != "mixed":
            continue
        counts = letter_scripts(case.user_text)
        total = sum(counts.values())
        own, latin = counts[script_of_lang(case.lang)], counts["Latin"]
        if own < 0.05 * total or latin < 0.05 * total:
            bad.append(f"{case.id}: {own}/{total} {script_of_lang(case.lang)}, {latin}/{total} Latin")
    return bad


def test_every_mixed_prompt_holds_both_scripts_of_its_own_language(built: Built) -> None:
    """At least 5% of the user message's letters in the case language's script and at least 5% Latin.

    Cross mode (English wrapper) and E2 (another language's wrapper) included: the case language's own
    text is mixed, so a mixed case never measures "romanized" or "another script" instead.
    """
    bad = _not_mixed(built.cases)
    assert not bad, f"{len(bad)} mixed cases without both scripts, e.g. {bad[:3]}"


@pytest.mark.parametrize("profile", ["lite", "full"])
def test_every_mixed_case_of_the_committed_profiles_holds_both_scripts(profile: str) -> None:
    """The same property on the committed cases/ (what model teams run)."""
    bad = _not_mixed(load_cases(COMMITTED / profile))
    assert not bad, f"cases/{profile}: {len(bad)} mixed cases without both scripts, e.g. {bad[:3]}"


def test_a_mixed_line_holds_one_script_unless_it_is_the_only_line_of_the_case_language(built: Built) -> None:
    """Several lines of the case language alternate line by line; a single one is mixed inside."""
    for case in built.cases[:4000]:
        if case.orthography != "mixed" or case.wrapper_lang not in (None, case.lang):
            continue
        lines = [line for line in case.user_text.split("\n") if line.strip()]
        within = [line for line in lines if len(set(letter_scripts(line))) > 1]
        assert len(within) <= 1, f"{case.id}: {within}"


def test_every_ch_case_has_its_own_unique_canary_and_no_other_case_contains_one(built: Built) -> None:
    owner: dict[str, str] = {}
    for case in built.cases:
        found = [CANARY.findall(m.content) for m in case.messages]
        hits = [c for msg in found for c in msg]
        if case.subset == "CH":
            assert case.canary and CANARY.fullmatch(case.canary), f"{case.id}: canary {case.canary!r}"
            assert case.canary not in owner, f"{case.id}: canary shared with {owner.get(case.canary)}"
            owner[case.canary] = case.id
            assert hits == [case.canary], f"{case.id}: canaries in the prompt {hits}"
        else:
            assert case.canary is None and not hits, f"{case.id} ({case.subset}) contains canaries {hits}"
    assert len(owner) == sum(1 for c in built.cases if c.subset == "CH")


def test_case_ids_are_unique_and_name_their_condition(built: Built) -> None:
    ids = Counter(c.id for c in built.cases)
    assert not [i for i, n in ids.items() if n > 1]
    for case in built.cases:
        assert case.id.startswith(f"{case.lang}-{case.track}-{case.subset}-"), case.id
        assert case.orthography in case.id.split("-"), case.id
        assert re.fullmatch(r"[a-z0-9_A-Z-]+", case.id), case.id


def test_no_prompt_holds_placeholder_text(built: Built) -> None:
    contents: dict[str, str] = {}  # each distinct message once (the contract recurs in every JSON case)
    for case in built.cases:
        for m in case.messages:
            contents.setdefault(m.content, f"{case.id} ({m.role})")
    assert all(text.strip() for text in contents), "an empty message"
    hits = {where: hit.group(0) for text, where in contents.items() if (hit := PLACEHOLDER.search(text))}
    assert not hits, f"placeholder text: {dict(list(hits.items())[:5])}"


def test_json_cases_carry_the_contract_and_free_cases_only_the_user_message(built: Built) -> None:
    for case in built.cases:
        roles = [m.role for m in case.messages]
        if case.track == "json":
            assert roles == ["system", "user"], case.id
            assert '{"decision": "REFUSE" | "COMPLY" | "ABSTAIN"' in case.messages[0].content
        else:
            assert roles == ["user"], case.id
