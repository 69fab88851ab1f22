"""Run options shared by the pytest plugin and the CLI, validated into one frozen record."""

from __future__ import annotations

import json
import math
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.langs import Track
from indicjr.run.selection import parse_langs, parse_list
from indicjr.targets.base import Settings

DEFAULT_MODEL = "sim:reference"


@dataclass(frozen=True, slots=True)
class RunOptions:
    model: str = DEFAULT_MODEL
    api_base: str | None = None
    profile: str = "lite"
    langs: tuple[str, ...] = ()
    tracks: tuple[str, ...] = ()
    limit: int = 0
    out_dir: Path = Path(".ijr/run")
    thresholds: Path = Path("thresholds.yaml")
    store: Path | None = Path(".ijr/store.sqlite")
    replay: Path | None = None
    labels: Path | None = Path("audit/labels.jsonl")  # human labels applied to every run (None: off)
    concurrency: int = 16
    qps: float | None = None
    samples: int = 1
    max_cost: float | None = None
    price_per_mtok: tuple[float, float] | None = None  # USD per million (input, output) tokens
    timeout_s: float = 60.0
    settings: Settings = field(default_factory=Settings)
    debug: bool = False
    progress: bool = True
    scoring: str = "ijr"  # FREE scoring: "ijr" (the grounded judge, default) or "paper" (the literal rule)
    provider_block: str = "refusal"  # how provider blocks count: "refusal" or "exclude" (from denominators)
    extra_body: str | None = None  # JSON object merged into every request (canonical form)
    model_revision: str | None = None  # names a revision that changes behind one URL (store key)
    chat_template: str = "auto"  # hf: "none" uses the plain prompt format
    engine: str = "local"  # local: the target in this process; ray: local models on a Ray cluster first
    replicas: int = 1
    batch_size: int = 8
    ray_address: str | None = None
    slice: str = ""  # how the run narrowed the profile (--ijr-lang/--ijr-track/--ijr-limit/-k/-m), "" if not

    @property
    def extra_body_dict(self) -> dict[str, Any]:
        return dict(json.loads(self.extra_body)) if self.extra_body else {}

    @property
    def target_spec(self) -> str:
        return f"replay:{self.replay}" if self.replay else self.model


MAX_TIMEOUT_S = 3600.0  # an hour per request: beyond it a timeout is a mistake, not a setting
MIN_QPS = 0.01  # below one request per 100 s a run of any size never finishes: a typo, not a setting


def _check_api_base(api_base: str | None) -> None:
    """An http(s) URL with a host; the value itself is not echoed (it may hold a credential)."""
    if api_base is None:
        return
    parts = urllib.parse.urlsplit(api_base.strip())
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ConfigError("--api-base: the port is not a number (expected e.g. http://localhost:8000/v1)") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError("--api-base: expected an http:// or https:// URL with a host, e.g. http://localhost:8000/v1")


