"""Timeouts that do not storm a slow local server (issue 25): the timeout counts from the send, a timeout on
a server on this machine lowers concurrency like a 429, and the final error names --ijr-timeout."""

from __future__ import annotations

import pytest

import indicjr.targets.calls as calls
from indicjr.targets.providers.openai import OpenAITarget
from indicjr.targets.runner import generate_all
from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults
from indicjr.testing.plans import plan_of
from tests.unit.targets.conftest import make_requests

QUICK = {"backoff_base_s": 0.01, "backoff_cap_s": 0.05}


def test_the_timeout_starts_when_the_request_is_sent_not_while_it_waits_for_a_slot() -> None:
    # One slot, 20 requests of 0.1 s each, a 1.5 s timeout: the last waits at least 1.9 s for its slot and
    # must still get its full 1.5 s once sent. A timeout counted from the queue fails the 16th request on
    # any machine; 1.4 s of headroom per 0.1 s answer keeps a loaded one from failing a correct runner.
    with FakeServer(config=FakeConfig(latency_s=0.1)) as srv:
        target = OpenAITarget(name="openai:t", model="t", base_url=srv.openai_base, timeout_s=1.5)
        result = generate_all(
            make_requests(20), target=target, store=None, model="m", plan=plan_of(concurrency=1, timeout_s=1.5)
        )
    assert result.stats.n_errors == 0 and result.stats.retries == {} and result.stats.n_calls == 20


def run_serial(local: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, dict[str, int]]:
    """(calls, errors, attempts) of 8 requests at concurrency 4 against a server that answers one at a time."""
    if not local:  # the same server seen as remote: timeouts are retried at full concurrency
        monkeypatch.setattr(calls, "LOOPBACK", frozenset())
    with FakeServer(config=FakeConfig(latency_s=0.25, serial=True)) as srv:
        target = OpenAITarget(name="openai:t", model="t", base_url=srv.openai_base, timeout_s=0.7)
        result = generate_all(
            make_requests(8), target=target, store=None, model="m", plan=plan_of(concurrency=4, timeout_s=0.7, **QUICK)
        )
    return result.stats.n_calls, result.stats.n_errors, result.stats.attempts


def test_timeouts_on_a_local_server_lower_concurrency_instead_of_storming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    local_calls, local_errors, attempts = run_serial(True, monkeypatch)
    remote_calls, _remote_errors, _ = run_serial(False, monkeypatch)
    assert local_errors == 0 and sum(attempts.values()) == 8
    assert local_calls < remote_calls, (local_calls, remote_calls)


def test_a_request_that_keeps_timing_out_names_the_option_to_raise() -> None:
    config = FakeConfig(faults=Faults(rate_hang=1.0), hang_s=60.0)  # never a late answer, even on a slow machine
    with FakeServer(config=config) as srv:
        target = OpenAITarget(name="openai:t", model="t", base_url=srv.openai_base, timeout_s=0.2)
        result = generate_all(
            make_requests(1), target=target, store=None, model="m", plan=plan_of(max_retries=1, timeout_s=0.2, **QUICK)
        )
    (resp,) = result.responses.values()
    assert resp.error is not None and "a slow model needs a longer --ijr-timeout (now 0.2s)" in resp.error
    assert result.stats.attempts == {"2": 1}
