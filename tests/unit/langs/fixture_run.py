"""Run in a subprocess with IJR_LANGUAGES naming the fixture registry: build the lite cases, answer the fixture
language's cases with replies written in it (refusals, or the passage restated), judge them
and print the metrics as JSON (test_fixture_language.py reads them); and let the simulator answer its
harmful cases from the bundle's phrase bank."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from indicjr.cases.build import build_profile
from indicjr.judge.lexicon import load_lexicon
from indicjr.judge.verdict import judge
from indicjr.langs import LANGS, SCRIPT_OF
from indicjr.metrics.summary import headline
from indicjr.run.results import request_for, result_row, verdict_for
from indicjr.targets.base import Response, Settings
from indicjr.targets.sim import SimTarget
from indicjr.targets.sim.profile import PROFILES_DIR, load_profile
from indicjr.targets.sim.text import FALLBACK_LANGS, load_bank

LANG = "qaa"
lexicon = load_lexicon(LANG)
refusal = {"native": lexicon.refusal[0].text, "romanized": lexicon.refusal[-1].text}
cases = [c for c in build_profile("lite") if c.lang == LANG]


def reply(case, comply_on_ab: bool) -> str:  # type: ignore[no-untyped-def]
    script = "romanized" if case.orthography in ("romanized", "noisy") else "native"
    refuse = case.subset == "CH" or (case.subset == "AB" and not comply_on_ab)
    # complying: the passage restated as the prompt wrote it (its longest line), in the prompt's orthography
    text = refusal[script] + "." if refuse else max(case.messages[-1].content.split("\n"), key=len)
    if case.track == "json":
        return json.dumps({"decision": "REFUSE" if refuse else "COMPLY", "justification": text}, ensure_ascii=False)
    return text


out: dict[str, object] = {"langs": list(LANGS), "script": SCRIPT_OF[LANG], "n_cases": len(cases)}
out["cells"] = sorted({f"{c.track}-{c.subset}-{c.orthography}" for c in cases})
out["e2_partners"] = dict(Counter(c.wrapper_lang for c in cases if c.mode == "cross" and c.wrapper_lang != "en"))
for policy in ("refuse", "comply"):
    rows = [result_row(c, r, verdict_for(c, r)) for c in cases for r in [Response(reply(c, policy == "comply"))]]
    h = headline(rows)
    out[policy] = {k: h[k] for k in ("json_jsr", "free_jsr_ab", "free_or_cb", "free_ur_ch", "json_ch_leak", "n_cases")}
# The fixture's refusal, judged with English wording alone, is not a refusal: the language's lexicon decides.
out["refusal_with_lexicon"] = judge(refusal["native"] + ".", lang=LANG, track="free", subset="AB").refused
out["refusal_english_only"] = judge(
    refusal["native"] + ".", lang=LANG, track="free", subset="AB", lexicons=(load_lexicon("en"),)
).refused
out["response_lang"] = judge(refusal["native"] + ".", lang=LANG, track="free", subset="AB").response_lang
# The simulator's bank comes from the bundle (qaa/sim_phrases.yaml), as the lexicon does: its refusals in the
# simulated replies to the harmful FREE cases, and no fallback to English.
# The shipped profiles give offsets to the 12 shipped languages, unknown to this registry: the reference
# profile without those offsets (a language without one gets none).
profile = yaml.safe_load((PROFILES_DIR / "reference.yaml").read_text(encoding="utf-8"))
profile["effects"]["lang"] = {k: v for k, v in profile["effects"]["lang"].items() if k in LANGS}
profiles = Path(tempfile.mkdtemp())
(profiles / "reference.yaml").write_text(yaml.safe_dump(profile), encoding="utf-8")
sim = SimTarget(profile=load_profile("reference", profiles))
bank = load_bank(LANG)
refusals = [*bank.phrases["refuse"][0], *bank.phrases["refuse"][1]]
harmful = [c for c in cases if c.subset == "CH" and c.track == "free"]
replies = [asyncio.run(sim.generate(request_for(c, Settings()))).text for c in harmful]
out["sim"] = {
    "bank": bank.lang,
    "fallback": sorted(FALLBACK_LANGS),
    "bank_refusals": sum(any(p in r for p in refusals) for r in replies),
    "n": len(replies),
}
json.dump(out, sys.stdout, ensure_ascii=False)
