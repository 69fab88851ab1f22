"""Run options shared by the pytest plugin and the CLI, validated into one frozen record."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

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
    concurrency: int = 16
    qps: float | None = None
    samples: int = 1
    max_cost: float | None = None
    price_per_mtok: tuple[float, float] | None = None  # USD per million (input, output) tokens
    timeout_s: float = 60.0
    settings: Settings = field(default_factory=Settings)
    debug: bool = False
    progress: bool = True
    slice: str = ""  # how the run narrowed the profile (--ijr-lang/--ijr-track/--ijr-limit/-k/-m), "" if not

    @property
    def target_spec(self) -> str:
        return f"replay:{self.replay}" if self.replay else self.model


def _positive(option: str, value: float | None, *, allow_zero: bool = False) -> None:
    if value is None:
        return
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
    root: Path = Path("."),
    cwd: Path | None = None,
    slice_tag: str = "",
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
    _positive("--ijr-max-tokens", max_tokens)
    if temperature is not None and not 0 <= temperature <= 2:
        raise ConfigError(f"--ijr-temperature: must be within [0, 2], got {temperature}")
    if top_p is not None and not 0 < top_p <= 1:
        raise ConfigError(f"--ijr-top-p: must be within (0, 1], got {top_p}")
    if model is not None and not model.strip():
        raise ConfigError("--model: empty model spec (use e.g. sim:reference or openai:gpt-4o)")
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
        concurrency=concurrency or 16,
        qps=qps,
        samples=samples or 1,
        max_cost=max_cost,
        price_per_mtok=parse_price(price),
        timeout_s=timeout or 60.0,
        settings=settings,
        debug=debug,
        progress=progress,
        slice=tag,
    )


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
