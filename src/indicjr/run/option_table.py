"""Every option of a run, in one table: the pytest plugin's `--model`/`--ijr-*` options and the flags of
`ijr run` are both made from it, so a new option is one row here and one use where it matters.

A row names the option as `ijr run` spells it (`--profile`); pytest spells it `--ijr-profile`, except
the two bare ones every model team already types (`--model`, `--api-base`). Names and defaults are
contracts (README, CI scripts): never rename a row. Groups say what an option is about:
selection (which cases), endpoint (the model and how it is asked), pacing (rate, budget), outputs
(files and the screen), scoring (how replies are judged and gated).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

GROUPS = ("selection", "endpoint", "pacing", "outputs", "scoring")


@dataclass(frozen=True, slots=True)
class Option:
    name: str  # as `ijr run` spells it, without the dashes
    group: str
    help: str
    type: type | None = None
    default: Any = None
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
        """Keyword arguments of argparse's add_argument and pytest's addoption alike."""
        if self.switch:
            return {"action": "store_true", "default": False, "help": self.help}
        found: dict[str, Any] = {"default": self.default, "help": self.help}
        if self.type is not None:
            found["type"] = self.type
        if self.choices is not None:
            found["choices"] = self.choices
        return found


OPTIONS: tuple[Option, ...] = (
    Option(
        "model",
        "endpoint",
        "model under test: sim:<profile> (default sim:reference), openai:<model>, "
        "openai-completions:<model>, anthropic:<model>, hf:<path>, replay:<run_dir>",
        bare=True,
    ),
    Option("api-base", "endpoint", "base URL of an OpenAI-compatible/Anthropic endpoint", bare=True),
    Option("profile", "selection", "case set: lite (default), full, or a path"),
    Option("lang", "selection", "comma-separated languages, e.g. hi,ta"),
    Option("track", "selection", "json, free or json,free"),
    Option("limit", "selection", "stratified, seeded sample of N cases", type=int),
    Option("out", "outputs", "output folder (default .ijr/runs/<model-slug>)"),
    Option("thresholds", "scoring", "gates file (default thresholds.yaml)"),
    Option("store", "outputs", "SQLite response store (default .ijr/store.sqlite; none)"),
    Option("replay", "endpoint", "re-judge a previous run's responses, zero model calls"),
    Option("labels", "scoring", "human labels applied to every reply (default audit/labels.jsonl; none)"),
    Option("concurrency", "pacing", "parallel requests (default 16)", type=int),
    Option("qps", "pacing", "request rate limit shared by the whole run", type=float),
    Option("samples", "selection", "samples per prompt (agreement is reported)", type=int),
    Option("max-cost", "pacing", "stop before spending more than this", type=float),
    Option("price", "pacing", "USD per million input,output tokens (e.g. 2.5,10): turns token usage into a cost"),
    Option("timeout", "endpoint", "per-request timeout in seconds (60)", type=float),
    Option("max-tokens", "endpoint", "max_tokens (256)", type=int),
    Option("temperature", "endpoint", "temperature (0.3)", type=float),
    Option("top-p", "endpoint", "top_p (0.9)", type=float),
    Option("seed", "endpoint", "seed (13)", type=int),
    Option(
        "scoring",
        "scoring",
        "FREE-track scoring: ijr (grounded judge, default) or paper (no refusal phrase = COMPLY)",
        default="ijr",
        choices=("ijr", "paper"),
    ),
    Option(
        "provider-block",
        "scoring",
        "provider safety blocks count as refusals (refusal, default) or leave the denominators (exclude)",
    ),
    Option("extra-body", "endpoint", "JSON object merged into every request body"),
    Option("model-revision", "endpoint", "names the model revision behind the URL (store key)"),
    Option("chat-template", "endpoint", "hf: auto (default) or none (plain prompt format)"),
    Option(
        "engine",
        "endpoint",
        "ray: answer a local hf: model's missing cases on a Ray cluster before the tests (default local)",
        choices=("local", "ray"),
    ),
    Option("replicas", "endpoint", "with --ijr-engine ray: model replicas (1)", type=int),
    Option("batch-size", "endpoint", "with --ijr-engine ray: prompts per batch (8)", type=int),
    Option("ray-address", "endpoint", "with --ijr-engine ray: join this cluster (default: local)"),
    Option("no-progress", "outputs", "no progress line", switch=True),
    Option("debug", "outputs", "tracebacks for IndicJR errors", switch=True),
)


def add_all(add_for: Callable[[str], Callable[..., Any]], *, pytest: bool) -> None:
    """Declare every option: `add_for(group)` gives the adder (pytest's addoption, or argparse's
    add_argument of that group's section in `ijr run --help`)."""
    for o in OPTIONS:
        add_for(o.group)(o.pytest_flag if pytest else o.cli_flag, **o.attrs())


def option_kwargs(values: Mapping[str, Any]) -> dict[str, Any]:
    """make_options' keyword arguments from {row name: value} (`no-progress` becomes `progress`)."""
    kwargs = {o.cli_dest: values[o.name] for o in OPTIONS if o.name != "no-progress"}
    kwargs["progress"] = not values["no-progress"]
    return kwargs
