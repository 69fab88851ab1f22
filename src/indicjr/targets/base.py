"""The Target protocol and the records that cross it: settings, request, response.

A target turns one Request into one Response. Transport faults are raised as TransientError (worth a
retry) or PermanentError (not); the runner retries, counts and finally records them — a failure is never
turned into a refusal.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol, TypedDict, runtime_checkable

from indicjr.errors import TransportError
from indicjr.untrusted import repair_note, utf8_safe


@dataclass(frozen=True, slots=True)
class Settings:
    """Inference settings (the paper's defaults), recorded with every response."""

    max_tokens: int = 256
    temperature: float = 0.3
    top_p: float = 0.9
    seed: int = 13

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Request:
    """One model call: the case's messages under settings; `sample` indexes repeated draws."""

    case_id: str
    messages: tuple[tuple[str, str], ...]  # (role, content)
    settings: Settings = field(default_factory=Settings)
    sample: int = 0
    # The case's conditions (lang, track, subset, family, mode, orthography, task, category, canary...).
    # Real targets ignore them and they are not part of the store key; the simulated model reads them.
    conditions: tuple[tuple[str, str], ...] = ()

    def condition(self, name: str) -> str | None:
        return dict(self.conditions).get(name)

    def key(self, model: str) -> str:
        """Store key: `model` (the target's store identity: provider, endpoint, model, revision, extra
        body — see registry.store_identity), settings, sample and the exact messages (never the case id
        or any secret)."""
        payload = json.dumps(
            [model, self.settings.to_dict(), self.sample, [list(m) for m in self.messages]],
            ensure_ascii=False,
            separators=(",", ":"),
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Response:
    text: str
    finish_reason: str = "stop"
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    error: str | None = None  # set only on a final inference error (after retries)
    attempts: int = 1
    cached: bool = False
    # The endpoint's own safety layer answered instead of the model (refusal field, content filter,
    # filtered prompt, stop_reason "refusal"): a short reason, see targets/providers/shapes.py. Not an error.
    provider_block: str | None = None
    # The provider's own words: refusal text, filter categories, or (finish_reason "context_overflow")
    # the server's message saying the prompt does not fit the model's context (targets/overflow.py).
    provider_detail: str | None = None
    reasoning: str | None = None  # thinking kept out of `text` (<think> blocks, reasoning_content)
    recorded_at: float | None = None  # when a stored answer was first recorded (epoch seconds)
    repair: str | None = None  # what was replaced to make untrusted reply text writable (see untrusted.py)


class ResponseDict(TypedDict):
    text: str
    finish_reason: str
    input_tokens: int
    output_tokens: int
    latency_s: float
    error: str | None
    attempts: int
    cached: bool
    provider_block: str | None
    provider_detail: str | None
    reasoning: str | None
    recorded_at: float | None
    repair: str | None


def response_to_dict(r: Response) -> ResponseDict:
    return ResponseDict(
        text=r.text,
        finish_reason=r.finish_reason,
        input_tokens=r.input_tokens,
        output_tokens=r.output_tokens,
        latency_s=r.latency_s,
        error=r.error,
        attempts=r.attempts,
        cached=r.cached,
        provider_block=r.provider_block,
        provider_detail=r.provider_detail,
        reasoning=r.reasoning,
        recorded_at=r.recorded_at,
        repair=r.repair,
    )


def response_from_dict(d: ResponseDict) -> Response:
    return Response(**d)


_TEXT_FIELDS = ("text", "finish_reason", "error", "provider_block", "provider_detail", "reasoning")


def writable_response(r: Response) -> Response:
    """r with every lone surrogate in its text fields replaced (a model's reply is untrusted bytes);
    the substitution is recorded in `repair`. r itself when nothing needed replacing (the usual case)."""
    changed: dict[str, str] = {}
    total = 0
    for name in _TEXT_FIELDS:
        value = getattr(r, name)
        if value is not None:
            fixed, n = utf8_safe(value)
            if n:
                changed[name], total = fixed, total + n
    if not total:
        return r
    return replace(r, **changed, repair=repair_note(total))  # type: ignore[arg-type]


class TransientError(TransportError):
    """A fault worth retrying (429, 5xx, timeout, reset, malformed body). retry_after in seconds if given."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class Fault(TransientError):
    """A TransientError that names its kind (429, 5xx, timeout, reset, connect, malformed) for the stats."""

    def __init__(self, message: str, *, kind: str, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message, status=status, retry_after=retry_after)
        self.kind = kind


def fault_kind(exc: TransientError) -> str:
    """The retry counter a fault is counted under: its own kind, or 429 / 5xx / transient by status."""
    if isinstance(exc, Fault):
        return exc.kind
    if exc.status == 429:
        return "429"
    return "5xx" if exc.status is not None and exc.status >= 500 else "transient"


# HTTP statuses that say the run is set up wrong, not that the endpoint is down: waiting will not help.
CONFIGURATION_FAULTS = {
    401: "the endpoint refused the API key (check the key variable)",
    403: "the API key may not use this model or endpoint",
    404: "no such endpoint or model (check --api-base and the model name)",
}


def configuration_fault(error: str | None) -> str | None:
    """What to fix when a failure is HTTP 401/403/404 (a configuration error), else None."""
    found = re.search(r"\bHTTP (\d{3})\b", error or "")
    return CONFIGURATION_FAULTS.get(int(found.group(1))) if found else None


class PermanentError(TransportError):
    """A fault retrying cannot fix (400, 401, 404): recorded as an inference error at once."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ContextOverflow(PermanentError):
    """The prompt does not fit the model's context: the same prompt fails the same way every time, so it
    is never retried. The runner records it as a Response with finish_reason "context_overflow" (an
    outcome of its own, counted per language in summary.json), never as an inference error."""

    def __init__(self, message: str, *, status: int | None = None, detail: str = "") -> None:
        super().__init__(message, status=status)
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Identity:
    """What a target declares about itself for the response store (registry.store_identity adds the
    spec, --ijr-model-revision and the extra body). Answers stored under one identity are served to every
    run with the same identity, so each field that can change an answer is here, and each is required:
    a provider states all of them rather than inheriting a default that would share answers.

    endpoint      the server's URL without credentials (host, port, path): two servers, two identities;
                  "" for a target with no server (simulator, local model, replay)
    fingerprint   a hash of local model files (hf:), None when the spec names the model completely
    chat_template "auto" (the model's own chat template or the provider's chat API), or the prompt format
                  asked for instead ("none": the plain prompt)
    """

    endpoint: str
    fingerprint: str | None
    chat_template: str


@runtime_checkable
class Target(Protocol):
    """A model under test: the interface every provider implements (registry.make_target refuses an
    object missing any member, in one line). `name` is the --model spec; `simulated` marks the built-in
    simulator (never stored); `display_name` is what reports call it; `param_adaptations` lists what the
    endpoint made the target change (targets/params.py), () when nothing can change."""

    name: str
    simulated: bool

    @property
    def display_name(self) -> str: ...

    @property
    def param_adaptations(self) -> tuple[str, ...]: ...

    def store_identity(self) -> Identity:
        """What names this model in the response store (see Identity)."""
        ...

    async def generate(self, request: Request) -> Response: ...

    async def aclose(self) -> None: ...

    def check(self) -> None:
        """Fail fast (TargetError, one line) when the target cannot work: missing key, unreachable."""
        ...
