"""The --model spec grammar and a lazy registry of target factories.

    openai:<model>      OpenAI-compatible chat completions; base from api_base / OPENAI_BASE_URL
    openai-completions:<model>  a base model through OpenAI-compatible /completions (plain prompt)
    anthropic:<model>   Anthropic Messages API; needs ANTHROPIC_API_KEY
    hf:<path>           local transformers model (optional extra: pip install indicjr[hf])
    sim:<profile>       the built-in simulated model
    replay:<run_dir>    answers recorded in <run_dir>/results.jsonl, zero model calls

Each scheme's module is imported only when its scheme is used (the inspect_ai provider pattern), so
`sim:` runs never import aiohttp and `hf:` alone needs torch. Errors are one line and never contain a key.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from indicjr.errors import ConfigError, TargetError
from indicjr.targets.base import Settings, Target
from indicjr.targets.urls import public_url

OPENAI_DEFAULT_BASE = "https://api.openai.com/v1"
ANTHROPIC_DEFAULT_BASE = "https://api.anthropic.com"


@dataclass(frozen=True, slots=True)
class TargetArgs:
    """What every factory gets: the parsed spec and the run's connection options."""

    spec: str
    name: str
    settings: Settings
    api_base: str | None
    timeout_s: float
    env: Mapping[str, str]
    extra_body: Mapping[str, Any] = field(default_factory=dict)
    chat_template: str = "auto"  # hf: "none" generates from the plain prompt format


def parse_model_spec(spec: str) -> tuple[str, str]:
    """`scheme:name` -> (scheme, name); ConfigError (one line) for anything else."""
    text = spec.strip()
    scheme, sep, name = text.partition(":")
    schemes = ", ".join(sorted(_FACTORIES))
    if not sep:
        raise ConfigError(f"--model {spec!r}: expected <scheme>:<name>, e.g. openai:gpt-4o-mini (schemes: {schemes})")
    scheme = scheme.strip().lower()
    if scheme not in _FACTORIES:
        raise ConfigError(f"--model {spec!r}: unknown scheme {scheme!r} (schemes: {schemes})")
    if not name.strip():
        raise ConfigError(f"--model {spec!r}: empty model name after '{scheme}:'")
    return scheme, name.strip()


def make_target(
    spec: str,
    *,
    settings: Settings,
    api_base: str | None = None,
    timeout_s: float = 60.0,
    env: Mapping[str, str] = os.environ,
    extra_body: Mapping[str, Any] | None = None,
    chat_template: str = "auto",
) -> Target:
    """Build the target for a --model spec. Call target.check() before any test to fail fast."""
    scheme, name = parse_model_spec(spec)
    args = TargetArgs(spec.strip(), name, settings, api_base, timeout_s, env, dict(extra_body or {}), chat_template)
    return _FACTORIES[scheme](args)


def store_identity(
    spec: str, target: Target, *, revision: str | None = None, extra_body: Mapping[str, Any] | None = None
) -> str:
    """What names "the same model" in the response store: the spec (provider and model), the endpoint
    (base URL without credentials), a fingerprint of local model files (hf:), --ijr-model-revision and
    the extra body. Two endpoints serving one model name never share answers."""
    parts = {
        "spec": spec.strip(),
        "endpoint": public_url(str(getattr(target, "base_url", "") or "")),
        "fingerprint": getattr(target, "fingerprint", None),
        "revision": revision,
        "extra_body": dict(extra_body or {}),
    }
    template = getattr(target, "chat_template", "auto")
    if template != "auto":  # hf: the plain prompt is another request than the chat template's
        parts["chat_template"] = template
    return json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _openai_base(a: TargetArgs) -> tuple[str, str | None]:
    base = a.api_base or a.env.get("OPENAI_BASE_URL") or OPENAI_DEFAULT_BASE
    key = a.env.get("OPENAI_API_KEY") or None
    if key is None and base.rstrip("/") == OPENAI_DEFAULT_BASE:
        raise TargetError(
            f"{a.spec}: OPENAI_API_KEY is not set (needed for {OPENAI_DEFAULT_BASE}; local servers: pass --api-base)"
        )
    return base, key


def _openai(a: TargetArgs) -> Target:
    from indicjr.targets.openai import OpenAITarget

    base, key = _openai_base(a)
    return OpenAITarget(
        name=a.spec, model=a.name, base_url=base, api_key=key, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _openai_completions(a: TargetArgs) -> Target:
    from indicjr.targets.completions import OpenAICompletionsTarget

    base, key = _openai_base(a)
    return OpenAICompletionsTarget(
        name=a.spec, model=a.name, base_url=base, api_key=key, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _anthropic(a: TargetArgs) -> Target:
    from indicjr.targets.anthropic import AnthropicTarget

    key = a.env.get("ANTHROPIC_API_KEY")
    if not key:
        raise TargetError(f"{a.spec}: ANTHROPIC_API_KEY is not set")
    base = a.api_base or a.env.get("ANTHROPIC_BASE_URL") or ANTHROPIC_DEFAULT_BASE
    return AnthropicTarget(
        name=a.spec, model=a.name, api_key=key, base_url=base, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _hf(a: TargetArgs) -> Target:
    from indicjr.targets.hf import make_hf_target

    return make_hf_target(a.name, a.settings, name=a.spec, chat_template=a.chat_template)


def _sim(a: TargetArgs) -> Target:
    from indicjr.targets.sim import make_sim_target

    return make_sim_target(a.name, a.settings)


def _replay(a: TargetArgs) -> Target:
    from indicjr.targets.replay import ReplayTarget

    return ReplayTarget(run_dir=a.name, name=a.spec)


_FACTORIES: dict[str, Callable[[TargetArgs], Target]] = {
    "anthropic": _anthropic,
    "hf": _hf,
    "openai": _openai,
    "openai-completions": _openai_completions,
    "replay": _replay,
    "sim": _sim,
}
