"""Run in a subprocess with IJR_LANGUAGES naming the fixture registry: build the lite cases, answer the fixture
language's cases with replies written in it (refusals, or the passage restated), judge them
and print the metrics as JSON (test_fixture_language.py reads them)."""

from __future__ import annotations

import json
import sys
from collections import Counter

from indicjr.cases.build import build_profile
from indicjr.judge.lexicon import load_lexicon
from indicjr.judge.verdict import judge
from indicjr.langs import LANGS, SCRIPT_OF
from indicjr.metrics.summary import headline
from indicjr.run.results import result_row, verdict_for
from indicjr.targets.base import Response

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
json.dump(out, sys.stdout, ensure_ascii=False)
