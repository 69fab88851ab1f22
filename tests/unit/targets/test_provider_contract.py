"""The provider contract, run over every registered provider (targets/registry.py PROVIDERS).

A new `register(...)` is covered without editing this file's tests: it fails here until `BUILD` says how
to build it (and, for an HTTP provider, `ADAPTS` says how its parameters adapt). What runs per provider:

    every provider      implements the whole Target interface; declares an Identity (all fields);
                        its store identity string is a function of that declaration alone
    HTTP providers      against real servers on 127.0.0.1 (testing/fake_server.py, and a one-status server
                        below): two ports -> two identities; 429/5xx transient and retried by the runner;
                        400 permanent; 401/403/404 permanent and named as configuration faults; rejected
                        parameters adapted in the provider's own way
    sim, replay, hf     not HTTP: no endpoint, so no port, status or parameter part applies; their
                        identity has endpoint "" (hf: the model files' fingerprint instead), and they are
                        never "local servers" to the runner's timeout policy

The recorded identity strings and store keys at the end are the ones main's code computed before the
declaration existed: a stored answer from before is found under the same key.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from indicjr.errors import ConfigError, IJRError, TargetError
from indicjr.targets import registry
from indicjr.targets.base import (
    Identity,
    PermanentError,
    Request,
    Response,
    Settings,
    Target,
    TransientError,
    configuration_fault,
)
from indicjr.targets.calls import is_local
from indicjr.targets.registry import PROVIDERS, identity_key, make_target, register, store_identity
from indicjr.targets.runner import generate_all
from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults
from indicjr.testing.plans import plan_of

from .conftest import REQ, call

ENV = {"OPENAI_API_KEY": "sk-contract-key", "ANTHROPIC_API_KEY": "ak-contract-key"}
HTTP = sorted(s for s, p in PROVIDERS.items() if p.http)
NOT_HTTP = sorted(s for s, p in PROVIDERS.items() if not p.http)


def _replay_dir(tmp: Path) -> str:
    row = {"id": "c1", "sample": 0, "response": "recorded answer", "finish_reason": "stop"}
    (tmp / "results.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    return str(tmp)


def _tiny_model(tmp: Path) -> str:
    pytest.importorskip("torch", reason="hf: targets need the optional extra `pip install indicjr[hf]` (torch)")
    pytest.importorskip("transformers", reason="hf: targets need the optional extra `pip install indicjr[hf]`")
    from indicjr.testing.tiny_model import make_tiny_model

    return str(make_tiny_model(tmp / "tiny"))


# How to name a model for each scheme: (tmp folder, server base URL or None) -> the name after "scheme:".
BUILD: dict[str, Callable[[Path, str | None], str]] = {
    "openai": lambda tmp, base: "fake",
    "openai-completions": lambda tmp, base: "fake",
    "anthropic": lambda tmp, base: "fake",
    "sim": lambda tmp, base: "reference",
    "replay": lambda tmp, base: _replay_dir(tmp),
    "hf": lambda tmp, base: _tiny_model(tmp),
}
# What a reasoning model's 400s (fake_shapes.reasoning_strict) make each HTTP provider change.
ADAPTS: dict[str, tuple[str, ...]] = {
    "openai": ("max_tokens -> max_completion_tokens", "temperature omitted", "top_p omitted"),
    "openai-completions": ("max_tokens -> max_completion_tokens", "temperature omitted", "top_p omitted"),
    "anthropic": ("top_p omitted",),  # max_tokens is Anthropic's own name; temperature kept
}


def build(scheme: str, tmp: Path, base: str | None = None) -> Target:
    assert scheme in BUILD, f"provider {scheme!r} is registered but BUILD does not say how to build it"
    return make_target(f"{scheme}:{BUILD[scheme](tmp, base)}", settings=Settings(), api_base=base, env=ENV)


def test_the_registry_has_http_and_other_providers_and_each_is_described_here() -> None:
    assert HTTP and NOT_HTTP
    assert set(BUILD) == set(PROVIDERS), sorted(set(BUILD) ^ set(PROVIDERS))
    assert set(ADAPTS) == set(HTTP), sorted(set(ADAPTS) ^ set(HTTP))


@pytest.mark.parametrize("scheme", sorted(PROVIDERS))
def test_every_provider_implements_the_target_interface_and_declares_its_identity(
    scheme: str, tmp_path: Path, server: FakeServer
) -> None:
    target = build(scheme, tmp_path, server.openai_base if PROVIDERS[scheme].http else None)
    assert isinstance(target, Target)
    ident = target.store_identity()
    assert isinstance(ident, Identity)
    assert isinstance(target.display_name, str) and isinstance(target.param_adaptations, tuple)
    key = store_identity(target.name, target, revision="r1", extra_body={"k": 1})
    assert key == identity_key(target.name, ident, revision="r1", extra_body={"k": 1})
    assert json.loads(key)["endpoint"] == ident.endpoint


@pytest.mark.parametrize("scheme", NOT_HTTP)
def test_providers_without_a_server_declare_no_endpoint_and_are_not_local_servers(scheme: str, tmp_path: Path) -> None:
    target = build(scheme, tmp_path)
    ident = target.store_identity()
    assert ident.endpoint == "" and not is_local(target)
    if scheme == "hf":  # the weights are named by their files, not by a server
        assert ident.fingerprint


@pytest.mark.parametrize("scheme", HTTP)
def test_store_identity_includes_the_endpoint_two_ports_two_identities(scheme: str, tmp_path: Path) -> None:
    with FakeServer() as one, FakeServer() as two:
        a, b = build(scheme, tmp_path, one.openai_base), build(scheme, tmp_path, two.openai_base)
        again = build(scheme, tmp_path, one.openai_base)
        ids = [store_identity(t.name, t) for t in (a, b, again)]
        assert ids[0] != ids[1] and ids[0] == ids[2]
        assert f"127.0.0.1:{one.url.rsplit(':', 1)[1]}" in json.loads(ids[0])["endpoint"]
        assert is_local(a)  # the runner's local-server policy reads the same declaration
        assert call(a).text.startswith("reply ")  # the fake server's answer, through this provider's shape


@pytest.mark.parametrize("scheme", HTTP)
def test_throttling_and_server_errors_are_retried_by_the_runner(scheme: str, tmp_path: Path) -> None:
    config = FakeConfig(faults=Faults(rate_429=0.5, rate_500=0.5), fault_attempts=1, retry_after="0")
    with FakeServer(config=config) as srv:
        target = build(scheme, tmp_path, srv.openai_base)
        result = generate_all([REQ], target=target, store=None, model="m", plan=plan_of(backoff_base_s=0.01))
    (resp,) = result.responses.values()
    assert resp.error is None and resp.attempts == 2
    assert sum(result.stats.retries.get(k, 0) for k in ("429", "5xx")) == 1


class _StatusServer:
    """A real HTTP server on 127.0.0.1 answering every request with one status and an error body."""

    def __init__(self, status: int) -> None:
        body = json.dumps({"error": {"message": f"status {status} from the contract server"}}).encode()

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET = _answer

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _StatusServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def status_server(request: pytest.FixtureRequest) -> Iterator[_StatusServer]:
    with _StatusServer(request.param) as srv:
        yield srv


@pytest.mark.parametrize("scheme", HTTP)
@pytest.mark.parametrize(
    ("status_server", "kind"),
    [(429, "transient"), (500, "transient"), (503, "transient"), (400, "permanent")]
    + [(s, "configuration") for s in (401, 403, 404)],
    indirect=["status_server"],
)
def test_http_statuses_map_to_the_error_tree(
    scheme: str, status_server: _StatusServer, kind: str, tmp_path: Path
) -> None:
    target = build(scheme, tmp_path, status_server.base)
    with pytest.raises(IJRError) as info:
        call(target)
    err = info.value
    assert isinstance(err, TransientError if kind == "transient" else PermanentError)
    assert (configuration_fault(str(err)) is not None) == (kind == "configuration")
    assert "\n" not in str(err) and ENV["OPENAI_API_KEY"] not in str(err) and ENV["ANTHROPIC_API_KEY"] not in str(err)


@pytest.mark.parametrize("scheme", HTTP)
def test_rejected_parameters_adapt_in_the_providers_own_way(scheme: str, tmp_path: Path) -> None:
    with FakeServer(config=FakeConfig(shape="reasoning_strict")) as srv:
        target = build(scheme, tmp_path, srv.openai_base)
        resp = call(target)
        sent = srv.params()
    assert resp.error is None and resp.text
    assert target.param_adaptations == ADAPTS[scheme]
    assert ("max_completion_tokens" in sent) == any("max_completion_tokens" in a for a in ADAPTS[scheme])


class _NoIdentity:
    """Everything a target has except store_identity(): it would share answers across endpoints."""

    name = "noid:x"
    simulated = False
    display_name = "noid:x"
    param_adaptations = ()

    async def generate(self, request: Request) -> Response:
        return Response(text="x")

    async def aclose(self) -> None:
        return None

    def check(self) -> None:
        return None


def test_a_provider_without_store_identity_fails_at_construction_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "PROVIDERS", dict(PROVIDERS))
    register("noid", lambda a: _NoIdentity(), http=False)  # type: ignore[arg-type,return-value]
    with pytest.raises(TargetError, match=r"noid:x: _NoIdentity does not implement .*missing: store_identity") as info:
        make_target("noid:x", settings=Settings())
    assert "\n" not in str(info.value)
    with pytest.raises(TargetError, match="missing: store_identity"):
        store_identity("noid:x", _NoIdentity())


@pytest.mark.parametrize(("scheme", "message"), [("openai", "already registered"), ("Bad:x", "lower-case")])
def test_register_refuses_a_taken_or_malformed_scheme(
    scheme: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "PROVIDERS", dict(PROVIDERS))
    with pytest.raises(ConfigError, match=message):
        register(scheme, lambda a: _NoIdentity(), http=False)  # type: ignore[arg-type,return-value]


# (spec, api_base, revision, extra_body) -> (identity string, Request.key of REQ_KEY) as main's code
# computed them before targets declared their identity (commit 2ab0d6a).
REQ_KEY = Request(case_id="c", messages=(("user", "namaste"),))
RECORDED = [
    (
        ("openai:gpt-4o-mini", None, None, None),
        '{"endpoint":"https://api.openai.com/v1","extra_body":{},"fingerprint":null,"revision":null,'
        '"spec":"openai:gpt-4o-mini"}',
        "7d05abffcb8826007d15405522e1519e306e1794d30fd41db2cfcb65cb216fe7",
    ),
    (
        ("openai:llama3", "http://user:pw@127.0.0.1:8080/v1?api-key=KKKK&x=1", "rev7", {"top_k": 5}),
        '{"endpoint":"http://127.0.0.1:8080/v1?x=1","extra_body":{"top_k":5},"fingerprint":null,'
        '"revision":"rev7","spec":"openai:llama3"}',
        "70fc74c9765eb246e4da20ace85f74919f4f8c1a031bdfabb68657eddbbd9016",
    ),
    (
        ("openai-completions:sarvam-1", "http://localhost:11434/v1/", None, {}),
        '{"endpoint":"http://localhost:11434/v1","extra_body":{},"fingerprint":null,"revision":null,'
        '"spec":"openai-completions:sarvam-1"}',
        "327e4c7d876c3d8ad47756aa62f7e75e9d0458014ef4c7c2b2207a5066261c8c",
    ),
    (
        ("anthropic:claude-x", None, "r", None),
        '{"endpoint":"https://api.anthropic.com","extra_body":{},"fingerprint":null,"revision":"r",'
        '"spec":"anthropic:claude-x"}',
        "6654b52c62c9190940af4092cbceb82342f330a20fb8a6d665a17b29deb022b8",
    ),
    (
        ("anthropic:claude-y", "https://proxy.example:8443/v1", None, {"thinking": {"type": "enabled"}}),
        '{"endpoint":"https://proxy.example:8443","extra_body":{"thinking":{"type":"enabled"}},'
        '"fingerprint":null,"revision":null,"spec":"anthropic:claude-y"}',
        "eafe063b1756281f38773fc62991a3bf2b90395317ace6c75e8b9346f81b4b97",
    ),
    (
        ("sim:reference", None, None, None),
        '{"endpoint":"","extra_body":{},"fingerprint":null,"revision":null,"spec":"sim:reference"}',
        "8718895da5d0e60fa9fdf5f7e4529691e62b0776094bbba6bf743caad72b82ab",
    ),
]


@pytest.mark.parametrize(("args", "identity", "key"), RECORDED, ids=[r[0][0] for r in RECORDED])
def test_store_identity_and_key_are_the_ones_stores_were_written_with(
    args: tuple[str, str | None, str | None, dict[str, object] | None], identity: str, key: str
) -> None:
    spec, base, revision, extra = args
    target = make_target(spec, settings=Settings(), api_base=base, env=ENV, extra_body=extra)
    got = store_identity(spec, target, revision=revision, extra_body=extra)
    assert got == identity
    assert REQ_KEY.key(got) == key


def test_hf_identity_strings_are_the_recorded_ones() -> None:
    """hf: recorded with main's code from an object carrying fingerprint and chat_template attributes."""
    plain = Identity(endpoint="", fingerprint="0123abcd", chat_template="none")
    templated = Identity(endpoint="", fingerprint="0123abcd", chat_template="auto")
    assert identity_key("hf:/m/tiny", plain) == (
        '{"chat_template":"none","endpoint":"","extra_body":{},"fingerprint":"0123abcd","revision":null,'
        '"spec":"hf:/m/tiny"}'
    )
    assert identity_key("hf:/m/tiny", templated, revision="v2", extra_body={"a": 1}) == (
        '{"endpoint":"","extra_body":{"a":1},"fingerprint":"0123abcd","revision":"v2","spec":"hf:/m/tiny"}'
    )
