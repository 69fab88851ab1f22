"""OpenAI and Anthropic targets against the real loopback server: shapes, faults, keys."""

from __future__ import annotations

import email.utils
import time

import pytest

from indicjr.errors import TargetError
from indicjr.targets.base import Fault, PermanentError, Settings, TransientError
from indicjr.targets.providers.anthropic import AnthropicTarget
from indicjr.targets.providers.http import parse_retry_after, status_error
from indicjr.targets.providers.openai import OpenAITarget
from indicjr.targets.registry import make_target
from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults, reply_text

from .conftest import SECRET, call


def openai(srv: FakeServer, key: str | None = None, timeout_s: float = 30.0) -> OpenAITarget:
    return OpenAITarget(name="openai:fake", model="fake", base_url=srv.openai_base, api_key=key, timeout_s=timeout_s)


def test_openai_target_returns_text_usage_and_finish_reason(server: FakeServer) -> None:
    r = call(openai(server))
    assert r.text == reply_text([{"role": "system", "content": "be brief"}, {"role": "user", "content": "namaste"}])
    assert (r.finish_reason, r.output_tokens) == ("stop", 4)
    assert r.input_tokens > 0 and r.latency_s > 0


def test_anthropic_target_sends_system_separately_and_maps_stop_reason(server: FakeServer) -> None:
    target = AnthropicTarget(name="anthropic:fake", model="fake", api_key="k", base_url=server.url)
    r = call(target)
    assert r.text == reply_text([{"role": "system", "content": "be brief"}, {"role": "user", "content": "namaste"}])
    assert r.finish_reason == "stop" and r.output_tokens == 4


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ("429", "429"),
        ("429_no_retry_after", "429"),
        ("500", "5xx"),
        ("hang", "timeout"),
        ("malformed", "malformed"),
        ("empty", "malformed"),
        ("truncated", "malformed"),
        ("reset", "reset"),
    ],
)
def test_each_injected_fault_is_a_transient_error_of_its_kind(fault: str, kind: str) -> None:
    # Only the hang depends on the timeout: 1 s against a 60 s hang (it can never answer late); every other
    # fault gets 30 s, so a loaded machine cannot turn it into a timeout. The hang ends when the server stops.
    faults = Faults(**{f"rate_{fault}": 1.0})
    with FakeServer(config=FakeConfig(faults=faults, hang_s=60.0)) as srv:
        with pytest.raises(TransientError) as info:
            call(openai(srv, timeout_s=1.0 if fault == "hang" else 30.0))
    assert isinstance(info.value, Fault) and info.value.kind == kind
    assert "\n" not in str(info.value)
    if fault == "429":
        assert info.value.retry_after == pytest.approx(0.05)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_permanent(status: int) -> None:
    assert isinstance(status_error(status, {}, b"nope", "http://x"), PermanentError)


@pytest.mark.parametrize(("status", "kind"), [(429, "429"), (500, "5xx"), (502, "5xx"), (529, "5xx"), (408, "timeout")])
def test_throttling_and_server_errors_are_transient(status: int, kind: str) -> None:
    err = status_error(status, {"Retry-After": "3"}, b"", "http://x")
    assert isinstance(err, Fault) and err.kind == kind


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 27 <= (parse_retry_after(later) or 0) <= 31


def test_connection_refused_is_a_connect_fault() -> None:
    target = OpenAITarget(name="openai:x", model="x", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(Fault) as info:
        call(target)
    assert info.value.kind == "connect" and "connection refused" in str(info.value)


def test_check_fails_fast_with_one_line_when_unreachable() -> None:
    target = make_target("openai:x", settings=Settings(), api_base="http://127.0.0.1:9/v1", env={})
    with pytest.raises(TargetError, match=r"^cannot reach http://127.0.0.1:9/v1: connection refused$"):
        target.check()


def test_check_passes_against_a_live_server(server: FakeServer) -> None:
    make_target("openai:fake", settings=Settings(), api_base=server.openai_base, env={}).check()
    make_target("anthropic:fake", settings=Settings(), api_base=server.url, env={"ANTHROPIC_API_KEY": "k"}).check()


def test_rejected_key_is_named_but_never_shown() -> None:
    with FakeServer(config=FakeConfig(api_key="the-right-key")) as srv:
        target = make_target(
            "openai:fake", settings=Settings(), api_base=srv.openai_base, env={"OPENAI_API_KEY": SECRET}
        )
        with pytest.raises(TargetError) as checked:
            target.check()
        with pytest.raises(PermanentError) as called:
            call(target)  # type: ignore[arg-type]
    for exc in (checked.value, called.value):
        assert SECRET not in str(exc) and SECRET not in repr(exc)
    assert "OPENAI_API_KEY" in str(checked.value)
    assert SECRET not in repr(target)


def test_server_error_body_echoing_the_key_is_redacted() -> None:
    err = status_error(500, {}, f"bad key {SECRET}".encode(), "http://x", SECRET)
    assert SECRET not in str(err) and "***" in str(err)
