"""SIGTERM handled like Ctrl-C: a CI job's timeout, `kill PID` or a container stop keeps every answer.

Python ends on SIGTERM at once (no `finally`, no atexit): a run stopped by a CI timeout left no
results.jsonl, no summary.json, and only the answers already flushed to the store. With this plugin the
first SIGTERM takes the Ctrl-C path the rest of the plugin already handles — the runner flushes answers
to the store and releases its claims, the controller writes the partial results.jsonl and summary.json
with `complete: false` and prints one "rerun the same command to resume" line. It does so by calling
whatever SIGINT handler is in place (pytest's KeyboardInterrupt, or asyncio.run's, which cancels the
generation task cleanly), so SIGTERM and Ctrl-C can never take different paths.

Installed in every process (controller and pytest-xdist workers) from the plugin's pytest_configure,
only in the main thread and only over the default disposition: a handler the user or CI set is kept.
A second SIGTERM ends the process at once, as before. Ctrl-C in a terminal reaches the whole process
group; a SIGTERM from `timeout` or a CI runner often reaches the controller alone, so an xdist
controller passes it on to its children — the workers (Linux /proc; elsewhere they finish their share).
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from types import FrameType

import pytest

PLUGIN_NAME = "indicjr-sigterm"


class SigtermAsCtrlC:
    """The plugin object: installs the handler on register, restores the default at unconfigure."""

    def __init__(self, *, forward: bool = False) -> None:
        self.installed = False
        self.received = False
        self.forward = forward  # an xdist controller: pass SIGTERM on to the workers
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (
            signal.SIG_DFL,
            None,
        ):
            signal.signal(signal.SIGTERM, self._on_sigterm)
            self.installed = True

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM: end now
        for pid in child_pids() if self.forward else ():
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:  # already gone
                pass
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:  # SIGINT ignored (a background job of a non-interactive shell): stop all the same
            raise KeyboardInterrupt

    def cause(self) -> str:
        return "SIGTERM" if self.received else "Ctrl-C"

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.installed and signal.getsignal(signal.SIGTERM) == self._on_sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def child_pids() -> list[int]:
    """This process's children, from /proc (an empty list where there is no /proc)."""
    me, found = os.getpid(), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "(comm)", which may hold spaces
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and fields[1] == str(me):
            found.append(int(stat.parent.name))
    return found


def install(config: pytest.Config) -> None:
    """Register the plugin once per process (pytest_configure of indicjr's plugin)."""
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        controller = not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))
        config.pluginmanager.register(SigtermAsCtrlC(forward=controller), PLUGIN_NAME)


def cause(config: pytest.Config) -> str:
    """ "SIGTERM" when this process stopped on one, else "Ctrl-C" (for the stopped_reason line)."""
    plugin = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return plugin.cause() if isinstance(plugin, SigtermAsCtrlC) else "Ctrl-C"
