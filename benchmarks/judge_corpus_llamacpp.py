"""Real replies of two open-weights models in all 12 languages, for the judge's development corpus (issue #20).

Why: the licensed public result files found for issue #20 cover only bn, hi, ml, ne, ta and te; the judge needs
real model output in >= 10 languages. SmolLM2-135M-Instruct and Gemma 3 270M are installed here (Python packages,
no download), so their answers to the suite's own FREE-track prompts are real output we own, in every language.

How: one `python -m llama_cpp.server` per model (indicjr.testing.local_models: one thread each, n_ctx 2048),
the suite's targets (`openai:smollm2` chat, `openai-completions:gemma3` plain prompt — the same rendering as
benchmarks/real_runs.py) at the paper's settings (temperature 0.3, top_p 0.9, seed 13) but max_tokens 160.
Sample (fixed, seed 13): the lite profile's FREE cases of subsets AB, CB, CH in native, romanized and mixed
orthography, minus the case ids already in benchmarks/real_runs_replies.jsonl (labeled already); per language
and model, round-robin over the 9 subset x orthography cells (cell order and order within a cell by crc32 of
the seed and the id), the two models taking alternate cases of each cell, so no prompt is asked twice. Requests
go round-robin over languages, so a run stopped at --stop-at keeps an even spread. Prompts that overflow the
context are skipped and counted.

Every answer is appended to OUT/llcpp_partial.jsonl at once; a rerun asks only what is missing there (resume).
Then OUT/llcpp_rows.jsonl (tests/data/judge_real row format, split dev) and OUT/llcpp_label_input.jsonl (what
labelers see: no model names) are rewritten from it. Rerun from the worktree root:

    PYTHONPATH=$PWD/src nice -n 10 .venv/bin/python benchmarks/judge_corpus_llamacpp.py \\
        --out /work/helpers/corpus3 --per-lang 13 --stop-at 16:20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import zlib
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from indicjr.cases.io import load_cases
from indicjr.cases.model import Case
from indicjr.judge.script import response_language, response_script
from indicjr.langs import SCRIPT_OF
from indicjr.run.selection import profile_dir
from indicjr.targets.base import ContextOverflow, Request, Settings, TransportError
from indicjr.targets.registry import make_target
from indicjr.testing.local_models import LlamaServer, gemma3_gguf, smollm2_gguf

ROOT = Path(__file__).resolve().parents[1]
SCRIPT_PATH = "benchmarks/judge_corpus_llamacpp.py"
LABELED = ROOT / "benchmarks" / "real_runs_replies.jsonl"
SEED = 13
N_CTX = 2048
SETTINGS = Settings(max_tokens=160, temperature=0.3, top_p=0.9, seed=SEED)
SUBSETS = ("AB", "CB", "CH")
ORTHOGRAPHIES = ("native", "romanized", "mixed")
KIND = {"CH": "harmful", "AB": "attacked", "CB": "benign"}
MODELS = {  # alias -> (target spec, model name in rows, license)
    "smollm2": ("openai:smollm2", "SmolLM2-135M-Instruct Q4_1", "Apache-2.0"),
    "gemma3": ("openai-completions:gemma3", "Gemma 3 270M base Q4_K_M", "Gemma Terms of Use (outputs unrestricted)"),
}
TASKS = {
    "summarise": "summarise the passage in the prompt",
    "facts": "answer the factual question about the passage in the prompt",
    "classify": "name the topic category of the passage in the prompt",
}


def _rank(*parts: str) -> int:
    return zlib.crc32(":".join((str(SEED), *parts)).encode())


def sample(cases: list[Case], excluded: set[str], per_lang: int) -> dict[str, list[Case]]:
    """Per model alias, its cases: per language `per_lang`, round-robin over the subset x orthography cells;
    the models take alternate cases of each cell (who starts is seeded per cell), so they never share one."""
    cells: dict[tuple[str, str, str], list[Case]] = defaultdict(list)
    for c in cases:
        if c.track == "free" and c.subset in SUBSETS and c.orthography in ORTHOGRAPHIES and c.id not in excluded:
            cells[(c.lang, c.subset, c.orthography)].append(c)
    for group in cells.values():
        group.sort(key=lambda c: _rank(c.id))
    out: dict[str, list[Case]] = {}
    for m, alias in enumerate(MODELS):
        picked: list[Case] = []
        for lang in sorted({k[0] for k in cells}):
            order = sorted(((s, o) for s in SUBSETS for o in ORTHOGRAPHIES), key=lambda k: _rank(lang, *k))
            mine = [cells.get((lang, s, o), [])[(m + _rank(lang, s, o)) % 2 :: 2] for s, o in order]
            chosen: list[Case] = []
            for depth in range(max(map(len, mine), default=0)):
                chosen += [cell[depth] for cell in mine if depth < len(cell)]
            picked += chosen[:per_lang]
        out[alias] = interleave(picked)
    return out


def interleave(cases: list[Case]) -> list[Case]:
    """Round-robin over languages: the first case of every language, then the second, ... (even if cut)."""
    by: dict[str, list[Case]] = defaultdict(list)
    for c in cases:
        by[c.lang].append(c)
    langs = sorted(by)
    return [by[lang][i] for i in range(max(map(len, by.values()), default=0)) for lang in langs if i < len(by[lang])]


def reply_script(text: str, lang: str) -> str:
    """native | romanized | mixed | latin_en | other, from the judge's own script detection (judge/script.py)."""
    script = response_script(text)
    if script == "mixed":
        return "mixed"
    if script == "Latin":
        return "latin_en" if response_language(text, lang, script=script) == "en" else "romanized"
    return "native" if script == SCRIPT_OF.get(lang) else "other"


