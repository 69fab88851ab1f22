"""What the HTTP providers share: the transport, status -> error mapping, JSON decoding, the
reachability check, and `JSONEndpoint` (POST a JSON body, adapt a rejected parameter once, read a
provider's prompt filter). Providers import this module, never each other.

Why aiohttp and not httpx (measured on this 2-core machine, loopback server in a subprocess, see
benchmarks/RESULTS.md): httpx 0.28.1's pool collapses at 48+ connections and tops out near 550 req/s at
32; aiohttp through this target layer does several thousand req/s and stays flat at concurrency 64. The
transport is injectable (`transport=`), so tests and benchmarks can swap it.

Fault mapping (TransientError is retried by the runner, PermanentError is recorded at once; both are
IJRErrors, see errors.py):
    429                          -> Fault(kind="429", retry_after from Retry-After)
    5xx, 408, 409                -> Fault(kind="5xx" / "timeout")
    timeout                      -> Fault(kind="timeout")
    refused / reset / disconnect -> Fault(kind="connect" / "reset")
    empty, malformed, truncated  -> Fault(kind="malformed")
    400 naming a parameter       -> adapted once (targets/params.py), the request resent at once
    400 prompt filter (Azure)    -> a provider-blocked Response (targets/providers/shapes.py), not an error
    prompt past the context      -> ContextOverflow (targets/overflow.py: 400/413/422 in each server's
                                    words, llama-cpp-python's 500 "llama_decode returned 1"), never retried
    other 4xx (400/401/403/404)  -> PermanentError (401/403/404 named as configuration faults, base.py)
"""

from __future__ import annotations

import email.utils
import json
import socket
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from indicjr.errors import TargetError
from indicjr.targets.base import ContextOverflow, Fault, Identity, PermanentError, Request, Response
from indicjr.targets.overflow import context_overflow
from indicjr.targets.params import ParamAdapter
from indicjr.targets.providers.shapes import Reading, read_prompt_block
from indicjr.targets.urls import public_url, url_secrets, with_path, without_userinfo


class Transport(Protocol):
    """POST bytes, get (status, headers, body). Raises Fault on transport-level failures."""

    async def post(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
    ) -> tuple[int, Mapping[str, str], bytes]: ...

    async def aclose(self) -> None: ...


class AiohttpTransport:
    """aiohttp with one keep-alive pool; the session is created lazily on the running loop."""

    def __init__(self, *, limit: int = 256, headers: Mapping[str, str] | None = None) -> None:
        self._limit = limit
        self._headers = headers  # session defaults: passing the same dict per request costs a merge
        self._session: Any = None

    async def post(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
    ) -> tuple[int, Mapping[str, str], bytes]:
        import aiohttp

        session = self._open(aiohttp)
        try:
            extra = None if headers is self._headers else headers
            async with session.post(url, data=body, headers=extra, timeout=aiohttp.ClientTimeout(total=timeout_s)) as r:
                return r.status, r.headers, await r.read()
        except TimeoutError as e:
            raise Fault(f"timed out after {timeout_s:g}s: {public_url(url)}", kind="timeout") from e
        except aiohttp.ClientPayloadError as e:
            raise Fault(f"truncated body from {public_url(url)}", kind="malformed") from e
        except aiohttp.ClientConnectorError as e:
            raise Fault(f"cannot connect to {public_url(url)}: {_reason(e.os_error)}", kind="connect") from e
        except (aiohttp.ClientError, ConnectionError) as e:
            raise Fault(f"connection reset by {public_url(url)}: {type(e).__name__}", kind="reset") from e

    def _open(self, aiohttp: Any) -> Any:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._limit, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector,
                cookie_jar=aiohttp.DummyCookieJar(),
                headers=self._headers,
                skip_auto_headers=("User-Agent",),
            )
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: either delta-seconds (fractions accepted) or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_error(
    status: int, headers: Mapping[str, str], body: bytes, url: str, secret: str | Sequence[str] | None = None
) -> Exception:
    """The exception for a non-2xx answer; the body snippet is redacted of the key(s) and kept one line."""
    snippet = redact(body[:200].decode("utf-8", "replace"), secret).replace("\n", " ").strip()
    msg = f"HTTP {status} from {url}" + (f": {snippet}" if snippet else "")
    overflow = context_overflow(status, body)
    if overflow is not None:
        return ContextOverflow(msg, status=status, detail=redact(overflow, secret))
    if status == 429:
        return Fault(msg, kind="429", status=status, retry_after=parse_retry_after(headers.get("Retry-After")))
    if status >= 500 or status == 409:
        return Fault(msg, kind="5xx", status=status, retry_after=parse_retry_after(headers.get("Retry-After")))
    if status == 408:
        return Fault(msg, kind="timeout", status=status)
    return PermanentError(msg, status=status)


def redact(text: str, secret: str | Sequence[str] | None) -> str:
    for one in (secret,) if isinstance(secret, str) else secret or ():
        if one:
            text = text.replace(one, "***")
    return text


def decode_json(body: bytes, url: str) -> dict[str, Any]:
    """The JSON object in a 200 body, or a malformed Fault (empty, not JSON, not an object)."""
    if not body.strip():
        raise Fault(f"empty body from {url}", kind="malformed")
    try:
        data = json.loads(body)
    except ValueError as e:
        raise Fault(f"malformed JSON body ({len(body)} bytes) from {url}", kind="malformed") from e
    if not isinstance(data, dict):
        raise Fault(f"unexpected JSON ({type(data).__name__}) from {url}", kind="malformed")
    return data


