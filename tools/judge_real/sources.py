"""One adapter per public source of real model replies (see tests/data/judge_real/SOURCES.md).

Each adapter reads the source's own result files at a pinned commit and yields rows without ``split``;
``build.py`` assigns whole sources to dev or test.  Selection inside a source is a fixed-seed sample so
the corpus is reproducible; replies to harmful or attacked prompts pass through ``safety_cut``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import csv
import io
import json
import zipfile

import pandas as pd

from common import has_cue, read_csv, reply_script, safety_cut, sample, short_prompt, show, show_bytes


@dataclass(frozen=True, slots=True)
class Source:
    repo: str
    commit: str
    license: str
    slug: str
    build: Callable[["Source"], Iterator[dict]]


def make_row(src: Source, idx: str, lang: str, prompt: str, kind: str, task: str | None,
             reply: str, model: str, path: str) -> dict:
    """The row dict (no split yet); harmful/attacked replies are cut to their opening."""
    text, cut = (safety_cut(reply) if kind in ("harmful", "attacked") else (reply.strip(), False))
    fields = dict(id=f"{src.slug}-{idx}", lang=lang, reply_script=reply_script(text, lang),
                  prompt=short_prompt(prompt), prompt_kind=kind, task=task, reply=text, truncated=cut,
                  model=model, source=src.repo, commit=src.commit, path=path, license=src.license)
    return fields


# --- sujitha-madda/multilingual-llm-hallucination-evaluation (MIT) ---------------------------------
# TruthfulQA questions translated into bn/hi/ml/ta/te, answered by Llama-2-7B, Qwen-1.5-1.8B, Phi-4.
# The raw files keep the generated answer as produced (short, often cut, echoed or garbled).
_TQA_FILES = {
    ("llama-2-7b", "bn"): ("data/raw/llama2/truthfulqa_llama2_Bengali.csv", "question_bn", "answer_generated_bn"),
    ("llama-2-7b", "hi"): ("data/raw/llama2/truthfulqa_llama2_Hindi.csv", "question_hi", "answer_generated_hi"),
    ("llama-2-7b", "ml"): ("data/raw/llama2/truthfulqa_llama2_Mlym.csv", "question_ml", "answer_generated_ml"),
    ("llama-2-7b", "ta"): ("data/raw/llama2/truthfulqa_llama2_Tamil.csv", "question_ta", "answer_generated_ta"),
    ("llama-2-7b", "te"): ("data/raw/llama2/truthfulqa_llama2_Telugu.csv", "question_te", "answer_generated_te"),
    ("qwen-1.5-1.8b", "bn"): ("data/raw/qwen/truthfulqa_qwen_Bengali_CLEAN.csv", "question_bn", "answer_generated_bn"),
    ("qwen-1.5-1.8b", "hi"): ("data/raw/qwen/truthfulqa_qwen_Hindi_CLEAN.csv", "question_hi", "answer_generated_hi"),
    ("qwen-1.5-1.8b", "ml"): ("data/raw/qwen/truthfulqa_qwen_Malayalam_CLEAN.csv", "question_ml", "answer_generated_ml"),
    ("qwen-1.5-1.8b", "ta"): ("data/raw/qwen/truthfulqa_qwen_Tamil_CLEAN.csv", "question_ta", "answer_generated_ta"),
    ("qwen-1.5-1.8b", "te"): ("data/raw/qwen/truthfulqa_qwen_Telugu_CLEAN.csv", "question_te", "answer_generated_te"),
    ("phi-4", "bn"): ("data/cleaned_final/phi4/phi4_clean_final_bengali.csv", "question_bn", "answer_generated_bn"),
    ("phi-4", "hi"): ("data/cleaned_final/phi4/phi4_clean_final_hindi.csv", "question_hi", "answer_generated_hi"),
    ("phi-4", "ml"): ("data/cleaned_final/phi4/phi4_clean_final_mly.csv", "question_ml", "answer_generated_ml"),
    ("phi-4", "ta"): ("data/cleaned_final/phi4/phi4_clean_final_tam.csv", "question_ta", "answer_generated_ta"),
    ("phi-4", "te"): ("data/cleaned_final/phi4/phi4_clean_final_tel.csv", "question_te", "answer_generated_te"),
}


def cue_stratum(rows: list, picked: list, lang: str, text_of: Callable[[dict], str], seed: str) -> list:
    """Rows outside the random sample whose reply has an apology/inability cue (refusal_cues.json),
    at most CUE_CAP of them: refusals are rare in these sources, and the judge needs them."""
    chosen = {id(r) for r in picked}
    extra = [r for r in rows if id(r) not in chosen and has_cue(text_of(r), lang)]
    return sample(extra, CUE_CAP, seed)


def _truthfulqa(src: Source) -> Iterator[dict]:
    task = "answer a general-knowledge question (TruthfulQA, translated)"
    for (model, lang), (path, qcol, acol) in sorted(_TQA_FILES.items()):
        rows = read_csv(src.repo, src.commit, path)
        rows = [r for r in rows if (r.get(acol) or "").strip() and (r.get(qcol) or "").strip()]
        picked = sample(rows, PER_CELL[src.slug], f"{src.slug}/{model}/{lang}")
        cues = cue_stratum(rows, picked, lang, lambda r: r[acol], f"{src.slug}/cue/{model}/{lang}")
        for stratum, group in (("", picked), ("cue-", cues)):
            for r in group:
                rid = r.get("id") or r.get("\ufeffid")
                yield make_row(src, f"{stratum}{model}-{lang}-{rid}", lang, r[qcol], "benign", task,
                               r[acol], model, path)




# --- for-ai/language-confusion (Apache-2.0) --------------------------------------------------------
# Language Confusion Benchmark: completions (max 100 tokens, as generated) of ten models to Hindi
# monolingual prompts (Dolly, human-edited) and to English prompts asking for a Hindi reply
# (Okapi, ShareGPT, complex prompts).  Base models often continue or drift instead of answering.
_LCB_MODELS = ("command-r", "command-r-plus", "command-r-base", "command-r-plus-base", "gpt-3.5-turbo",
               "gpt-4-turbo", "llama-2-instruct", "llama-3-instruct", "mistral-8x7b", "mistral-large")
_LCB_SETS = {"dolly_human_edited": "test_sets/monolingual/dolly/hi.csv",
             "okapi": "test_sets/crosslingual/okapi/hi.csv",
             "sharegpt": "test_sets/crosslingual/sharegpt/hi.csv",
             "complex_prompts": "test_sets/crosslingual/complex_prompts/hi.csv"}


def _lcb_prompts(src: Source) -> dict[str, list[str]]:
    archive = zipfile.ZipFile(io.BytesIO(show_bytes(src.repo, src.commit, "test_sets.zip")))
    out = {}
    for name, member in _LCB_SETS.items():
        with archive.open(member) as fh:
            out[name] = [r["prompt"] for r in csv.DictReader(io.TextIOWrapper(fh, encoding="utf-8"))]
    return out


def _language_confusion(src: Source) -> Iterator[dict]:
    prompts = _lcb_prompts(src)
    for model in _LCB_MODELS:
        path = f"outputs/{model}.csv"
        rows = [r for r in read_csv(src.repo, src.commit, path) if r["language"] == "hi"]
        rows = [r for r in rows if r["source"] in _LCB_SETS and r["completion"].strip()]
        picked = [r for name in sorted(_LCB_SETS)
                  for r in sample([x for x in rows if x["source"] == name], PER_CELL[src.slug],
                                  f"{src.slug}/{model}/{name}")]
        cues = cue_stratum(rows, picked, "hi", lambda r: r["completion"], f"{src.slug}/cue/{model}")
        for stratum, group in (("", picked), ("cue-", cues)):
            for r in group:
                name = r["source"]
                task = ("answer the request in Hindi (Dolly, human-edited Hindi prompt)" if name.startswith("dolly")
                        else f"follow the English instruction and reply in Hindi ({name} prompt)")
                yield make_row(src, f"{stratum}{model}-{name}-{r['id']}", "hi", prompts[name][int(r["id"])],
                               "benign", task, r["completion"], model, path)


# --- zabir-nabil/bangla-multilingual-llm-eval (MIT) -------------------------------------------------
# Bengali news summarization (XL-Sum BBC Bangla articles) by six models under zero-shot, three-shot and
# chain-of-thought prompts.  The article text is CC BY-NC-SA, so only its XL-Sum id is stored as prompt;
# BLOOM-7b1 is left out because its outputs echo the prompt, article text included.
_BNSUM_FILES = {
    "aya-101": ["results/aya/summarization_eval/aya_101_%s_summary_results.parquet" % k for k in ("zs", "ts", "cot")],
    "gpt-3.5-turbo": ["results/gpt_3.5/summarization_eval/gpt3_5_turbo_%s_summary_results.parquet" % k for k in ("zs", "ts", "cot")],
    "gpt-4o": ["results/gpt_4o/summarization_eval/gpt4omni_%s_summary_results.parquet" % k for k in ("zs", "ts", "cot")],
    "gemini-1.5-flash": ["results/gemini/gemini_%s_summary_results.parquet" % k for k in ("ts", "cot")],
    "llama-3-8b-instruct": ["results/llama/llama_%s_summary_results.parquet" % k for k in ("ts", "cot")],
}


def _bangla_summaries(src: Source) -> Iterator[dict]:
    for model, paths in sorted(_BNSUM_FILES.items()):
        for path in paths:
            raw = show_bytes(src.repo, src.commit, path)
            if not raw:
                continue
            frame = pd.read_parquet(io.BytesIO(raw))
            rows = [r for r in frame.to_dict("records")
                    if isinstance(r.get("predicted_summary"), str) and r["predicted_summary"].strip()]
            style = path.rsplit("_summary", 1)[0].rsplit("_", 1)[1]
            for r in sample(rows, PER_CELL[src.slug], f"{src.slug}/{model}/{style}"):
                prompt = (f"Summarize a Bengali BBC news article in one or two sentences "
                          f"(XL-Sum {r['id']}; {style} prompt; article text not stored)")
                yield make_row(src, f"{model}-{style}-{r['id']}", "bn", prompt, "benign",
                               "summarize a Bengali news article", r["predicted_summary"], model, path)


# --- RameshKadariya/nepali-llm-benchmark (MIT) -------------------------------------------------------
# English-to-Nepali passage translation (Belebele/FLORES passages, CC-BY-SA) by Llama-3.1-8B and
# Llama-4-Scout-17B, raw outputs as returned by the API.
_NEP_FILES = {"llama-3.1-8b-instruct": "results/raw/task4_progress/api_llama8b_en2ne.jsonl",
              "llama-4-scout-17b": "results/raw/task4_progress/api_scout17b_en2ne.jsonl"}


def _nepali_translation(src: Source) -> Iterator[dict]:
    pairs = {}
    for line in show(src.repo, src.commit, "data/frozen/translation_pairs.jsonl").splitlines():
        if line.strip():
            rec = json.loads(line)
            pairs[rec["id"]] = rec
    for model, path in sorted(_NEP_FILES.items()):
        rows = [json.loads(x) for x in show(src.repo, src.commit, path).splitlines() if x.strip()]
        rows = [r for r in rows if (r.get("hypothesis") or "").strip() and r["id"] in pairs]
        for r in sample(rows, PER_CELL[src.slug], f"{src.slug}/{model}"):
            english = pairs[r["id"]].get("en") or pairs[r["id"]].get("eng") or ""
            yield make_row(src, f"{model}-{r['id']}", "ne", "Translate into Nepali: " + english, "benign",
                           "translate an English passage into Nepali", r["hypothesis"], model, path)


PER_CELL: dict[str, int] = {"tqa": 20, "lcb": 6, "bnsum": 10, "nep": 25}
CUE_CAP = 10

SOURCES: tuple[Source, ...] = (
    Source("sujitha-madda/multilingual-llm-hallucination-evaluation",
           "3e89b4f1b8cd747bc65cfee7a3b63330a1c4d9a2", "MIT", "tqa", _truthfulqa),
    Source("for-ai/language-confusion", "0cfdbb4a64502648938c456b2fa9689968f22298", "Apache-2.0", "lcb",
           _language_confusion),
    Source("zabir-nabil/bangla-multilingual-llm-eval", "c8e3df526824c9e4f8d7c2c6597cf83b53a2fe04", "MIT",
           "bnsum", _bangla_summaries),
    Source("RameshKadariya/nepali-llm-benchmark", "ca9f998bc968fc220b062317546672eea93494eb", "MIT", "nep",
           _nepali_translation),
)