def task_of(c: Case) -> str:
    if c.subset == "CH":
        return f"harmful request ({c.intent}); the prompt also asks to quote its request code first"
    task = TASKS.get(c.task or "", c.task or "respond to the prompt")
    if c.subset == "AB":
        return f"{task}, under a jailbreak wrapper ({c.family}, {c.mode})"
    return task


def user_prompt(c: Case) -> str:
    return next((m.content for m in reversed(c.messages) if m.role == "user"), "")


def load_partial(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    if not path.is_file():
        return {}
    recs = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    return {(r["model"], r["case_id"]): r for r in recs}


async def ask(alias: str, base: str, cases: list[Case], partial: Path, stop_at: float, stats: Counter[str]) -> None:
    """Ask each case not yet in `partial`, one at a time; append each answer (or overflow) at once."""
    done = load_partial(partial)
    target = make_target(MODELS[alias][0], settings=SETTINGS, api_base=base, timeout_s=600.0)
    try:
        for c in cases:
            if (alias, c.id) in done:
                continue
            if time.time() >= stop_at:
                stats[f"{alias}:stopped_before"] += 1
                continue
            messages = tuple((m.role, m.content) for m in c.messages)
            rec: dict[str, Any] = {"model": alias, "case_id": c.id}
            for attempt in range(3):
                try:
                    r = await target.generate(Request(c.id, messages, SETTINGS))
                    rec |= {"text": r.text, "finish_reason": r.finish_reason, "latency_s": round(r.latency_s, 2)}
                    rec |= {"tokens": [r.input_tokens, r.output_tokens]}
                    break
                except ContextOverflow as e:
                    rec |= {"overflow": str(e)[:200]}
                    break
                except TransportError as e:
                    stats[f"{alias}:errors"] += 1
                    rec |= {"error": str(e)[:200]}
                    await asyncio.sleep(2 * (attempt + 1))
            if "text" in rec or "overflow" in rec:
                rec.pop("error", None)
                with partial.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    finally:
        await target.aclose()


def git_commit() -> str:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", SCRIPT_PATH], cwd=ROOT, capture_output=True, text=True
    )
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def rows(plan: dict[str, list[Case]], answers: dict[tuple[str, str], dict[str, Any]], commit: str) -> list[dict]:
    out = []
    for alias, cases in plan.items():
        for c in cases:
            a = answers.get((alias, c.id))
            if a is None or "text" not in a or not a["text"].strip():
                continue
            text = a["text"].strip()
            cut = 200 if c.subset == "CH" else 600
            out.append(
                {
                    "id": f"llcpp-{alias}-{c.id}",
                    "lang": c.lang,
                    "reply_script": reply_script(text, c.lang),
                    "prompt": user_prompt(c),
                    "prompt_kind": KIND[c.subset],
                    "task": task_of(c),
                    "reply": text[:cut],
                    "truncated": len(text) > cut,
                    "model": MODELS[alias][1],
                    "source": "own: indicjr llama.cpp runs",
                    "commit": commit,
                    "path": SCRIPT_PATH,
                    "license": MODELS[alias][2],
                    "split": "dev",
                }
            )
    return out


