"""A plain-text progress line for the generation phase: done/total, rate, errors, tokens, ETA.

Plain text on purpose (no curses, no third-party bar): it must survive CI logs and pytest's capture.
On a terminal the line is redrawn in place; otherwise a new line is printed at most every 10 s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True, slots=True)
class ProgressSnapshot:
    done: int
    total: int
    errors: int
    tokens_in: int
    tokens_out: int
    elapsed_s: float
    cached: int = 0  # answered from the store before this run: done, but not requests of this run

    @property
    def rate(self) -> float:
        """Model answers per second this run (cached answers are not requests)."""
        return (self.done - self.cached) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        return (self.total - self.done) / self.rate if self.rate > 0 else None


def render(s: ProgressSnapshot) -> str:
    """One line, e.g. `ijr generate 1200/4000 30% (800 from the store) 410.2 answers/s errors 3 tokens 12.0k/4.8k
    ETA 0:07`."""
    pct = 100 * s.done / s.total if s.total else 100.0
    eta = "--" if s.eta_s is None else _clock(s.eta_s)
    stored = f" ({s.cached} from the store)" if s.cached else ""
    return (
        f"ijr generate {s.done}/{s.total} {pct:3.0f}%{stored} {s.rate:.1f} answers/s errors {s.errors} "
        f"tokens {_k(s.tokens_in)}/{_k(s.tokens_out)} ETA {eta}"
    )


def _k(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Throttled reporter; `sink` is a callable receiving snapshots, or None to write to `stream`."""

    def __init__(
        self,
        *,
        total: int,
        sink: Callable[[ProgressSnapshot], None] | None = None,
        stream: TextIO | None = None,
        interval_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self._sink = sink
        self._stream = stream or sys.stderr
        self._tty = sink is None and self._stream.isatty()
        self._interval_s = interval_s if interval_s is not None else (0.25 if self._tty or sink else 10.0)
        self._clock = clock
        self._start = clock()
        self._last = -float("inf")

    def update(
        self, *, done: int, errors: int, tokens_in: int, tokens_out: int, final: bool = False, cached: int = 0
    ) -> None:
        now = self._clock()
        if not final and now - self._last < self._interval_s:
            return
        self._last = now
        snap = ProgressSnapshot(done, self.total, errors, tokens_in, tokens_out, now - self._start, cached)
        if self._sink is not None:
            self._sink(snap)
            return
        end = "\n" if final or not self._tty else ""
        # On a terminal: back to the line's start, and clear what a longer previous frame left behind.
        self._stream.write(("\r" if self._tty else "") + render(snap) + ("\x1b[K" if self._tty else "") + end)
        self._stream.flush()


def make_progress(progress: bool | Callable[[ProgressSnapshot], None], total: int) -> Progress | None:
    """The runner's `progress=` argument: False (silent), True (stderr) or a callable."""
    if progress is False:
        return None
    return Progress(total=total, sink=None if progress is True else progress)
