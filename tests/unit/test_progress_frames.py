"""The progress line: cleared on each redraw, its final frame keeps the token counts, and the summary's
generation line agrees with its `answers:` line under xdist."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from indicjr.report.terminal import render_summary
from indicjr.run.options import Endpoint, Outputs, RunOptions
from indicjr.targets.progress import Progress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_each_frame_on_a_terminal_clears_what_a_longer_frame_left() -> None:
    out = _Tty()
    p = Progress(total=10, stream=out, interval_s=0.0)
    p.update(done=1, errors=0, tokens_in=123456, tokens_out=654321)
    p.update(done=10, errors=0, tokens_in=1, tokens_out=1, final=True)
    frames = out.getvalue().split("\r")[1:]
    assert len(frames) == 2 and all("\x1b[K" in f for f in frames)


@dataclass
class _Answer:
    input_tokens: int
    output_tokens: int
    recorded_at: float = 1.0  # stored during the run below (started at 0.0): its tokens are this run's


def test_the_xdist_final_frame_keeps_the_token_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import indicjr.targets.progress as progress_mod
    import indicjr.targets.store as store_mod
    from indicjr.pytest_plugin.xdist_progress import StoreProgress

    frames: list[dict[str, Any]] = []

    class Recorder:
        def __init__(self, *, total: int) -> None:
            self.total = total

        def update(self, **kw: Any) -> None:
            frames.append(kw)

    class FakeStore:
        def __init__(self, path: Path) -> None:
            self.path = path

        def get_many(self, keys: list[str]) -> dict[str, _Answer]:
            return {k: _Answer(10, 20) for k in keys}

        def close(self) -> None:
            pass

    monkeypatch.setattr(progress_mod, "Progress", Recorder)
    monkeypatch.setattr(store_mod, "Store", FakeStore)
    store = tmp_path / "store.sqlite"
    store.write_bytes(b"")
    sp = StoreProgress(
        options=RunOptions(endpoint=Endpoint(model="openai:x"), outputs=Outputs(store=store)),
        root=tmp_path,
        started=0.0,
    )
    sp._stop.set()  # one look, then the final frame
    sp._run(["a", "b", "c"])
    assert frames[-1]["final"] is True
    assert (frames[-1]["tokens_in"], frames[-1]["tokens_out"]) == (30, 60)


def test_the_generation_line_counts_from_the_store_what_the_answers_line_counts() -> None:
    summary = {
        "model": "openai:x",
        "headline": {},
        "generation": {"n_requested": 4896, "n_generated": 4704, "n_cached": 192, "n_calls": 4704},
        "answers": {"from_store": 0, "new": 4896},
    }
    lines = render_summary(summary)
    gen = next(line for line in lines if line.startswith("generation:"))
    answers = next(line for line in lines if line.startswith("answers:"))
    assert "0 from the store" in gen and answers.startswith("answers: 0 from the store")
