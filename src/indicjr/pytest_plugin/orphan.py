"""An xdist worker whose controller is gone stops calling the model.

SIGKILL of the `-n 2` controller used to leave both workers generating (1,204 more requests in 14 s):
nobody would ever read their results. A worker's parent is its controller (execnet spawns it); when the
parent dies the worker is re-parented, so `os.getppid()` changes. A daemon thread notices that within
a quarter of a second and interrupts the worker the way Ctrl-C does (stop scheduling, cancel the
requests in flight, flush the answers to the store, release the claims), then, should the worker still
be alive after a grace period (blocked writing to the dead controller), ends it.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from indicjr.errors import EXIT_INTERRUPTED


def watch_controller(*, interval_s: float = 0.25, grace_s: float = 10.0) -> threading.Thread:
    """Start the watch for this process's parent; returns the (daemon) thread."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval_s)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(grace_s)
        os._exit(EXIT_INTERRUPTED)

    thread = threading.Thread(target=watch, name="indicjr-controller-watch", daemon=True)
    thread.start()
    return thread
