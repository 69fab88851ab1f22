"""docs/REAL_RUNS.md: the packaged suite against two real open-weights models on llama-cpp-python's server.

    python benchmarks/real_runs.py --smollm2-limit 240 --gemma-limit 144 --deadline-min 50

SmolLM2-135M-Instruct (`openai:smollm2`, chat) and Gemma 3 270M base (`openai-completions:gemma3`), one
`python -m llama_cpp.server` each on 127.0.0.1 (n_ctx 2048, one thread: indicjr.testing.local_models),
at the paper's settings (256 tokens, temperature 0.3, top_p 0.9, seed 13) on a stratified sample
(`--ijr-limit`), the card's command, both models at once. Answers go to a store under .ijr/, so a rerun
(or a run stopped at the deadline by SIGTERM, which keeps partial results) resumes where it stopped —
on the same ports: the store key names the endpoint, port included (--smollm2-port, --gemma-port).

Also: E6 with the served tokenizers — tokens per character and bytes per token per language over a
stratified 1,200 of the lite profile's prompts (`/extras/tokenize`), the share of prompts that overflow
the 2,048-token context, and the per-language fragmentation beside the run's jailbreak rates. The
replies (id, lang, prompt, reply, model) go to benchmarks/real_runs_replies.jsonl for independent
labelers (replies cut at 600 characters, harmful-request (CH) replies at their 200-character opening;
prompts are the suite's own, abstract by construction).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from indicjr.cases.io import load_cases
from indicjr.cases.model import Case
from indicjr.metrics.stats import correlate
from indicjr.run.selection import profile_dir, stratified_limit
from indicjr.targets.providers.plain_prompt import render
from indicjr.testing.local_models import LlamaServer, gemma3_gguf, smollm2_gguf

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / ".ijr" / "runs"
DOC = ROOT / "docs" / "REAL_RUNS.md"
REPLIES = ROOT / "benchmarks" / "real_runs_replies.jsonl"
LABELS = ROOT / "benchmarks" / "real_runs_labels" / "adjudicated.jsonl"  # two labelers, adjudicated
OUTCOMES = ("refused", "partial", "complied", "off_topic")
N_CTX = 2048
MODELS = {"smollm2": "openai:smollm2", "gemma3": "openai-completions:gemma3"}
HEADLINE = ("json_jsr", "json_sv_ab", "json_ch_leak", "json_or_cb", "json_ur_ch", "free_jsr_ab", "free_or_cb")


def tokenize(srv: LlamaServer, text: str) -> int:
    body = json.dumps({"input": text, "model": srv.alias}).encode()
    req = urllib.request.Request(srv.base.removesuffix("/v1") + "/extras/tokenize", data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as r:
        return len(json.loads(r.read())["tokens"])


def prompt_text(case: Case, alias: str) -> str:
    """What the model reads, near enough: the plain prompt for the base model, the messages for chat."""
    messages = tuple((m.role, m.content) for m in case.messages)
    return render(messages) if alias == "gemma3" else "\n".join(c for _, c in messages)


def fragmentation(srv: LlamaServer, cases: list[Case]) -> dict[str, dict[str, float]]:
    """Per language: tokens per character, bytes per token, median prompt tokens, share >= n_ctx."""
    acc: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for c in cases:
        text = prompt_text(c, srv.alias)
        acc[c.lang].append((len(text), len(text.encode("utf-8")), tokenize(srv, text)))
    out = {}
    for lang, items in sorted(acc.items()):
        chars, nbytes, toks = (sum(x[i] for x in items) for i in range(3))
        out[lang] = {
            "n": len(items),
            "tokens_per_char": toks / chars,
            "bytes_per_token": nbytes / toks,
            "median_tokens": statistics.median(x[2] for x in items),
            "overflow_share": sum(x[2] >= N_CTX for x in items) / len(items),
        }
    return out


def run_card(alias: str, srv: LlamaServer, limit: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "pytest", "--model", MODELS[alias], f"--api-base={srv.base}", f"--ijr-limit={limit}"]
    cmd += ["--ijr-concurrency=1", "--ijr-timeout=900", f"--ijr-out={RUNS / ('real-' + alias)}", "-q"]
    cmd += [f"--ijr-store={ROOT / '.ijr' / 'real_runs.sqlite'}", "--ijr-no-progress", "-p", "no:cacheprovider"]
    log = (RUNS / f"real-{alias}.log").open("w")
    return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))


def wait_all(procs: dict[str, subprocess.Popen[str]], deadline: float) -> None:
    """Wait; at the deadline SIGTERM what still runs (it keeps its answers and writes partial results)."""
    while any(p.poll() is None for p in procs.values()):
        if time.monotonic() > deadline:
            for p in procs.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in procs.values():
                p.wait(300)
            return
        time.sleep(5)


def load(alias: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    out = RUNS / f"real-{alias}"
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text("utf-8").splitlines()]
    return json.loads((out / "summary.json").read_text("utf-8")), rows


def per_language(summary: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["lang"]].append(r)
    slices = summary["slices"]["lang"]
    out = {}
    for lang, rs in sorted(by.items()):
        answered = [r for r in rs if r.get("excluded") != "context_overflow" and not r["verdict"]["error"]]
        out[lang] = {
            "n": len(rs),
            "json_jsr": (slices["json_jsr"].get(lang) or {}).get("value"),
            "free_jsr": (slices["free_jsr"].get(lang) or {}).get("value"),
            "s_per_answer": statistics.mean(r["latency_s"] for r in answered) if answered else None,
            "prompt_tokens": statistics.median(r["tokens"][0] for r in answered) if answered else None,
            "overflow": len(rs) - len(answered),
            "same_language": sum(r["verdict"]["response_lang"] == lang for r in answered) / len(answered)
            if answered
            else None,
        }
    return out


def e6_language_correlation(frag: dict[str, dict[str, float]], langs: dict[str, dict[str, Any]]) -> Any:
    """Spearman/Pearson over languages: tokens per character against the language's pooled JSR."""
    pairs = []
    for lang, f in frag.items():
        jsr = [v for v in (langs.get(lang, {}).get("json_jsr"), langs.get(lang, {}).get("free_jsr")) if v is not None]
        if jsr:
            pairs.append((f["tokens_per_char"], statistics.mean(jsr)))
    return correlate([x for x, _ in pairs], [y for _, y in pairs], bootstrap=0)


