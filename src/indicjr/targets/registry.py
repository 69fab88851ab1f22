"""The --model spec grammar and a lazy registry of target factories.

    openai:<model>      OpenAI-compatible chat completions; base from api_base / OPENAI_BASE_URL
    openai-completions:<model>  a base model through OpenAI-compatible /completions (plain prompt)
    anthropic:<model>   Anthropic Messages API; needs ANTHROPIC_API_KEY
    hf:<path>           local transformers model (optional extra: pip install indicjr[hf])
    sim:<profile>       the built-in simulated model
    replay:<run_dir>    answers recorded in <run_dir>/results.jsonl, zero model calls

Each scheme's module is imported only when its scheme is used (the inspect_ai provider pattern), so
`sim:` runs never import aiohttp and `hf:` alone needs torch. Errors are one line and never contain a key.

A provider is one `register(scheme, factory, http=...)` call here and its module under providers/ (or
sim/): the factory returns an object implementing base.Target — `store_identity()` included — and
make_target refuses, in one line, an object that does not (so no provider can silently share stored
answers across endpoints). `http=True` marks a provider that talks to a server through providers/http.py:
the contract test (tests/unit/targets/test_provider_contract.py) then runs the HTTP parts on it too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from indicjr.errors import ConfigError, TargetError
from indicjr.targets.base import Identity, Settings, Target
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


@dataclass(frozen=True, slots=True)
class Provider:
    """One registered scheme: its factory and whether it talks to an HTTP server (providers/http.py)."""

    scheme: str
    factory: Callable[[TargetArgs], Target]
    http: bool


TARGET_MEMBERS = (
    "name",
    "simulated",
    "display_name",
    "param_adaptations",
    "store_identity",
    "generate",
    "aclose",
    "check",
)


def parse_model_spec(spec: str) -> tuple[str, str]:
    """`scheme:name` -> (scheme, name); ConfigError (one line) for anything else."""
    text = spec.strip()
    scheme, sep, name = text.partition(":")
    schemes = ", ".join(sorted(PROVIDERS))
    if not sep:
        raise ConfigError(f"--model {spec!r}: expected <scheme>:<name>, e.g. openai:gpt-4o-mini (schemes: {schemes})")
    scheme = scheme.strip().lower()
    if scheme not in PROVIDERS:
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
    return require_target(PROVIDERS[scheme].factory(args), spec.strip())


def require_target(target: object, spec: str) -> Target:
    """target, when it implements every member of base.Target; else a one-line TargetError naming the
    missing members (a provider without store_identity() would share answers across endpoints)."""
    missing = [m for m in TARGET_MEMBERS if not hasattr(target, m)]
    if missing:
        kind = type(target).__name__
        raise TargetError(f"{spec}: {kind} does not implement the Target interface (missing: {', '.join(missing)})")
    return cast(Target, target)


def store_identity(
    spec: str, target: Target, *, revision: str | None = None, extra_body: Mapping[str, Any] | None = None
) -> str:
    """What names "the same model" in the response store: the spec (provider and model), the endpoint
    (base URL without credentials), a fingerprint of local model files (hf:), --ijr-model-revision and
    the extra body. Two endpoints serving one model name never share answers. The target declares its
    part (Target.store_identity); the string is byte-identical to the one stores were written with before
    the declaration existed (tests/unit/targets/test_provider_contract.py holds the recorded strings)."""
    ident = require_target(target, spec.strip()).store_identity()
    if not isinstance(ident, Identity):
        raise TargetError(f"{spec.strip()}: store_identity() returned {type(ident).__name__}, not an Identity")
    return identity_key(spec, ident, revision=revision, extra_body=extra_body)


def identity_key(
    spec: str, ident: Identity, *, revision: str | None = None, extra_body: Mapping[str, Any] | None = None
) -> str:
    """The store identity string for a declared Identity (the `model` of every Request.key)."""
    parts = {
        "spec": spec.strip(),
        "endpoint": public_url(ident.endpoint),
        "fingerprint": ident.fingerprint,
        "revision": revision,
        "extra_body": dict(extra_body or {}),
    }
    if ident.chat_template != "auto":  # hf: the plain prompt is another request than the chat template's
        parts["chat_template"] = ident.chat_template
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
    from indicjr.targets.providers.openai import OpenAITarget

    base, key = _openai_base(a)
    return OpenAITarget(
        name=a.spec, model=a.name, base_url=base, api_key=key, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _openai_completions(a: TargetArgs) -> Target:
    from indicjr.targets.providers.openai import OpenAICompletionsTarget

    base, key = _openai_base(a)
    return OpenAICompletionsTarget(
        name=a.spec, model=a.name, base_url=base, api_key=key, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _anthropic(a: TargetArgs) -> Target:
    from indicjr.targets.providers.anthropic import AnthropicTarget

    key = a.env.get("ANTHROPIC_API_KEY")
    if not key:
        raise TargetError(f"{a.spec}: ANTHROPIC_API_KEY is not set")
    base = a.api_base or a.env.get("ANTHROPIC_BASE_URL") or ANTHROPIC_DEFAULT_BASE
    return AnthropicTarget(
        name=a.spec, model=a.name, api_key=key, base_url=base, timeout_s=a.timeout_s, extra_body=a.extra_body
    )


def _hf(a: TargetArgs) -> Target:
    from indicjr.targets.providers.hf import make_hf_target

    return make_hf_target(a.name, a.settings, name=a.spec, chat_template=a.chat_template)


def _sim(a: TargetArgs) -> Target:
    from indicjr.targets.sim import make_sim_target

    return make_sim_target(a.name, a.settings)


def _replay(a: TargetArgs) -> Target:
    from indicjr.targets.providers.replay import ReplayTarget

    return ReplayTarget(run_dir=a.name, name=a.spec)


PROVIDERS: dict[str, Provider] = {}


def register(scheme: str, factory: Callable[[TargetArgs], Target], *, http: bool) -> Provider:
    """Add a --model scheme; ConfigError (one line) for a malformed or already registered scheme."""
    if not scheme or scheme != scheme.strip().lower() or ":" in scheme:
        raise ConfigError(f"provider scheme {scheme!r}: expected a lower-case name without ':'")
    if scheme in PROVIDERS:
        raise ConfigError(f"provider scheme {scheme!r} is already registered")
    PROVIDERS[scheme] = Provider(scheme, factory, http)
    return PROVIDERS[scheme]


register("anthropic", _anthropic, http=True)
register("hf", _hf, http=False)
register("openai", _openai, http=True)
register("openai-completions", _openai_completions, http=True)
register("replay", _replay, http=False)
register("sim", _sim, http=False)
