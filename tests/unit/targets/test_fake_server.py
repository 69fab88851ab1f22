"""The fake server's own guarantees that timing-sensitive tests lean on: a hang ends when the server stops
(a test may hang a request for an hour and still finish at once), `hang_after` stalls a run at a known
request, and `fault_for` tells beforehand which prompts a config will fault."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request

import pytest

from indicjr.targets.base import Fault, Request, Settings
from indicjr.targets.providers.openai import OpenAITarget
from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults, fault_for

from .conftest import call, make_requests


def _target(srv: FakeServer, timeout_s: float) -> OpenAITarget:
    return OpenAITarget(name="openai:fake", model="fake", base_url=srv.openai_base, timeout_s=timeout_s)


def _post(srv: FakeServer, prompt: str, timeout_s: float) -> None:
    body = b'{"messages": [{"role": "user", "content": "%s"}]}' % prompt.encode()
    req = urllib.request.Request(srv.openai_base + "/chat/completions", data=body, method="POST")
    with urllib.request.urlopen(req, timeout=timeout_s) as r:
        r.read()


def test_a_request_hung_for_an_hour_ends_when_the_server_stops() -> None:
    srv = FakeServer(config=FakeConfig(faults=Faults(rate_hang=1.0), hang_s=3600.0)).start()
    errors: list[BaseException] = []

    def client() -> None:
        try:
            _post(srv, "hi", timeout_s=600)
        except (urllib.error.URLError, ConnectionError, OSError) as e:  # cut by the stop
            errors.append(e)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    while srv.total() < 1:  # the request is in the handler, hanging
        time.sleep(0.01)
    t0 = time.monotonic()
    srv.stop()
    thread.join(timeout=120)
    assert not thread.is_alive() and errors, "the hung request outlived the server"
    assert time.monotonic() - t0 < 120  # an hour's hang, ended by the stop


def test_hang_after_answers_the_first_requests_and_hangs_every_later_one() -> None:
    with FakeServer(config=FakeConfig(hang_after=2, hang_s=3600.0)) as srv:
        for i in range(2):
            _post(srv, f"p{i}", timeout_s=30)
        with pytest.raises(Fault) as info:
            call(_target(srv, timeout_s=0.5), make_requests(1, prefix="late")[0])
        assert srv.total() == 3
    assert info.value.kind == "timeout"


def test_fault_for_names_the_prompts_a_config_faults_at_each_attempt() -> None:
    config = FakeConfig(faults=Faults(rate_hang=0.5), fault_attempts=1)
    prompts = [f"prompt {i}" for i in range(40)]
    hangs = {p for p in prompts if fault_for(config, p, 0) == "hang"}
    assert 0 < len(hangs) < 40 and all(fault_for(config, p, 1) is None for p in prompts)
    with FakeServer(config=config) as srv:
        for p in prompts:
            if p not in hangs:
                _post(srv, p, timeout_s=30)  # answered: fault_for said so
        hung = Request(case_id="h", messages=(("user", min(hangs)),), settings=Settings())
        with pytest.raises(Fault) as info:
            call(_target(srv, timeout_s=0.5), hung)  # hangs: fault_for said so
    assert info.value.kind == "timeout"