def _positive(option: str, value: float | None, *, allow_zero: bool = False) -> None:
    if value is None:
        return
    if not math.isfinite(value):  # nan compares false with everything and slipped through
        raise ConfigError(f"{option}: must be a finite number, got {value}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ConfigError(f"{option}: must be {'>= 0' if allow_zero else '> 0'}, got {value}")


def make_options(
    *,
    model: str | None,
    api_base: str | None,
    profile: str | None,
    lang: str | None,
    track: str | None,
    limit: int | None,
    out: str | None,
    thresholds: str | None,
    store: str | None,
    replay: str | None,
    concurrency: int | None,
    qps: float | None,
    samples: int | None,
    max_cost: float | None,
    price: str | None = None,
    timeout: float | None,
    max_tokens: int | None,
    temperature: float | None,
    top_p: float | None,
    seed: int | None,
    debug: bool = False,
    progress: bool = True,
    engine: str | None = None,
    replicas: int | None = None,
    batch_size: int | None = None,
    ray_address: str | None = None,
    root: Path = Path("."),
    cwd: Path | None = None,
    scoring: str = "ijr",
    provider_block: str | None = None,
    extra_body: str | None = None,
    model_revision: str | None = None,
    chat_template: str | None = None,
    slice_tag: str = "",
    labels: str | None = None,
) -> RunOptions:
    """Validate raw option values (as given on the command line) into RunOptions.

    Paths given on the command line are relative to `cwd` (where the user typed them); defaults live
    under the project `root` (thresholds.yaml, .ijr/). A sliced run (`slice_tag`, or a language, track or
    limit given here) writes its own folder by default, so it never replaces the whole profile's run.
    """
    cwd = cwd or root
    _positive("--ijr-limit", limit, allow_zero=True)
    _positive("--ijr-concurrency", concurrency)
    _positive("--ijr-qps", qps)
    _positive("--ijr-samples", samples)
    _positive("--ijr-max-cost", max_cost)
    if max_cost is not None and not price:
        raise ConfigError("--ijr-max-cost: needs --ijr-price INPUT,OUTPUT (USD per million tokens) to count cost")
    _positive("--ijr-timeout", timeout)
    if timeout is not None and timeout > MAX_TIMEOUT_S:
        raise ConfigError(f"--ijr-timeout: at most {MAX_TIMEOUT_S:g} seconds per request, got {timeout:g}")
    if qps is not None and qps < MIN_QPS:
        raise ConfigError(f"--ijr-qps: at least {MIN_QPS:g} requests per second (one per 100 s), got {qps:g}")
    _check_api_base(api_base)
    _positive("--ijr-max-tokens", max_tokens)
    if temperature is not None and not 0 <= temperature <= 2:
        raise ConfigError(f"--ijr-temperature: must be within [0, 2], got {temperature}")
    if top_p is not None and not 0 < top_p <= 1:
        raise ConfigError(f"--ijr-top-p: must be within (0, 1], got {top_p}")
    _positive("--ijr-replicas", replicas)
    _positive("--ijr-batch-size", batch_size)
    if engine not in (None, "local", "ray"):
        raise ConfigError(f"--ijr-engine: expected local or ray, got {engine!r}")
    if engine == "ray" and not (model or "").strip().lower().startswith("hf:"):
        raise ConfigError(f"engine ray: needs --model hf:PATH (a local transformers model), got {model!r}")
    if model is not None and not model.strip():
        raise ConfigError("--model: empty model spec (use e.g. sim:reference or openai:gpt-4o)")
    if scoring not in ("ijr", "paper"):
        raise ConfigError(f"--ijr-scoring: must be ijr or paper, got {scoring!r}")
    defaults = Settings()
    settings = Settings(
        max_tokens=max_tokens or defaults.max_tokens,
        temperature=defaults.temperature if temperature is None else temperature,
        top_p=top_p or defaults.top_p,
        seed=defaults.seed if seed is None else seed,
    )
    replay_dir = (cwd / replay) if replay else None
    if replay_dir is not None and not (replay_dir / "results.jsonl").is_file():
        raise ConfigError(f"--ijr-replay: {replay_dir} has no results.jsonl (give a run directory)")
    from indicjr.slug import slugify

    spec = model or DEFAULT_MODEL
    tag = slice_tag or describe_slice(lang=lang, track=track, limit=limit)
    folder = slugify(spec if not replay else f"replay-{spec}") + (f"--{slugify(tag)}" if tag else "")
    out_dir = cwd / out if out else root / ".ijr" / "runs" / folder
    thresholds_path = cwd / thresholds if thresholds else root / "thresholds.yaml"
    if labels and labels != "none" and not (cwd / labels).is_file():
        raise ConfigError(f"--ijr-labels: no such file {cwd / labels} (write it with `ijr audit import`, or pass none)")
    if thresholds and not thresholds_path.is_file():
        raise ConfigError(f"--ijr-thresholds: no such file {thresholds_path}")
    return RunOptions(
        model=spec,
        api_base=api_base,
        profile=_profile_arg(profile, cwd),
        langs=parse_langs(lang),
        tracks=parse_list("--ijr-track", track, [t.value for t in Track]),
        limit=limit or 0,
        out_dir=out_dir,
        thresholds=thresholds_path,
        store=None if store == "none" else (cwd / store if store else root / ".ijr" / "store.sqlite"),
        replay=replay_dir,
        labels=None if labels == "none" else (cwd / labels if labels else root / "audit" / "labels.jsonl"),
        concurrency=concurrency or 16,
        qps=qps,
        samples=samples or 1,
        max_cost=max_cost,
        price_per_mtok=parse_price(price),
        timeout_s=timeout or 60.0,
        settings=settings,
        debug=debug,
        progress=progress,
        scoring=scoring,
        provider_block=_choice("--ijr-provider-block", provider_block, ("refusal", "exclude")),
        extra_body=parse_extra_body(extra_body),
        model_revision=(model_revision or "").strip() or None,
        chat_template=_choice("--ijr-chat-template", chat_template, ("auto", "none")),
        engine=engine or "local",
        replicas=replicas or 1,
        batch_size=batch_size or 8,
        ray_address=ray_address,
        slice=tag,
    )


def _choice(option: str, value: str | None, allowed: tuple[str, ...]) -> str:
    """value (or the first allowed, the default) when it is one of allowed; ConfigError otherwise."""
    if value is None:
        return allowed[0]
    if value not in allowed:
        raise ConfigError(f"{option}: expected {' or '.join(allowed)}, got {value!r}")
    return value


def parse_extra_body(value: str | None) -> str | None:
    """--ijr-extra-body: a JSON object (e.g. '{"reasoning_effort": "low"}'), kept in canonical form."""
    if not value:
        return None
    try:
        data = json.loads(value)
    except json.JSONDecodeError as e:
        raise ConfigError(f"--ijr-extra-body: not JSON ({e.msg} at column {e.colno}): {value[:80]!r}") from None
    if not isinstance(data, dict):
        example = '{"reasoning_effort": "low"}'
        raise ConfigError(f"--ijr-extra-body: expected a JSON object like '{example}', got {value[:80]!r}")
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def describe_slice(*, lang: str | None = None, track: str | None = None, limit: int | None = None, **more: str) -> str:
    """'lang=hi,ta limit=20' — the options that narrowed a run to part of its profile ("" for none)."""
    parts = {"lang": lang, "track": track, "limit": limit or None, **more}
    return " ".join(f"{k}={v}" for k, v in parts.items() if v)


def _profile_arg(profile: str | None, cwd: Path) -> str:
    """lite/full stay names; anything else is a path, made absolute against the invocation dir."""
    if not profile:
        return "lite"
    if profile in ("lite", "full"):
        return profile
    path = (cwd / profile).resolve()
    if not path.exists():
        raise ConfigError(f"--ijr-profile: unknown profile {profile!r}: not lite or full, and no such path {path}")
    return str(path)


def parse_price(value: str | None) -> tuple[float, float] | None:
    """'2.5,10' -> (2.5, 10.0): USD per million input and output tokens (--ijr-price)."""
    if not value:
        return None
    parts = value.split(",")
    try:
        prices = tuple(float(p) for p in parts)
    except ValueError:
        prices = ()
    if len(prices) != 2 or min(prices) < 0:
        raise ConfigError(f"--ijr-price: expected INPUT,OUTPUT USD per million tokens (e.g. 2.5,10), got {value!r}")
    return prices[0], prices[1]
