"""Counters agree with each other in every process layout: a fresh store has nothing "from the store"
(a worker starting late used to count the other worker's fresh answers), the progress line's end keeps
its tokens (it said "tokens 0/0"), the terminal's percentage never passes 100% (gates made it [141%]),
and a rerun's lines agree on how many answers came from the store."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import case_rows, openai_args, read_summary, suite_cmd, suite_env

LAYOUTS = {"no-xdist": (), "n0": ("-n", "0"), "n2": ("-n", "2")}


def _lines(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_store_token_and_progress_counters_agree_on_a_fresh_run_and_a_rerun(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, layout: str
) -> None:
    fake.configure(FakeConfig(latency_s=0.02))
    n = len(case_rows(tiny_cases))
    args = [*openai_args(fake, "--ijr-out=out", "--ijr-concurrency=4"), *LAYOUTS[layout]]
    cmd = [a for a in suite_cmd(tiny_cases, *args) if a != "--ijr-no-progress"]  # the progress line too
    for run, stored in ((1, 0), (2, n)):
        result = subprocess.run(
            cmd, cwd=suite.path, env=suite_env(suite), capture_output=True, text=True, timeout=180, check=False
        )
        out = result.stdout + result.stderr
        assert result.returncode in (0, 1), out[-2000:]
        new = n - stored
        assert _lines(out, "answers: ")[0].startswith(f"answers: {stored} from the store"), (run, out[-3000:])
        assert f"{new} new" in _lines(out, "answers: ")[0]
        assert f", {stored} from the store," in _lines(out, "generation: ")[0], (run, _lines(out, "generation: "))
        assert read_summary(suite.path / "out")["generation"]["n_cached"] == stored
        percents = [int(p) for p in re.findall(r"\[\s*(\d+)%\]", out)]
        assert percents and max(percents) == 100, percents
        final = _lines(out, "ijr generate")[-1]
        assert f"{n}/{n} 100%" in final, final
        assert ("tokens 0/0" in final) == (stored == n), final  # tokens spent by this run