def check_reachable(url: str, headers: Mapping[str, str], *, base: str, key_env: str, timeout_s: float = 5.0) -> None:
    """GET url once with a short timeout; one-line TargetError if unreachable or the key is rejected.
    Messages name the URL without credentials; user:password@ in it is sent as Basic auth."""
    plain, auth = without_userinfo(url)
    req = urllib.request.Request(plain, headers={**auth, **headers}, method="GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as r:
            r.read()
    except urllib.error.HTTPError as e:
        e.close()
        if e.code in (401, 403):
            raise TargetError(f"{base} rejected the API key (HTTP {e.code}): check {key_env}") from None
        if e.code >= 500:
            raise TargetError(f"{base} is failing (HTTP {e.code} on {public_url(url)})") from None
    except (urllib.error.URLError, OSError) as e:
        reason = e.reason if isinstance(e, urllib.error.URLError) else e
        raise TargetError(f"cannot reach {base}: {_reason(reason)}") from None


def _reason(err: object) -> str:
    if isinstance(err, ConnectionRefusedError):
        return "connection refused"
    if isinstance(err, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(err, socket.gaierror):
        return "unknown host"
    text = getattr(err, "strerror", None) or str(err)
    return str(text).replace("\n", " ")


class JSONEndpoint(ABC):
    """What the HTTP targets share: one URL, headers, a transport, the extra body and the parameter
    adapter, and `_send` — POST, adapt once on a 400 naming a parameter, recognise a prompt filter.
    Its store identity is its endpoint: two servers (another host, port or path) never share answers."""

    simulated = False
    models_path: str  # GET base + this answers when the server is up and the key accepted (check())
    key_env: str  # the variable the key comes from, named when the server rejects it
    name: str
    model: str
    base_url: str  # the server's base, credentials kept (public_url(...) for anything shown or stored)
    _url: str  # what is requested (credentials in the URL kept)
    _shown: str  # what messages name: _url without credentials
    _secrets: tuple[str, ...]  # the key and the URL's credentials, redacted from what the server says
    _key: str | None
    _headers: dict[str, str]
    _timeout_s: float
    _transport: Transport
    _extra: dict[str, Any]
    params: ParamAdapter

    @property
    def display_name(self) -> str:
        return self.name

    @property
    def param_adaptations(self) -> tuple[str, ...]:
        return self.params.adaptations

    def store_identity(self) -> Identity:
        return Identity(endpoint=public_url(self.base_url), fingerprint=None, chat_template="auto")

    def _connect(
        self,
        *,
        name: str,
        model: str,
        given_url: str,
        base_url: str,
        path: str,
        api_key: str | None,
        headers: Mapping[str, str],
        timeout_s: float,
        transport: Transport | None,
        extra_body: Mapping[str, Any] | None,
        params: ParamAdapter,
    ) -> None:
        """Set what every HTTP provider keeps (its __init__ passes its own base, path, auth headers)."""
        self.name, self.model, self.base_url = name, model, base_url
        self._url = with_path(base_url, path)
        self._shown = public_url(self._url)
        self._secrets = tuple(s for s in (api_key, *url_secrets(given_url)) if s)
        self._key = api_key
        self._timeout_s = timeout_s
        self._headers = {"Content-Type": "application/json", **headers}
        self._transport = transport or AiohttpTransport(headers=self._headers)
        self._extra = dict(extra_body or {})
        self.params = params

    def check(self) -> None:
        check_reachable(
            with_path(self.base_url, self.models_path),
            self._headers,
            base=public_url(self.base_url),
            key_env=self.key_env,
            timeout_s=min(5.0, self._timeout_s),
        )

    def __repr__(self) -> str:  # never show the key
        return f"{type(self).__name__}(name={self.name!r}, base_url={public_url(self.base_url)!r})"

    @abstractmethod
    def _payload(self, request: Request) -> dict[str, Any]:
        """The request body for one Request (each provider's own shape)."""

    @abstractmethod
    def _parse(self, data: dict[str, Any], latency_s: float) -> Response:
        """The Response read from one answer body (each provider's own shape)."""

    async def generate(self, request: Request) -> Response:
        t0 = time.perf_counter()
        data = await self._send(self._payload(request))
        if isinstance(data, Reading):  # the provider filtered the prompt: a block, not an error
            return reading_response(data, {}, time.perf_counter() - t0)
        return self._parse(data, time.perf_counter() - t0)

    async def _send(self, base: dict[str, Any]) -> dict[str, Any] | Reading:
        """The decoded 200 body, or the Reading of a provider's prompt filter; raises otherwise."""
        payload = self.params.apply(base)
        while True:
            body = json.dumps({**payload, **self._extra}, ensure_ascii=False).encode("utf-8")
            status, headers, data = await self._transport.post(self._url, body, self._headers, self._timeout_s)
            if status == 200:
                return decode_json(data, self._shown)
            if status == 400:
                blocked = read_prompt_block(data)
                if blocked is not None:
                    return blocked
                if self.params.learn(status, data, payload):
                    payload = self.params.apply(payload)
                    continue
            raise status_error(status, headers, data, self._shown, self._secrets)

    async def aclose(self) -> None:
        await self._transport.aclose()


def reading_response(r: Reading, usage: Mapping[str, Any], latency_s: float) -> Response:
    """A Response from what a body says (usage in OpenAI's or Anthropic's key names)."""
    return Response(
        text=r.text,
        finish_reason=r.finish_reason,
        input_tokens=int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("completion_tokens") or usage.get("output_tokens") or 0),
        latency_s=latency_s,
        provider_block=r.block,
        provider_detail=r.detail,
        reasoning=r.reasoning,
    )
