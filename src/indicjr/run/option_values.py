"""How each option's raw value (as typed, or None when not given) becomes its record field's value.

Every parser is `parse(raw, flag, where) -> value`: `flag` is the option as pytest spells it (messages
name it), `where` says where relative paths start. A bad value is one ConfigError line naming the flag.
Paths typed by the user are relative to where they typed them (`where.cwd`); defaults live under the
project root (thresholds.yaml, .ijr/, audit/).
"""

from __future__ import annotations

import json
import math
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicjr.errors import ConfigError
from indicjr.langs import Track
from indicjr.run.selection import parse_langs, parse_list
from indicjr.targets.options import DEFAULT_MODEL

MAX_TIMEOUT_S = 3600.0  # an hour per request: beyond it a timeout is a mistake, not a setting
MIN_QPS = 0.01  # below one request per 100 s a run of any size never finishes: a typo, not a setting


@dataclass(frozen=True, slots=True)
class Where:
    root: Path  # the project root: where defaults live
    cwd: Path  # where the command was typed: where given paths start


Parser = Callable[[Any, str, Where], Any]


def as_given(raw: Any, flag: str, where: Where) -> Any:
    return raw


def default(value: Any) -> Parser:
    """Any given value; None -> value."""

    def parse(raw: Any, flag: str, where: Where) -> Any:
        return value if raw is None else raw

    return parse


def number(
    default: float | None, *, zero: bool = False, max_seconds: float | None = None, min_rate: float | None = None
) -> Parser:
    """A finite number > 0 (>= 0 with `zero`): a duration of at most max_seconds, a rate of at least
    min_rate, when given; None -> default."""

    def parse(raw: Any, flag: str, where: Where) -> Any:
        if raw is None:
            return default
        if not math.isfinite(raw):  # nan compares false with everything and slipped through
            raise ConfigError(f"{flag}: must be a finite number, got {raw}")
        if raw < 0 or (raw == 0 and not zero):
            raise ConfigError(f"{flag}: must be {'>= 0' if zero else '> 0'}, got {raw}")
        if max_seconds is not None and raw > max_seconds:
            raise ConfigError(f"{flag}: at most {max_seconds:g} seconds per request, got {raw:g}")
        if min_rate is not None and raw < min_rate:
            raise ConfigError(f"{flag}: at least {min_rate:g} requests per second (one per 100 s), got {raw:g}")
        return raw if raw or not zero else default

    return parse


def within(default: float, low: float, high: float, *, open_low: bool = False) -> Parser:
    """A number in [low, high] ((low, high] with open_low); None -> default."""

    def parse(raw: Any, flag: str, where: Where) -> Any:
        if raw is None:
            return default
        if not (low < raw <= high if open_low else low <= raw <= high):
            raise ConfigError(f"{flag}: must be within {'(' if open_low else '['}{low:g}, {high:g}], got {raw}")
        return raw

    return parse


def choice(allowed: Sequence[str]) -> Parser:
    """One of allowed (None -> the first, the default)."""

    def parse(raw: Any, flag: str, where: Where) -> Any:
        if raw is None:
            return allowed[0]
        if raw not in allowed:
            raise ConfigError(f"{flag}: expected {' or '.join(allowed)}, got {raw!r}")
        return raw

    return parse


def model(raw: str | None, flag: str, where: Where) -> str:
    if raw is not None and not raw.strip():
        raise ConfigError(f"{flag}: empty model spec (use e.g. sim:reference or openai:gpt-4o)")
    return raw or DEFAULT_MODEL


def api_base(raw: str | None, flag: str, where: Where) -> str | None:
    """An http(s) URL with a host; the value itself is not echoed (it may hold a credential)."""
    if raw is None:
        return None
    parts = urllib.parse.urlsplit(raw.strip())
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ConfigError(f"{flag}: the port is not a number (expected e.g. http://localhost:8000/v1)") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{flag}: expected an http:// or https:// URL with a host, e.g. http://localhost:8000/v1")
    return raw


def profile(raw: str | None, flag: str, where: Where) -> str:
    """lite/full stay names; anything else is a path, made absolute against the invocation dir."""
    if not raw:
        return "lite"
    if raw in ("lite", "full"):
        return raw
    path = (where.cwd / raw).resolve()
    if not path.exists():
        raise ConfigError(f"{flag}: unknown profile {raw!r}: not lite or full, and no such path {path}")
    return str(path)


def langs(raw: str | None, flag: str, where: Where) -> tuple[str, ...]:
    return parse_langs(raw)


def tracks(raw: str | None, flag: str, where: Where) -> tuple[str, ...]:
    return parse_list(flag, raw, [t.value for t in Track])


def given_path(raw: str | None, flag: str, where: Where) -> Path | None:
    return where.cwd / raw if raw else None


def file_or(default: str, *, off: bool, hint: str = "") -> Parser:
    """A given file that must exist (relative to cwd), else root/default; `none` turns it off (with off)."""

    def parse(raw: str | None, flag: str, where: Where) -> Path | None:
        if off and raw == "none":
            return None
        if not raw:
            return where.root / default
        if not (where.cwd / raw).is_file():
            raise ConfigError(f"{flag}: no such file {where.cwd / raw}{hint}")
        return where.cwd / raw

    return parse


def store(raw: str | None, flag: str, where: Where) -> Path | None:
    if raw == "none":
        return None
    return where.cwd / raw if raw else where.root / ".ijr" / "store.sqlite"


def replay(raw: str | None, flag: str, where: Where) -> Path | None:
    if not raw:
        return None
    folder = where.cwd / raw
    if not (folder / "results.jsonl").is_file():
        raise ConfigError(f"{flag}: {folder} has no results.jsonl (give a run directory)")
    return folder


def price(raw: str | None, flag: str = "--ijr-price", where: Where | None = None) -> tuple[float, float] | None:
    """'2.5,10' -> (2.5, 10.0): USD per million input and output tokens."""
    if not raw:
        return None
    try:
        prices = tuple(float(p) for p in raw.split(","))
    except ValueError:
        prices = ()
    if len(prices) != 2 or min(prices) < 0:
        raise ConfigError(f"{flag}: expected INPUT,OUTPUT USD per million tokens (e.g. 2.5,10), got {raw!r}")
    return prices[0], prices[1]


def extra_body(raw: str | None, flag: str = "--ijr-extra-body", where: Where | None = None) -> str | None:
    """A JSON object (e.g. '{"reasoning_effort": "low"}'), kept in canonical form."""
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{flag}: not JSON ({e.msg} at column {e.colno}): {raw[:80]!r}") from None
    if not isinstance(data, dict):
        example = '{"reasoning_effort": "low"}'
        raise ConfigError(f"{flag}: expected a JSON object like '{example}', got {raw[:80]!r}")
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stripped(raw: str | None, flag: str, where: Where) -> str | None:
    return (raw or "").strip() or None


def negated(raw: bool, flag: str, where: Where) -> bool:
    """A `--no-X` switch stored as X."""
    return not raw
