"""Fixtures for the reliability tests: a tiny case set, a suite project, a loopback model endpoint.

Every test here drives the whole suite the way a user does — `pytest tests/safety ...` in a subprocess
(pytester) or the `ijr` CLI — and asserts on exit codes, stderr, the written files and the fake
server's request log. Runner-level fault handling is tested in tests/unit/targets; these tests pin what
survives all the way to results.jsonl and summary.json.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.build import PROFILES, ProfileSpec, build_profile
from indicjr.cases.io import write_cases
from indicjr.pytest_plugin.suite import SUITE_FILE
from indicjr.run.selection import stratified_limit
from indicjr.testing.children import default_sigint
from indicjr.testing.fake_server import FakeConfig, FakeServer
from indicjr.testing.peek import stored_answers

SAFETY_TEST = SUITE_FILE.read_text(encoding="utf-8")  # the packaged suite, as a project copy
SECRET = "sk-ijr-canary-SECRET-123"
# Loaded into the suite subprocess (-p fast_retries): the runner's real retry loop, with fewer
# attempts and millisecond backoff so a fault scenario costs a second, not a minute.
FAST_RETRIES = """
import dataclasses
import indicjr.targets.runner as runner

_generate_all = runner.generate_all
_FAST = runner.RetryPolicy(max_retries=2, backoff_base_s=0.01, backoff_cap_s=0.05, lease_s=2.0)

def _fast(requests, **kw):
    kw["plan"] = dataclasses.replace(kw.get("plan") or runner.Plan(), policy=_FAST)
    return _generate_all(requests, **kw)

runner.generate_all = _fast
"""


def last_prompt(messages: Any) -> str:
    """What the fake server counts a request under: the last message's content."""
    return str(messages[-1]["content"] if isinstance(messages[-1], dict) else messages[-1].content)


@pytest.fixture(scope="session")
def tiny_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 Hindi cases (both tracks, every subset) whose last messages are distinct."""
    with pytest.MonkeyPatch.context() as mp:  # one core of each kind: the build takes a second, not ten
        mp.setitem(PROFILES, "tiny", ProfileSpec("tiny", 1, 1, 1, 1, 1, 1))
        cases = stratified_limit(build_profile("tiny", ["hi"]), 40)
    seen: set[str] = set()
    unique = []
    for c in cases:
        if c.messages[-1].content not in seen:
            seen.add(c.messages[-1].content)
            unique.append(c)
    out = tmp_path_factory.mktemp("cases") / "tiny"
    write_cases(unique[:24], out, profile="tiny")
    return out


def case_rows(profile: Path) -> list[dict[str, Any]]:
    files = sorted(profile.glob("*.jsonl"))
    return [json.loads(line) for f in files for line in f.read_text("utf-8").splitlines()]


def prompts_of(profile: Path) -> Counter[str]:
    return Counter(last_prompt(r["messages"]) for r in case_rows(profile))


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A model team's repository: the safety test file, permissive thresholds, fast retries."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(test_safety=SAFETY_TEST, fast_retries=FAST_RETRIES)
    pytester.path.joinpath("thresholds.yaml").write_text(
        "rule: point\ngates:\n  - metric: json_jsr\n    max: 0.99\n", encoding="utf-8"
    )
    return pytester


@pytest.fixture
def fake() -> Iterator[FakeServer]:
    with FakeServer(config=FakeConfig()) as srv:
        yield srv


def suite_cmd(profile: Path, *extra: str, fast: bool = True, node: str = "test_safety.py::test_case") -> list[str]:
    """argv of `python -m pytest` for the safety suite's case tests on `profile` ("--opt=value" keeps
    paths out of pytest's rootdir guess; the snapshot test is left to test_snapshot_file.py)."""
    return [
        sys.executable,
        "-m",
        "pytest",
        node,
        f"--ijr-profile={profile}",
        "--ijr-no-progress",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        *(["-p", "fast_retries"] if fast else []),
        *extra,
    ]


def suite_env(project: pytest.Pytester) -> dict[str, str]:
    """The environment of a suite subprocess: the project folder first on the path, then whatever path
    this session has (a worktree's `src` must win over the shared editable install there too)."""
    path = os.pathsep.join(p for p in (str(project.path), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def start_suite(
    project: pytest.Pytester,
    profile: Path,
    *extra: str,
    fast: bool = True,
    new_session: bool = False,
    quiet: bool = False,
) -> subprocess.Popen[str]:
    """Start the suite in the background (the one launcher of the signal and process-death tests).

    `new_session` puts the run in its own process group, as a terminal's foreground job is (Ctrl-C and
    killpg reach every worker); `quiet` discards the output a test never reads, so a full pipe cannot
    stall the run.
    """
    out = subprocess.DEVNULL if quiet else subprocess.PIPE
    return subprocess.Popen(
        suite_cmd(profile, *extra, fast=fast),
        cwd=project.path,
        env=suite_env(project),
        text=True,
        stdout=out,
        stderr=out,
        start_new_session=new_session,
        preexec_fn=default_sigint,  # Ctrl-C reaches it however this session was started
    )


# For the interruption tests: the server answers the first STALL_ANSWERS requests, then hangs every later
# one for an hour (the suite's timeout is 30 s). Once it has seen STALL_AT requests (the answered ones plus
# --ijr-concurrency=2 hung in flight, with or without -n 2) every answer the run will get is in its hands
# and no other request can start: a signal sent then finds the run still going however slow the machine.
STALL_ANSWERS = 6
STALL_AT = STALL_ANSWERS + 2
STALLING = FakeConfig(hang_after=STALL_ANSWERS, hang_s=3600.0)


def wait_for_requests(proc: subprocess.Popen[str], fake: FakeServer, n: int) -> None:
    """Block until the fake server has seen n requests (60 s at most); the run must still be going."""
    deadline = time.monotonic() + 60
    while fake.total() < n and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, f"the run finished before the server saw {n} requests"


def wait_for_stored(proc: subprocess.Popen[str], store: Path, n: int) -> None:
    """Block until the run's store holds n answers (60 s at most); the run must still be going."""
    deadline = time.monotonic() + 60
    while stored_answers(store) < n and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, f"the run ended before the store held {n} answers"
    assert stored_answers(store) >= n, f"the store holds {stored_answers(store)} answers, not {n}"


def run_suite(
    project: pytest.Pytester,
    profile: Path,
    *extra: str,
    env: dict[str, str] | None = None,
    fast: bool = True,
    node: str = "test_safety.py::test_case",
    timeout: float = 180,
) -> subprocess.CompletedProcess[str]:
    """Run the suite in a subprocess in the project folder; stdout/stderr captured as text. The timeout
    only stops a hung run: a loaded CI machine (its own -n 2 beside this run's) may take a minute."""
    full_env = {**suite_env(project), **(env or {})}
    return subprocess.run(
        suite_cmd(profile, *extra, fast=fast, node=node),
        cwd=project.path,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def openai_args(srv: FakeServer, *extra: str) -> list[str]:
    """The suite's options for the fake server. The timeout is generous: on a loaded CI machine a short one
    turns answers into retries the tests would miscount; a test about timeouts passes its own after it."""
    return ["--model", "openai:test", f"--api-base={srv.openai_base}", "--ijr-timeout=30", *extra]


def read_summary(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "summary.json").read_text(encoding="utf-8")))


def read_rows(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
