"""The one progress line of an xdist run, drawn by the controller from the shared response store.

Under xdist the workers generate (silently) and the controller only waits; it counts the answers the
workers have stored and redraws one line until the first test starts, so the line never mixes with
pytest's letters. Answers stored before the run are counted apart ("from the store"), not as a rate.
The simulator keeps no store: its runs take seconds and draw no line.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from indicjr.run.options import RunOptions

POLL_S = 0.5


class StoreProgress:
    def __init__(self, *, options: RunOptions, root: Path, started: float) -> None:
        self.options = options
        self.root = root
        self.started = started  # the run's start (the controller's clock): answers before it were stored
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, case_ids: set[str]) -> None:
        if self._thread is not None or not self.options.outputs.progress or self.options.outputs.store is None:
            return
        if self.options.endpoint.model.startswith("sim:") or self.options.endpoint.replay is not None:
            return
        from indicjr.errors import IJRError

        try:  # here, not in the thread: building the target and the keys must not eat a short run's polls
            keys = self._keys(case_ids)
        except (IJRError, OSError):
            return
        self._thread = threading.Thread(target=self._run, args=(keys,), name="ijr-progress", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.stop()  # the tests begin: generation is over, the letters take the terminal

    def pytest_sessionfinish(self) -> None:
        self.stop()

    def _keys(self, case_ids: set[str]) -> list[str]:
        from indicjr.run.engine import load_case_set, make_run_target, store_key_model
        from indicjr.run.results import request_for

        cases = [c for c in load_case_set(self.options.selection, root=self.root).cases if c.id in case_ids]
        samples = range(self.options.selection.samples)
        endpoint = self.options.endpoint
        identity = store_key_model(endpoint, make_run_target(endpoint))  # the keys the workers write
        return [request_for(c, self.options.endpoint.settings, s).key(identity) for c in cases for s in samples]

    def _run(self, keys: list[str]) -> None:
        from indicjr.targets.progress import Progress
        from indicjr.targets.store import Store

        progress, store = Progress(total=len(keys)), None
        while True:  # look at once (the line starts with the run), then every POLL_S until stopped
            if store is None and self.options.outputs.store is not None and self.options.outputs.store.is_file():
                store = Store(self.options.outputs.store)
            self._update(progress, store.get_many(keys) if store is not None else {}, final=False)
            if self._stop.wait(POLL_S):
                break
        if store is None and self.options.outputs.store is not None and self.options.outputs.store.is_file():
            store = Store(self.options.outputs.store)  # a run shorter than one poll still gets its final line
        if store is not None:
            self._update(progress, store.get_many(keys), final=True)
            store.close()

    def _update(self, progress: Any, found: dict[str, Any], *, final: bool) -> None:
        """Draw the line from the stored answers: those recorded before the run began are "from the
        store" (not the first look's count: a worker may have stored answers before it), and the
        final line sums this run's tokens like every other (it used to say "tokens 0/0")."""
        new = [r for r in found.values() if (r.recorded_at or 0.0) >= self.started]
        progress.update(
            done=len(found),
            errors=0,
            tokens_in=sum(r.input_tokens or 0 for r in new),  # spent by this run, as without xdist
            tokens_out=sum(r.output_tokens or 0 for r in new),
            final=final,
            cached=len(found) - len(new),
        )
