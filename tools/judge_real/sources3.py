"""Batch 3 of the real-output corpus: the languages and prompt kinds batches 1-2 could not reach.

Why a second module: batches 1-2 (``sources.py``) left gu, kn, mr, or, pa and ur without a single row and
dev without a reply to a harmful prompt.  Three licensed public sources and the project's own runs of two
real open-weights models fill that:

- microsoft/PARIKSHA (MIT): 12-14 models answering everyday questions in gu, kn, mr, or, pa (test);
- microsoft/Multilingual-Evaluation-of-Generative-AI-MEGA (MIT): GPT-4 XL-Sum summaries in ur, pa, ne and
  GPT-3.5-Turbo explanations for te/ta reasoning items (dev);
- paul-rottger/msts-multimodal-safety (CC-BY-4.0): GPT-4o and MiniCPM-V-2.6 answering Hindi "should I ...?"
  questions about an unsafe image (the image only described) — replies to harmful prompts (dev);
- own runs (``own_rows``): SmolLM2-135M-Instruct and Gemma 3 270M served by llama-cpp-python answering the
  suite's FREE cases in all 12 languages (dev; see benchmarks/judge_corpus_llamacpp.py).

Same rules as ``sources.py``: whole sources to one split, fixed-seed samples, replies to harmful prompts
cut to their opening.  The source's own annotations (MSTS) only spread the sample; they are never stored.
"""

from __future__ import annotations

import collections
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from common import has_cue, read_csv, read_jsonl, reply_script, safety_cut, sample, short_prompt, show
from sources import Source

ROOT = Path(__file__).resolve().parents[2]


def _row(src: Source, **kw: object) -> dict:
    order = ("id", "lang", "reply_script", "prompt", "prompt_kind", "task", "reply", "truncated", "model", "path")
    fields = {k: kw[k] for k in order}
    return {**fields, "source": src.repo, "commit": src.commit, "license": src.license}


def _clip(text: str, n: int = 600) -> tuple[str, bool]:
    t = text.strip()
    return (t, False) if len(t) <= n else (t[:n].rstrip(), True)


# --- microsoft/PARIKSHA: generations of 12-14 models to 20 Karya prompts per language -------------------
_PARIKSHA_LANGS = (("gu", "gujarati"), ("kn", "kannada"), ("mr", "marathi"), ("or", "odia"), ("pa", "punjabi"))
_PARIKSHA_META = {"prompt_id", "prompt_timestamp", "prompt_creator", "prompt_type", "language", "system_prompt",
                  "prompt"}
PARIKSHA_PER_LANG, PARIKSHA_CUE = 60, 8


def _nested_sample(items: list, k: int, seed: str) -> tuple[list, list]:
    """Seeded shuffle, first k back in source order: a smaller k gives a subset of a larger one."""
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    return [items[i] for i in sorted(order[:k])], [items[i] for i in order[k:]]


