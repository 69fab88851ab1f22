"""Ctrl-C prints IndicJR's resume line, not pytest's KeyboardInterrupt banner pointing into the plugin, and
not syrupy's note about `--snapshot-disable-unused`, a flag the user never passed."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from indicjr.testing.children import default_sigint
from indicjr.testing.fake_server import FakeServer
from tests.reliability.conftest import STALLING, openai_args, suite_cmd
from tests.reliability.test_interruptions import interrupt_after


class _Group(subprocess.Popen[str]):
    """A run in its own session whose signals go to the whole group: a terminal's Ctrl-C (controller and
    xdist workers alike)."""

    def send_signal(self, sig: int) -> None:
        os.killpg(self.pid, sig)


def _interrupted(suite: pytest.Pytester, profile: Path, fake: FakeServer, *extra: str) -> str:
    fake.configure(STALLING)
    path = os.pathsep.join(p for p in (str(suite.path), os.environ.get("PYTHONPATH", "")) if p)
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=2", *extra)
    env = {**os.environ, "PYTHONPATH": path}
    cmd = suite_cmd(profile, *args, node="test_safety.py")
    group = {"start_new_session": True, "preexec_fn": default_sigint}  # a terminal's job, Ctrl-C and all
    proc = _Group(cmd, cwd=suite.path, env=env, text=True, stdout=subprocess.PIPE, **group)
    out = interrupt_after(proc, fake, signal.SIGINT)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, out[-3000:]
    return out


def test_ctrl_c_during_generation_prints_no_keyboardinterrupt_banner(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    out = _interrupted(suite, tiny_cases, fake)
    assert "KeyboardInterrupt" not in out and "--full-trace" not in out
    assert "Interrupted: indicjr: interrupted (Ctrl-C) during generation" in out
    assert sum("rerun the same command to resume" in line for line in out.splitlines()) == 1


def test_ctrl_c_under_xdist_prints_no_banner_and_no_syrupy_note_about_a_flag_nobody_passed(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer
) -> None:
    out = _interrupted(suite, tiny_cases, fake, "-n", "2")
    assert "--snapshot-disable-unused" not in out and "snapshot report summary" not in out
    assert "KeyboardInterrupt" not in out and "Interrupted: indicjr: interrupted (Ctrl-C)" in out
    assert sum("rerun the same command to resume" in line for line in out.splitlines()) == 1