def observations(alias: str, rows: list[dict[str, Any]]) -> str:
    """What the replies show, counted: how they ended, how the judge read off-task text, parroting."""
    n = len(rows)
    ends = defaultdict(int)
    for r in rows:
        ends[r["finish_reason"]] += 1
    deflected = [r for r in rows if any(e["kind"] == "deflection" for e in r["verdict"]["evidence"])]
    refused = sum(r["verdict"]["decision"] == "REFUSE" for r in deflected)
    leaks = sum(bool(r["verdict"]["leak_canary"]) for r in rows)
    echo = sum("safety-evaluated assistant" in r["response"] for r in rows)
    latin = sum(r["verdict"]["response_script"] == "Latin" for r in rows)
    json_rows = [r for r in rows if r["track"] == "json" and r.get("excluded") != "context_overflow"]
    valid = sum(bool(r["verdict"]["schema_valid"]) for r in json_rows)
    over = [r for r in rows if r.get("excluded") == "context_overflow"]
    words = sorted({r["context_overflow"].split(". ")[0] for r in over})  # first sentence, whole
    parts = [
        f"finish reasons {dict(sorted(ends.items()))}",
        f"{len(deflected)} replies neither refused in words nor did the task (often garbled text) and the judge "
        f"scored {refused} of them REFUSE ('deflection')",
        f"{leaks} canary leaks (the model repeating the prompt's canary line)",
        f"{echo} replies repeat the suite's system prompt",
        f"{latin}/{n} replies in Latin script",
        f"{valid}/{len(json_rows)} JSON-track replies are a valid contract",
    ]
    if over:
        parts.append(f"{len(over)} context overflows, in the server's words: {'; '.join(words)}")
    return f"- {alias}: " + "; ".join(parts) + "."


def judge_vs_labels(results: dict[str, Any]) -> list[str]:
    """The judge's FREE verdicts against the two labelers' adjudicated labels (benchmarks/real_runs_labels):
    refused vs not refused (the reading every FREE rate uses), and the four outcomes."""
    if not LABELS.is_file():
        return []
    gold = {r["id"]: r["label"] for r in map(json.loads, LABELS.read_text(encoding="utf-8").splitlines())}
    pairs: list[tuple[str, str]] = []
    for alias, (_, rows, _) in results.items():
        for r in rows:
            label = gold.get(f"{alias}:{r['id']}")
            if label is not None and r["verdict"]["track"] == "free":
                pairs.append((label, judged_outcome(r["verdict"])))
    if not pairs:
        return []
    agree = sum(g == j for g, j in pairs)
    binary = [(g == "refused", j == "refused") for g, j in pairs]
    refused_wrongly = sum(1 for g, j in binary if j and not g)
    out = ["## The judge against two human labelers", ""]
    out += [f"{len(gold)} FREE replies were labeled independently by two labelers who saw neither the judge nor"]
    out += ["each other (benchmarks/real_runs_labels/README.md: agreement 0.958, disagreements adjudicated);"]
    out += [f"{len(pairs)} of them are in this regeneration's sample (a rebuilt case set replaced the others)."]
    k = kappa(binary) if any(g for g, _ in binary) else None
    shown = fmt(k) if k is not None else "undefined: the labelers found no refusal"
    out += [f"Refused vs not refused: the judge agrees on {sum(g == j for g, j in binary)}/{len(pairs)} "]
    out[-1] += f"(kappa {shown}); replies scored refused that the labelers did not: {refused_wrongly}."
    out += [f"Four outcomes (refused, partial, complied, off_topic): {agree}/{len(pairs)} agree."]
    counts = Counter(pairs)
    out += ["", "| labeled \\ judged | " + " | ".join(OUTCOMES) + " |", "|---|" + "---|" * len(OUTCOMES)]
    for g in OUTCOMES:
        out += [f"| {g} | " + " | ".join(str(counts[(g, j)]) for j in OUTCOMES) + " |"]
    return [*out, ""]


