"""Every option of a run, in one table: the pytest plugin's `--model`/`--ijr-*` options, the flags of
`ijr run` and the run's option records (run/options.py) are all made from it. A row names its group
(the record: selection, endpoint, pacing, outputs, scoring), the record field it fills and how its raw
value becomes that field (run/option_values.py). A new option is one row here, its field in the
group's record, and one use where it matters.

A row names the option as `ijr run` spells it (`--profile`); pytest spells it `--ijr-profile`, except
the two bare ones every model team already types (`--model`, `--api-base`). Names and defaults are
contracts (README, CI scripts): never rename a row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from indicjr.run import option_values as v
from indicjr.run.option_values import MAX_TIMEOUT_S, MIN_QPS, Parser
from indicjr.targets.options import Endpoint

GROUPS = ("selection", "endpoint", "pacing", "outputs", "scoring")
_PAPER = Endpoint()  # the defaults of the inference settings rows


@dataclass(frozen=True, slots=True)
class Option:
    name: str  # as `ijr run` spells it, without the dashes
    group: str  # the record it fills (GROUPS)
    field: str  # the record's field
    help: str
    parse: Parser = v.as_given  # raw value (None: not given) -> the field's value
    type: type | None = None
    choices: tuple[str, ...] | None = None
    switch: bool = False  # present or absent (store_true)
    bare: bool = False  # pytest spells it without the ijr- prefix

    @property
    def cli_flag(self) -> str:
        return f"--{self.name}"

    @property
    def pytest_flag(self) -> str:
        return f"--{self.name}" if self.bare else f"--ijr-{self.name}"

    @property
    def cli_dest(self) -> str:
        return self.name.replace("-", "_")

    @property
    def pytest_dest(self) -> str:
        return self.pytest_flag[2:].replace("-", "_")

    def attrs(self) -> dict[str, Any]:
        """Keyword arguments of argparse's add_argument and pytest's addoption alike. Every default is
        None (or False for a switch): "not given" is decided by the row's parser, the same in both."""
        if self.switch:
            return {"action": "store_true", "default": False, "help": self.help}
        found: dict[str, Any] = {"default": None, "help": self.help}
        if self.type is not None:
            found["type"] = self.type
        if self.choices is not None:
            found["choices"] = self.choices
        return found


OPTIONS: tuple[Option, ...] = (
    Option(
        "model",
        "endpoint",
        "model",
        "model under test: sim:<profile> (default sim:reference), openai:<model>, "
        "openai-completions:<model>, anthropic:<model>, hf:<path>, replay:<run_dir>",
        v.model,
        bare=True,
    ),
    Option(
        "api-base", "endpoint", "api_base", "base URL of an OpenAI-compatible/Anthropic endpoint", v.api_base, bare=True
    ),
    Option("profile", "selection", "profile", "case set: lite (default), full, or a path", v.profile),
    Option("lang", "selection", "langs", "comma-separated languages, e.g. hi,ta", v.langs),
    Option("track", "selection", "tracks", "json, free or json,free", v.tracks),
    Option("limit", "selection", "limit", "stratified, seeded sample of N cases", v.number(0, zero=True), int),
    Option("out", "outputs", "out_dir", "output folder (default .ijr/runs/<model-slug>)", v.given_path),
    Option(
        "thresholds",
        "scoring",
        "thresholds",
        "gates file (default thresholds.yaml)",
        v.file_or("thresholds.yaml", off=False),
    ),
    Option("store", "outputs", "store", "SQLite response store (default .ijr/store.sqlite; none)", v.store),
    Option("replay", "endpoint", "replay", "re-judge a previous run's responses, zero model calls", v.replay),
    Option(
        "labels",
        "scoring",
        "labels",
        "human labels applied to every reply (default audit/labels.jsonl; none)",
        v.file_or("audit/labels.jsonl", off=True, hint=" (write it with `ijr audit import`, or pass none)"),
    ),
    Option("concurrency", "pacing", "concurrency", "parallel requests (default 16)", v.number(16), int),
    Option(
        "qps", "pacing", "qps", "request rate limit shared by the whole run", v.number(None, min_rate=MIN_QPS), float
    ),
    Option("samples", "selection", "samples", "samples per prompt (agreement is reported)", v.number(1), int),
    Option("max-cost", "pacing", "max_cost", "stop before spending more than this", v.number(None), float),
    Option(
        "price",
        "pacing",
        "price_per_mtok",
        "USD per million input,output tokens (e.g. 2.5,10): turns token usage into a cost",
        v.price,
    ),
    Option(
        "timeout",
        "endpoint",
        "timeout_s",
        "per-request timeout in seconds (60)",
        v.number(60.0, max_seconds=MAX_TIMEOUT_S),
        float,
    ),
    Option("max-tokens", "endpoint", "max_tokens", "max_tokens (256)", v.number(_PAPER.max_tokens), int),
    Option("temperature", "endpoint", "temperature", "temperature (0.3)", v.within(_PAPER.temperature, 0, 2), float),
    Option("top-p", "endpoint", "top_p", "top_p (0.9)", v.within(_PAPER.top_p, 0, 1, open_low=True), float),
    Option("seed", "endpoint", "seed", "seed (13)", v.default(_PAPER.seed), int),
    Option(
        "scoring",
        "scoring",
        "rule",
        "FREE-track scoring: ijr (grounded judge, default) or paper (no refusal phrase = COMPLY)",
        v.choice(("ijr", "paper")),
        choices=("ijr", "paper"),
    ),
    Option(
        "provider-block",
        "scoring",
        "provider_block",
        "provider safety blocks count as refusals (refusal, default) or leave the denominators (exclude)",
        v.choice(("refusal", "exclude")),
    ),
    Option("extra-body", "endpoint", "extra_body", "JSON object merged into every request body", v.extra_body),
    Option(
        "model-revision",
        "endpoint",
        "model_revision",
        "names the model revision behind the URL (store key)",
        v.stripped,
    ),
    Option(
        "chat-template",
        "endpoint",
        "chat_template",
        "hf: auto (default) or none (plain prompt format)",
        v.choice(("auto", "none")),
    ),
    Option(
        "engine",
        "endpoint",
        "engine",
        "ray: answer a local hf: model's missing cases on a Ray cluster before the tests (default local)",
        v.choice(("local", "ray")),
        choices=("local", "ray"),
    ),
    Option("replicas", "endpoint", "replicas", "with --ijr-engine ray: model replicas (1)", v.number(1), int),
    Option("batch-size", "endpoint", "batch_size", "with --ijr-engine ray: prompts per batch (8)", v.number(8), int),
    Option("ray-address", "endpoint", "ray_address", "with --ijr-engine ray: join this cluster (default: local)"),
    Option("no-progress", "outputs", "progress", "no progress line", v.negated, switch=True),
    Option("debug", "outputs", "debug", "tracebacks for IndicJR errors", switch=True),
)


def add_all(
    add_for: Callable[[str], Callable[..., Any]], *, pytest: bool, table: Iterable[Option] | None = None
) -> None:
    """Declare every option (of `table`, default the module's OPTIONS as it is at call time):
    `add_for(group)` gives the adder (pytest's addoption, or argparse's add_argument of that group's
    section in `ijr run --help`)."""
    for o in OPTIONS if table is None else table:
        add_for(o.group)(o.pytest_flag if pytest else o.cli_flag, **o.attrs())
