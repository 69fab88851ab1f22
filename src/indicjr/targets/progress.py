"""A plain-text progress line for the generation phase: done/total, rate, errors, tokens, ETA.

Plain text on purpose (no curses, no third-party bar): it must survive CI logs and pytest's capture.
On a terminal the line is redrawn in place; otherwise a new line is printed at most every 10 s.

The speed and the ETA come from a moving window (the last WINDOW answers, measured up to now), so a
slow local model that answers every 30 s shows "30.0 s/answer" and a steady ETA, not "0.0 answers/s"
and an ETA that swings with the run's start-up.
"""

from __future__ import annotations

import sys
import time
from collections import deque
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
    window_rate: float | None = None  # answers per second over the last WINDOW answers, up to now

    @property
    def rate(self) -> float:
        """Model answers per second this run (cached answers are not requests)."""
        return (self.done - self.cached) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def speed(self) -> float:
        """The recent rate when known, else the run's rate: what the ETA and the line use."""
        return self.rate if self.window_rate is None else self.window_rate

    @property
    def eta_s(self) -> float | None:
        return (self.total - self.done) / self.speed if self.speed > 0 else None


def render(s: ProgressSnapshot) -> str:
    """One line, e.g. `ijr generate 1200/4000 30% (800 from the store) 410.2 answers/s errors 3 tokens 12.0k/4.8k
    ETA 0:07`; below one answer per second the speed reads `31.5 s/answer`."""
    pct = 100 * s.done / s.total if s.total else 100.0
    eta = "--" if s.eta_s is None else _clock(s.eta_s)
    stored = f" ({s.cached} from the store)" if s.cached else ""
    return (
        f"ijr generate {s.done}/{s.total} {pct:3.0f}%{stored} {_speed(s.speed)} errors {s.errors} "
        f"tokens {_k(s.tokens_in)}/{_k(s.tokens_out)} ETA {eta}"
    )


def _speed(rate: float) -> str:
    """Answers per second from one per second up; seconds per answer below (a slow local model)."""
    return f"{1 / rate:.1f} s/answer" if 0 < rate < 1 else f"{rate:.1f} answers/s"


def _k(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


WINDOW = 20  # answers the moving speed is measured over


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
        self._window: deque[tuple[float, int]] = deque([(self._start, 0)], maxlen=WINDOW + 1)

    def update(
        self, *, done: int, errors: int, tokens_in: int, tokens_out: int, final: bool = False, cached: int = 0
    ) -> None:
        now = self._clock()
        answered = done - cached
        if answered != self._window[-1][1]:
            self._window.append((now, answered))
        if not final and now - self._last < self._interval_s:
            return
        self._last = now
        t0, a0 = self._window[0]
        recent = (answered - a0) / (now - t0) if now > t0 else None
        snap = ProgressSnapshot(done, self.total, errors, tokens_in, tokens_out, now - self._start, cached, recent)
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