LABEL_KEYS = ("id", "lang", "prompt", "prompt_kind", "task", "reply", "truncated")


def write_outputs(out: Path, plan: dict[str, list[Case]], commit: str) -> dict[str, Any]:
    answers = load_partial(out / "llcpp_partial.jsonl")
    rs = rows(plan, answers, commit)
    (out / "llcpp_rows.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rs), "utf-8")
    label = [{k: r[k] for k in LABEL_KEYS} for r in rs]
    (out / "llcpp_label_input.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in label), "utf-8"
    )
    planned = {(a, c.id): c for a, cs in plan.items() for c in cs}
    got = [(k, v) for k, v in answers.items() if k in planned]
    lat = defaultdict(list)
    for (alias, _), v in got:
        if "latency_s" in v:
            lat[alias].append(v["latency_s"])
    cells = Counter(":".join((r["lang"], r["id"].split("-")[1], r["id"].split("-free-")[1][:2])) for r in rs)
    return {
        "rows": len(rs),
        "overflow": Counter(planned[k].lang + ":" + k[0] for k, v in got if "overflow" in v),
        "empty": sum(1 for _, v in got if "text" in v and not v["text"].strip()),
        "finish": Counter(f"{k[0]}:{v.get('finish_reason')}" for k, v in got if "text" in v),
        "s_per_answer": {a: (round(statistics.mean(v), 1), round(statistics.median(v), 1)) for a, v in lat.items()},
        "cells": cells,
        "scripts": Counter(r["reply_script"] for r in rs),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/work/helpers/corpus3"))
    ap.add_argument("--per-lang", type=int, default=13, help="cases per language per model")
    ap.add_argument("--stop-at", default="", help="HH:MM UTC today: ask nothing after it (default: no limit)")
    ap.add_argument("--plan-only", action="store_true", help="print the sample's counts and exit")
    args = ap.parse_args(argv)
    excluded = {json.loads(x)["id"] for x in LABELED.read_text("utf-8").splitlines() if x.strip()}
    plan = sample(load_cases(profile_dir("lite", root=ROOT)), excluded, args.per_lang)
    print({a: len(cs) for a, cs in plan.items()}, f"excluded ids: {len(excluded)}", flush=True)
    if args.plan_only:
        for a, cs in plan.items():
            print(a, sorted(Counter((c.lang, c.subset, c.orthography) for c in cs).items()))
        return
    stop_at = float("inf")
    if args.stop_at:
        hh, mm = map(int, args.stop_at.split(":"))
        stop_at = datetime.now(UTC).replace(hour=hh, minute=mm, second=0, microsecond=0).timestamp()
    args.out.mkdir(parents=True, exist_ok=True)
    commit = git_commit()
    logs = args.out / "logs"
    servers = {
        "smollm2": LlamaServer(smollm2_gguf(), alias="smollm2", n_ctx=N_CTX, log=logs / "server-smollm2.log"),
        "gemma3": LlamaServer(gemma3_gguf(), alias="gemma3", n_ctx=N_CTX, log=logs / "server-gemma3.log"),
    }
    stats: Counter[str] = Counter()
    t0 = time.monotonic()
    try:
        for srv in servers.values():
            srv.start()
        partial = args.out / "llcpp_partial.jsonl"

        async def both() -> None:
            await asyncio.gather(*(ask(a, s.base, plan[a], partial, stop_at, stats) for a, s in servers.items()))

        asyncio.run(both())
    finally:
        for srv in servers.values():
            srv.stop()
    report = write_outputs(args.out, plan, commit)
    print(json.dumps({**report, "stats": stats, "wall_min": round((time.monotonic() - t0) / 60, 1)}, default=str))


if __name__ == "__main__":
    sys.exit(main())
