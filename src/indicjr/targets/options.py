"""The two option records the target layer reads: which endpoint and how it is asked (`Endpoint`), how
fast and for how much (`Pacing`). Built once from the run's option table (run/option_table.py) and
passed whole, from the run down to the runner: a new endpoint or pacing option is one table row, one
field here, and its use.

A record checks what only its own fields can say (a budget needs a price; Ray needs a local model), so
no layer above repeats it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.targets.base import Settings

DEFAULT_MODEL = "sim:reference"
_PAPER = Settings()  # the paper's inference settings: the defaults of the four settings rows


@dataclass(frozen=True, slots=True)
class Endpoint:
    """The model under test and how each request is made (`replay` re-reads a run instead)."""

    model: str = DEFAULT_MODEL
    api_base: str | None = None
    replay: Path | None = None
    timeout_s: float = 60.0
    max_tokens: int = _PAPER.max_tokens
    temperature: float = _PAPER.temperature
    top_p: float = _PAPER.top_p
    seed: int = _PAPER.seed
    extra_body: str | None = None  # JSON object merged into every request (canonical form)
    model_revision: str | None = None  # names a revision that changes behind one URL (store key)
    chat_template: str = "auto"  # hf: "none" uses the plain prompt format
    engine: str = "local"  # local: the target in this process; ray: local models on a Ray cluster first
    replicas: int = 1
    batch_size: int = 8
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.engine == "ray" and not self.model.strip().lower().startswith("hf:"):
            raise ConfigError(f"engine ray: needs --model hf:PATH (a local transformers model), got {self.model!r}")

    @property
    def settings(self) -> Settings:
        """The inference settings every request carries (and every stored answer records)."""
        return Settings(max_tokens=self.max_tokens, temperature=self.temperature, top_p=self.top_p, seed=self.seed)

    @property
    def extra_body_dict(self) -> dict[str, Any]:
        return dict(json.loads(self.extra_body)) if self.extra_body else {}

    @property
    def target_spec(self) -> str:
        return f"replay:{self.replay}" if self.replay else self.model


@dataclass(frozen=True, slots=True)
class Pacing:
    """The whole run's request rate and budget (each of n processes sharing a store takes 1/n)."""

    concurrency: int = 16
    qps: float | None = None
    max_cost: float | None = None
    price_per_mtok: tuple[float, float] | None = None  # USD per million (input, output) tokens

    def __post_init__(self) -> None:
        if self.max_cost is not None and self.price_per_mtok is None:
            raise ConfigError("--ijr-max-cost: needs --ijr-price INPUT,OUTPUT (USD per million tokens) to count cost")
        if self.concurrency < 1 or (self.qps is not None and self.qps <= 0):
            raise ConfigError(f"concurrency and qps must be positive (got {self.concurrency}, {self.qps})")
