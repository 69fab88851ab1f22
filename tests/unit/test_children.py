"""A child a test interrupts gets Ctrl-C even when this session was started with SIGINT ignored."""

from __future__ import annotations

import signal
import subprocess
import sys

from indicjr.testing.children import default_sigint

SHOW = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"


def _child_handles_ctrl_c(**popen: object) -> bool:
    out = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, check=True, **popen)  # type: ignore[call-overload]
    return out.stdout.strip() == "True"


def test_a_child_started_with_default_sigint_handles_ctrl_c_though_its_parent_ignores_it() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as under `nohup` or `cmd &` in a script
    try:
        assert not _child_handles_ctrl_c()  # inherited: Ctrl-C would do nothing
        assert _child_handles_ctrl_c(preexec_fn=default_sigint)
    finally:
        signal.signal(signal.SIGINT, before)
