"""Child processes that a test interrupts with Ctrl-C.

A process started in the background by a non-interactive shell (`nohup`, `cmd &` in a script, some CI
runners) inherits SIGINT *ignored*, and so does everything it starts: Python then installs no
KeyboardInterrupt handler, asyncio.run no cancelling one, and a test's SIGINT to its suite subprocess
does nothing — the run finishes (or hangs on a stalled server) and the test fails for a reason that has
nothing to do with the code. Passing `preexec_fn=default_sigint` gives the child a terminal's Ctrl-C.
"""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """`subprocess.Popen(..., preexec_fn=default_sigint)`: the child starts with SIGINT's default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