def _slug(model: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", model.split("/")[-1].lower()).strip("-")


def pariksha(src: Source) -> Iterator[dict]:
    for lang, name in _PARIKSHA_LANGS:
        path = f"outputs/round1/formatted/output_{name}.json"
        items = []
        for x in json.loads(show(src.repo, src.commit, path)):
            for model, v in x.items():
                if model not in _PARIKSHA_META and isinstance(v, dict) and (v.get("response") or "").strip():
                    items.append((x, model, v["response"].strip()))
        picked, rest = _nested_sample(items, PARIKSHA_PER_LANG, f"pariksha/{lang}")
        cue, _ = _nested_sample([it for it in rest if has_cue(it[2], lang)], PARIKSHA_CUE, f"pariksha-cue/{lang}")
        article = "an" if name == "odia" else "a"
        for stratum, chosen in (("", picked), ("cue-", cue)):
            for x, model, text in chosen:
                reply, cut = _clip(text)
                yield _row(src, id=f"pariksha-{stratum}{_slug(model)}-{lang}-{x['prompt_id'][:8]}", lang=lang,
                           reply_script=reply_script(reply, lang), prompt=short_prompt(x["prompt"]),
                           prompt_kind="benign",
                           task=f"answer {article} {name.title()} user question ({x['prompt_type']}) in "
                                f"{name.title()}, under 300 words",
                           reply=reply, truncated=cut, model=model, path=path)


# --- MEGA: GPT-4 XL-Sum predictions (ur, pa, ne) and GPT-3.5-Turbo explanations (te, ta) ----------------
_MEGA_XLSUM = (("ur", "urdu", 100), ("pa", "punjabi", 100), ("ne", "nepali", 27))
_MEGA_EXPL = {
    "te": ("analysis/results/explanations/xstorycloze/gpt-35-turbo/te/"
           "explanationsTrue_system_prompt_rolesystem_seed42/predictions.csv",
           "pick the right ending of a Telugu four-sentence story and explain the choice "
           "(XStoryCloze te, MEGA explanation prompt)",
           "XStoryCloze te item {i}: four Telugu story sentences and two candidate endings (text not stored); "
           "choose the ending and explain"),
    "ta": ("analysis/results/COT/xcopa/gpt-35-turbo/ta/explanationsTrue_system_prompt_roleuser_seed42/"
           "predictions.csv",
           "choose the more plausible cause/effect for a Tamil premise, thinking step by step "
           "(XCOPA ta, MEGA chain-of-thought prompt)",
           "XCOPA ta item {i}: a Tamil premise and two Tamil alternatives (text not stored); "
           "think step by step and answer 0 or 1"),
}


def mega(src: Source) -> Iterator[dict]:
    for lang, name, k in _MEGA_XLSUM:
        path = f"gpt-4-all-lang-eval/{name}_predictions.csv"  # JSON lines despite the .csv name
        items = [r for r in read_jsonl(src.repo, src.commit, path) if str(r.get("prediction", "")).strip()]
        seed = "mega/gpt-4/xlsum/nepali" if lang == "ne" else f"mega/gpt-4/{lang}"
        article = "an" if name == "urdu" else "a"
        for r in sample(items, k, seed):
            reply, cut = _clip(r["prediction"])
            rid = f"mega-gpt-4-xlsum-ne-{r['q_idx']}" if lang == "ne" else f"mega-gpt-4-{lang}-{r['q_idx']}"
            where = f"XL-Sum {name} test item {r['q_idx']}" + ("" if lang == "ne" else " in MEGA's order")
            yield _row(src, id=rid, lang=lang, reply_script=reply_script(reply, lang),
                       prompt=f"Summarize {article} {name.title()} BBC news article ({where}; few-shot MEGA "
                              "prompt; article text not stored)",
                       prompt_kind="benign", task=f"summarize {article} {name.title()} news article",
                       reply=reply, truncated=cut, model="gpt-4", path=path)
    for lang, (path, task, prompt) in _MEGA_EXPL.items():
        items = [r for r in read_csv(src.repo, src.commit, path) if r["Prediction With Explanation"].strip()]
        for r in sample(items, 10, f"mega/gpt-35-turbo/{lang}"):
            reply = r["Prediction With Explanation"].strip()
            yield _row(src, id=f"mega-gpt-35-turbo-{lang}-{r['']}", lang=lang,
                       reply_script=reply_script(reply, lang), prompt=prompt.format(i=r[""]),
                       prompt_kind="benign", task=task, reply=reply, truncated=False, model="gpt-35-turbo",
                       path=path)


# --- MSTS: Hindi "should I ...?" questions about an unsafe image ------------------------------------------
_MSTS_PATH = "data/response_annotations/hindi_multimodal.csv"
_MSTS_MODELS = {"gpt-4o-2024-05-13": "gpt-4o-2024-05-13", "openbmb/MiniCPM-V-2_6": "minicpm-v-2.6"}
# Per (model, source annotation group) quota, 150 rows: the small model's unsafe and refusing replies
# nearly whole, GPT-4o (which almost always declines) its refusals and its other safe replies.
_MSTS_QUOTA = {("gpt-4o-2024-05-13", "refuse"): 45, ("gpt-4o-2024-05-13", "other"): 28,
               ("openbmb/MiniCPM-V-2_6", "unsafe"): 40, ("openbmb/MiniCPM-V-2_6", "other"): 25,
               ("openbmb/MiniCPM-V-2_6", "refuse"): 12}


def _msts_group(label: str) -> str:
    if label.startswith("2."):
        return "unsafe"
    return "refuse" if label.startswith(("1.1", "1.2")) else "other"


def _msts_cut(reply: str, compliant: bool) -> tuple[str, bool]:
    """The corpus's safety cut; replies the source marks as compliant keep only 200 characters."""
    text, was_cut = safety_cut(reply, max_sentences=2, max_chars=200 if compliant else 400)
    if not text:  # the reply opens with a list or heading: the first line's opening only
        first = reply.strip().splitlines()[0]
        text, was_cut = (first[:200].rsplit(" ", 1)[0] if len(first) > 200 else first), True
    return text, was_cut


def msts(src: Source) -> Iterator[dict]:
    cells: dict[tuple[str, str], list[dict]] = collections.defaultdict(list)
    for r in read_csv(src.repo, src.commit, _MSTS_PATH):
        if r["response"].strip():
            cells[(r["model"], _msts_group(r["annot1_label"]))].append(r)
    for (model, grp), items in sorted(cells.items()):
        for r in sample(items, _MSTS_QUOTA.get((model, grp), 0), f"msts/{model}/{grp}"):
            reply, cut = _msts_cut(r["response"], compliant=grp == "unsafe")
            yield _row(src, id=f"msts-{_MSTS_MODELS[model]}-{r['case_id']}", lang="hi",
                       reply_script=reply_script(reply, "hi"),
                       prompt=f"{r['prompt_text'].strip()} [image: {r['unsafe_image_description'].strip()}]",
                       prompt_kind="harmful",
                       task="reply to a Hindi question about an attached unsafe image (MSTS multimodal safety "
                            "test; the image is described in brackets)",
                       reply=reply, truncated=cut, model=_MSTS_MODELS[model], path=_MSTS_PATH)


# --- own runs: SmolLM2-135M-Instruct and Gemma 3 270M on llama-cpp-python answering the suite's FREE cases --
_OWN_MODELS = {"smollm2": "SmolLM2-135M-Instruct Q4_1", "gemma3": "Gemma 3 270M base Q4_K_M"}
_OWN_RUNS = ROOT / "benchmarks" / "judge_corpus_llamacpp_rows.jsonl"  # benchmarks/judge_corpus_llamacpp.py
_OWN_REAL_RUNS = ROOT / "benchmarks" / "real_runs_labels" / "replies_labeled.jsonl"  # benchmarks/real_runs.py
_OWN_REAL_RUNS_COMMIT = "99d62fd5daff083d38532a3879cc5e40903fd905"  # where those replies were last written


def _own(src: Source, *, rid: str, lang: str, prompt: str, kind: str, task: str | None, reply: str,
         model: str, commit: str, path: str, cut_before: bool) -> dict:
    """A row of the project's own runs: the same cuts as every source (harmful and attacked replies keep
    their opening; prompts at most 300 characters: the full prompt is the case `rid` names)."""
    text, cut = safety_cut(reply) if kind in ("harmful", "attacked") else (reply.strip(), False)
    fields = _row(src, id=rid, lang=lang, reply_script=reply_script(text, lang), prompt=short_prompt(prompt),
                  prompt_kind=kind, task=task, reply=text, truncated=cut or cut_before, model=model, path=path)
    return {**fields, "commit": commit}


def own_runs(src: Source) -> Iterator[dict]:
    """The suite's FREE cases answered by two real open-weights models (generated here; rows MIT like the
    project: SmolLM2 is Apache-2.0 and the Gemma terms claim no rights in outputs). Labelers saw the reply
    at up to 600 characters (200 on harmful requests); the stored reply is cut as above."""
    for line in _OWN_RUNS.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        yield _own(src, rid=r["id"], lang=r["lang"], prompt=r["prompt"], kind=r["prompt_kind"], task=r["task"],
                   reply=r["reply"], model=r["model"], commit=r["commit"], path=r["path"],
                   cut_before=r["truncated"])
    for line in _OWN_REAL_RUNS.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        short, case_id = r["id"].split(":", 1)
        yield _own(src, rid=f"llcpp-rr-{short}-{case_id}", lang=r["lang"], prompt=r["prompt"], kind=r["prompt_kind"],
                   task=r["task"], reply=r["reply"], model=_OWN_MODELS[short], commit=_OWN_REAL_RUNS_COMMIT,
                   path="benchmarks/real_runs.py", cut_before=False)


BATCH3: tuple[Source, ...] = (
    Source("microsoft/PARIKSHA", "03bac88c3d899b008efd9671b11109b11676b7c4", "MIT", "pariksha", pariksha),
    Source("microsoft/Multilingual-Evaluation-of-Generative-AI-MEGA", "3e96bab146151942ed6a7bbe59c0364a78ebf94f",
           "MIT", "mega", mega),
    Source("paul-rottger/msts-multimodal-safety", "e9ae69e8f1ab87ab2bb2ed7c51e992e0430f12e3", "CC-BY-4.0", "msts",
           msts),
    Source("own: indicjr llama.cpp runs", "", "MIT", "llcpp", own_runs),
)
SPLIT3 = {"pariksha": "test", "mega": "dev", "msts": "dev", "llcpp": "dev"}
