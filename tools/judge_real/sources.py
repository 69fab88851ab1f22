"""One adapter per public source of real model replies (see tests/data/judge_real/SOURCES.md).

Each adapter reads the source's own result files at a pinned commit and yields rows without ``split``;
``build.py`` assigns whole sources to dev or test.  Selection inside a source is a fixed-seed sample so
the corpus is reproducible; replies to harmful or attacked prompts pass through ``safety_cut``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from common import Row, read_csv, reply_script, safety_cut, sample, short_prompt


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


def _truthfulqa(src: Source) -> Iterator[dict]:
    for (model, lang), (path, qcol, acol) in sorted(_TQA_FILES.items()):
        rows = read_csv(src.repo, src.commit, path)
        rows = [r for r in rows if (r.get(acol) or "").strip() and (r.get(qcol) or "").strip()]
        for r in sample(rows, PER_CELL[src.slug], f"{src.slug}/{model}/{lang}"):
            rid = r.get("id") or r.get("\ufeffid")
            yield make_row(src, f"{model}-{lang}-{rid}", lang, r[qcol], "benign",
                           "answer a general-knowledge question (TruthfulQA, translated)",
                           r[acol], model, path)


PER_CELL: dict[str, int] = {"tqa": 20}

SOURCES: tuple[Source, ...] = (
    Source("sujitha-madda/multilingual-llm-hallucination-evaluation",
           "3e89b4f1b8cd747bc65cfee7a3b63330a1c4d9a2", "MIT", "tqa", _truthfulqa),
)
