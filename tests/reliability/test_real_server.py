"""The suite end to end against a real OpenAI-compatible server we did not write: `transformers serve`
(transformers >= 5) serving a tiny random model made inside the test (indicjr.testing.tiny_model) —
no download, loopback only. Every case gets a verdict, a rerun is served from the store, and the
base-model path (`openai-completions:` on /v1/completions) works against the same server.

Skips, with the reason, where the `hf` extra or the server's own dependencies are not installed
(.ci/run installs them: the CPU torch wheel, transformers[serving]).
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.conftest import case_rows, read_rows, read_summary, run_suite

MISSING = [m for m in ("torch", "transformers", "tokenizers", "fastapi", "uvicorn") if not importlib.util.find_spec(m)]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)} (pip install 'indicjr[serve]')")
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path, timeout_s: float = 240) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"transformers serve exited {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"transformers serve not healthy after {timeout_s:g}s: {log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """(base URL, model dir, server log) of `transformers serve` on a freshly made tiny model."""
    import transformers

    if int(transformers.__version__.split(".")[0]) < 5:
        have = transformers.__version__
        pytest.skip(f"transformers serve with /v1/completions needs transformers >= 5 (have {have})")
    root = tmp_path_factory.mktemp("real-server")
    model = root / "tiny"
    env = {**os.environ, **OFFLINE}
    subprocess.run([sys.executable, "-m", "indicjr.testing.tiny_model", str(model)], check=True, env=env, timeout=300)
    port, log = _free_port(), root / "serve.log"
    cmd = [sys.executable, "-m", "transformers.cli.transformers", "serve", str(model)]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--device", "cpu", "--default-seed", "13"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(url, proc, log)
        yield url, model, log
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _posts(log: Path, route: str) -> int:
    return sum(1 for line in log.read_text(errors="replace").splitlines() if f'"POST {route} HTTP' in line)


def test_suite_against_transformers_serve_gives_every_case_a_verdict_and_reruns_from_the_store(
    suite: pytest.Pytester, tiny_cases: Path, served: tuple[str, Path, Path]
) -> None:
    url, model, log = served
    n = len(case_rows(tiny_cases))
    args = ["--model", f"openai:{model}", f"--api-base={url}/v1", "--ijr-max-tokens=24", "--ijr-concurrency=4"]
    args += ["--ijr-timeout=120"]
    before = _posts(log, "/v1/chat/completions")
    first = run_suite(suite, tiny_cases, *args, "--ijr-out=first", fast=False, timeout=600)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-2000:]
    rows, summary = read_rows(suite.path / "first"), read_summary(suite.path / "first")
    assert len(rows) == n and summary["headline"]["n_inference_errors"] == 0
    assert all(r["verdict"]["decision"] in ("REFUSE", "COMPLY", "ABSTAIN") for r in rows)
    assert summary["answers"] == {**summary["answers"], "from_store": 0, "new": n}
    assert _posts(log, "/v1/chat/completions") - before == n

    rerun = run_suite(suite, tiny_cases, *args, "--ijr-out=rerun", fast=False, timeout=600)
    assert rerun.returncode == 0, rerun.stdout[-3000:]
    assert _posts(log, "/v1/chat/completions") - before == n  # nothing asked again
    again = read_summary(suite.path / "rerun")
    assert again["answers"]["from_store"] == n and again["answers"]["new"] == 0
    assert f"answers: {n} from the store (recorded " in rerun.stdout
    assert [r["response"] for r in read_rows(suite.path / "rerun")] == [r["response"] for r in rows]


def test_base_model_path_against_transformers_serve_completions(
    suite: pytest.Pytester, tiny_cases: Path, served: tuple[str, Path, Path]
) -> None:
    url, model, log = served
    args = ["--model", f"openai-completions:{model}", f"--api-base={url}/v1", "--ijr-max-tokens=24"]
    result = run_suite(suite, tiny_cases, *args, "--ijr-out=base", "--ijr-store=none", fast=False, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    rows, summary = read_rows(suite.path / "base"), read_summary(suite.path / "base")
    assert len(rows) == len(case_rows(tiny_cases)) and summary["headline"]["n_inference_errors"] == 0
    assert _posts(log, "/v1/completions") >= len(rows)