def judged_outcome(v: dict[str, Any]) -> str:
    if v.get("off_topic"):
        return "off_topic"
    if v.get("partial"):
        return "partial"
    return "refused" if v.get("refused") else "complied"


def kappa(pairs: list[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two binary readings; None when chance agreement is total."""
    n = len(pairs)
    po = sum(a == b for a, b in pairs) / n
    pa, pb = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    return None if pe == 1 else (po - pe) / (1 - pe)


def fmt(x: Any, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def write_replies(results: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]], cases: dict[str, Case]) -> int:
    lines = []
    for alias, (_, rows) in results.items():
        for r in rows:
            c = cases.get(r["id"])
            prompt = next((m.content for m in reversed(c.messages) if m.role == "user"), "") if c else ""
            reply = r["response"][: 200 if r["subset"] == "CH" else 600]
            rec = {"id": r["id"], "lang": r["lang"], "track": r["track"], "subset": r["subset"], "model": alias}
            lines.append(json.dumps({**rec, "prompt": prompt, "reply": reply}, ensure_ascii=False))
    REPLIES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def document(results: dict[str, Any], frags: dict[str, Any], meta: dict[str, Any]) -> str:
    out = ["# Real runs: two open-weights models on llama.cpp (CPU, one thread each)", ""]
    out += [f"Regenerate: `{meta['command']}` ({meta['date']}; this regeneration took {meta['wall_min']:.0f} min)."]
    out += [meta["note"], ""] if meta.get("note") else [""]
    out += ["Servers: `python -m llama_cpp.server --model X.gguf --model_alias NAME --host 127.0.0.1 --n_ctx 2048 "]
    out += ["--n_threads 1 --n_threads_batch 1` (llama-cpp-python 0.3.36, portable CPU build). Settings: the paper's "]
    out += ["256 tokens, temperature 0.3, top_p 0.9, seed 13; `--ijr-concurrency 1`, no xdist.", ""]
    for alias, (summary, rows, langs) in results.items():
        h, g = summary["headline"], summary.get("generation") or {}
        done = "complete" if summary.get("complete") else "INCOMPLETE (stopped at the deadline by SIGTERM)"
        out += [f"## `{MODELS[alias]}` — {len(rows)} cases, {done}", ""]
        out += ["| " + " | ".join(HEADLINE) + " | inference errors | context overflow |"]
        out += ["|" + "---|" * (len(HEADLINE) + 2)]
        out += ["| " + " | ".join(fmt(h.get(k)) for k in HEADLINE) + f" | {h['n_inference_errors']} | "]
        out[-1] += f"{h['n_context_overflow']} |"
        gen = "s/answer is each answer's recorded latency (one request at a time, so no queueing). "
        gen += f"This regeneration: {g.get('n_calls')} calls, attempts {g.get('attempts')}, tokens in/out "
        gen += f"{g.get('tokens_in')}/{g.get('tokens_out')}, wall {fmt(g.get('wall_s'), 0)} s."
        out += ["", gen, ""]
        out += ["| lang | n | json_jsr | free_jsr | s/answer | prompt tokens (median) | overflow | same language |"]
        out += ["|---|---|---|---|---|---|---|---|"]
        for lang, v in langs.items():
            cells = [v["n"], fmt(v["json_jsr"]), fmt(v["free_jsr"]), fmt(v["s_per_answer"], 1)]
            cells += [fmt(v["prompt_tokens"], 0), v["overflow"], fmt(v["same_language"])]
            out += [f"| {lang} | " + " | ".join(str(c) for c in cells) + " |"]
        out += [""]
    out += ["## E6 with the served tokenizers", ""]
    out += ["Over a stratified 1,200 of the lite profile's prompts (`/extras/tokenize` of each server; chat: the "]
    out += ["messages' text, base: the plain prompt). Overflow: prompts of 2,048 tokens or more.", ""]
    out += ["| lang | " + " | ".join(f"{a} tok/char | {a} bytes/tok | {a} median tok | {a} overflow" for a in frags)]
    out[-1] += " |"
    out += ["|---|" + "---|---|---|---|" * len(frags)]
    for lang in next(iter(frags.values())):
        cells = []
        for f in frags.values():
            v = f[lang]
            cells += [fmt(v["tokens_per_char"]), fmt(v["bytes_per_token"]), fmt(v["median_tokens"], 0)]
            cells += [f"{100 * v['overflow_share']:.1f}%"]
        out += [f"| {lang} | " + " | ".join(cells) + " |"]
    out += [""]
    for alias, corr in meta["e6"].items():
        out += [f"- {alias}: tokens/char vs the language's JSR (mean of json and free), over languages: "]
        out[-1] += f"n={corr['n']}, Spearman {fmt(corr.get('spearman'))}, Pearson {fmt(corr.get('pearson'))}"
        out[-1] += f" ({corr.get('reason') or 'small n: descriptive only'})."
        text = (results[alias][0].get("e6") or {}).get("pooled") or {}
        feats = ", ".join(f"{k} n={v.get('n')} rho={fmt(v.get('spearman'))}" for k, v in text.items())
        out += [f"  Text-feature E6 (item-level ΔJSR, matched pairs) in this sample: {feats or '–'}."]
    out += ["", *judge_vs_labels(results), "## What the replies show", ""]
    out += [observations(alias, rows) for alias, (_, rows, _) in results.items()]
    out += ["", f"Replies for labelers: `{REPLIES.relative_to(ROOT)}` ({meta['n_replies']} lines).", ""]
    return "\n".join(out)


def shown_args(argv: list[str]) -> list[str]:
    """The command line for the document, without --note and its text."""
    out, skip = [], False
    for a in argv:
        if skip or a.startswith("--note="):
            skip = False
            continue
        skip = a == "--note"
        if not skip:
            out.append(a)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smollm2-limit", type=int, default=240)
    ap.add_argument("--gemma-limit", type=int, default=240)
    ap.add_argument("--deadline-min", type=float, default=120.0, help="SIGTERM the runs after this long")
    ap.add_argument("--smollm2-port", type=int, default=18431, help="fixed, so a rerun finds its stored answers")
    ap.add_argument("--gemma-port", type=int, default=18432)
    ap.add_argument("--note", default="", help="a line for the document (e.g. when and how fast it was generated)")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    RUNS.mkdir(parents=True, exist_ok=True)
    lite = load_cases(profile_dir("lite", root=ROOT))
    sample = stratified_limit(lite, 1200)
    servers = {
        "smollm2": LlamaServer(
            smollm2_gguf(), alias="smollm2", n_ctx=N_CTX, port=args.smollm2_port, log=RUNS / "server-smollm2.log"
        ),
        "gemma3": LlamaServer(
            gemma3_gguf(), alias="gemma3", n_ctx=N_CTX, port=args.gemma_port, log=RUNS / "server-gemma3.log"
        ),
    }
    try:
        for srv in servers.values():
            srv.start()
        frags = {alias: fragmentation(srv, sample) for alias, srv in servers.items()}
        limits = {"smollm2": args.smollm2_limit, "gemma3": args.gemma_limit}
        procs = {alias: run_card(alias, srv, limits[alias]) for alias, srv in servers.items()}
        wait_all(procs, t0 + 60 * args.deadline_min)
    finally:
        for srv in servers.values():
            srv.stop()
    results = {}
    for alias in MODELS:
        summary, rows = load(alias)
        results[alias] = (summary, rows, per_language(summary, rows))
    e6 = {a: e6_language_correlation(frags[a], results[a][2]).to_dict() for a in MODELS}
    n_replies = write_replies({a: (r[0], r[1]) for a, r in results.items()}, {c.id: c for c in lite})
    meta = {
        "command": "python benchmarks/real_runs.py " + " ".join(shown_args(sys.argv[1:] if argv is None else argv)),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "wall_min": (time.monotonic() - t0) / 60,
        "e6": e6,
        "n_replies": n_replies,
        "note": args.note,
    }
    DOC.write_text(document(results, frags, meta), encoding="utf-8")
    print(f"wrote {DOC} and {REPLIES} ({n_replies} replies)")


if __name__ == "__main__":
    main()
